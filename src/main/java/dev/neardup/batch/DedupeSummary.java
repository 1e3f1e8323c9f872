package dev.neardup.batch;

import dev.neardup.config.CandidateMethod;
import dev.neardup.config.Format;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report of a dedupe run ({@link DedupeJob.Result}): the summary lines the command prints, its
 * JSON ({@code --summary}), and the cluster-size histogram in ranges 1, 2, 3-4, 5-8, ... as text
 * bars; {@code cli.ClusterSizePlot} draws the same ranges.
 */
public final class DedupeSummary {

    private DedupeSummary() {}

    /** One range of the histogram: cluster sizes {@code low..high}. */
    public record SizeRange(int low, int high, long clusters, long documents) {
        public String label() {
            return low == high ? String.valueOf(low) : low + "-" + high;
        }
    }

    /** Cluster sizes in ranges 1, 2, 3-4, 5-8, ... (empty ranges left out). */
    public static List<SizeRange> ranges(Map<Integer, Integer> sizes) {
        List<SizeRange> ranges = new ArrayList<>();
        int low = 1;
        int high = 1;
        int max = sizes.isEmpty() ? 0 : Collections.max(sizes.keySet());
        while (low <= max) {
            long clusters = 0;
            long documents = 0;
            for (Map.Entry<Integer, Integer> e : sizes.entrySet()) {
                if (e.getKey() >= low && e.getKey() <= high) {
                    clusters += e.getValue();
                    documents += (long) e.getKey() * e.getValue();
                }
            }
            if (clusters > 0) {
                ranges.add(new SizeRange(low, high, clusters, documents));
            }
            low = high + 1;
            high = high * 2;
        }
        return ranges;
    }

    /** Range label to number of clusters (the JSON summary's {@code clusterSizes}). */
    public static Map<String, Long> histogram(Map<Integer, Integer> sizes) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (SizeRange r : ranges(sizes)) {
            out.put(r.label(), r.clusters());
        }
        return out;
    }

    /** Widest bar of the text histogram, in characters. */
    static final int BAR_WIDTH = 40;

    /**
     * The histogram as text: one line per size range with its clusters, their documents and a bar
     * of {@code #} for the clusters on a log scale (singletons outnumber the rest by far), at least
     * one {@code #} for any cluster.
     */
    public static List<String> histogramLines(Map<Integer, Integer> sizes) {
        List<SizeRange> ranges = ranges(sizes);
        List<String> lines = new ArrayList<>();
        if (ranges.isEmpty()) {
            return lines;
        }
        long most = ranges.stream().mapToLong(SizeRange::clusters).max().orElse(1);
        int labelWidth =
                Math.max(4, ranges.stream().mapToInt(r -> r.label().length()).max().orElse(1));
        lines.add(
                format(
                        "%-" + labelWidth + "s %10s %10s  (bar: clusters, log scale)",
                        "size",
                        "clusters",
                        "documents"));
        for (SizeRange r : ranges) {
            lines.add(
                    format(
                            "%-" + labelWidth + "s %10d %10d  %s",
                            r.label(),
                            r.clusters(),
                            r.documents(),
                            "#".repeat(bar(r.clusters(), most))));
        }
        return lines;
    }

    /** Bar length of {@code n} of at most {@code most}: log scale, 1 for n = 1, full for most. */
    static int bar(long n, long most) {
        if (n <= 0) {
            return 0;
        }
        if (most <= 1) {
            return BAR_WIDTH;
        }
        double share = Math.log1p(n) / Math.log1p(most);
        return Math.max(1, (int) Math.round(share * BAR_WIDTH));
    }

    /** The summary lines (without the "neardup: " prefix the command adds). */
    public static List<String> lines(DedupeJob.Result r, DedupeSettings settings) {
        List<String> lines = new ArrayList<>();
        // A rate of a run of a few seconds would be mostly the start-up: none is printed.
        String rate = Format.rate(r.documents(), r.seconds());
        lines.add(
                format(
                        "done in %.1f s%s (one Flink job%s; %s): %s in %s, %d to remove; %s (%s),"
                                + " %s%s",
                        r.seconds(),
                        rate == null ? "" : ", " + rate,
                        r.jobs() == 1
                                ? ""
                                : ", run " + r.jobs() + " times for more component rounds",
                        r.rounds() == 0 && r.inMemory() > 0
                                ? "components found in memory"
                                : format(
                                        "components converged after %d of %d rounds",
                                        r.rounds(), r.roundsInJob()),
                        Format.count(r.clusteredDocuments(), "document"),
                        Format.count(r.clusters(), "cluster"),
                        r.removed(),
                        Format.count(r.pairs(), "verified pair"),
                        Format.count(r.exactCopies(), "exact copy", "exact copies"),
                        Format.count(r.deadLetters(), "dead letter"),
                        r.superseded() + r.deleted() == 0
                                ? ""
                                : format(
                                        "; %s of re-crawled ids and %s left out",
                                        Format.count(r.superseded(), "older version"),
                                        Format.count(r.deleted(), "deleted document"))));
        List<String> histogram = histogramLines(r.clusterSizes());
        if (!histogram.isEmpty()) {
            lines.add("cluster sizes:");
            histogram.forEach(l -> lines.add("  " + l));
        }
        List<String> largest = new ArrayList<>();
        for (ClusterStat c : r.largest()) {
            if (c.size() < 2 || largest.size() >= 5) {
                break;
            }
            largest.add(
                    format(
                            "%s (%d, lowest similarity to it %.2f)",
                            c.clusterId(), c.size(), c.minSimilarity()));
        }
        if (!largest.isEmpty()) {
            lines.add("largest clusters: " + String.join(", ", largest));
        }
        if (settings.exact()) {
            lines.add(
                    format(
                            "exact verification: %d of %d candidates (bands %s, estimate >= %.3f)"
                                    + " reach Jaccard %s in their shingle sets",
                            r.pairs() - r.exactCopies(),
                            r.exactChecks(),
                            settings.candidateBanding(),
                            settings.candidateFloor(),
                            Format.plain(settings.job().similarity().threshold())));
        }
        if (settings.candidates() == CandidateMethod.WINDOW) {
            lines.add(
                    format(
                            "sliding window: %d permutations x %d following fingerprints, %d"
                                    + " comparisons, largest sorted range %d fingerprints",
                            settings.permutations(),
                            settings.window(),
                            r.comparisons(),
                            r.largestBucket()));
        }
        if (r.giantBuckets() > 0) {
            lines.add(
                    format(
                            "%d %s buckets above the block size (largest %d distinct"
                                    + " signatures) compared in %d block pairs",
                            r.giantBuckets(),
                            settings.mode().keyUnit(),
                            r.largestBucket(),
                            r.blockTasks()));
        }
        if (settings.guarded()) {
            lines.add(
                    format(
                            "chaining guard: %s cut so that every member is within %s"
                                    + " of its cluster's earliest document",
                            Format.count(r.cutComponents(), "component"),
                            Format.plain(settings.splitBelow())));
        } else if (r.chainedComponents() > 0) {
            lines.add(
                    format(
                            "%s documents below the threshold to their earliest"
                                    + " document; --split-below %s cuts them",
                            r.chainedComponents() == 1
                                    ? "1 cluster chains"
                                    : r.chainedComponents() + " clusters chain",
                            // Cosine thresholds are irrational: rounded down, so no pair within
                            // k is cut.
                            Format.plain(
                                    Math.floor(settings.job().similarity().threshold() * 1e4)
                                            / 1e4)));
        }
        return lines;
    }

    /** The summary as JSON ({@code --summary FILE}). */
    public static Map<String, Object> json(DedupeJob.Result r, DedupeSettings settings) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("similarity", settings.mode().name());
        json.put("threshold", settings.job().similarity().threshold());
        settings.batch()
                .addSummary(
                        json,
                        settings.candidateBanding(),
                        settings.candidates() == CandidateMethod.WINDOW,
                        settings.window(),
                        settings.permutations());
        json.put("verify", settings.verify().name().toLowerCase(Locale.ROOT));
        json.put("splitBelow", settings.guarded() ? settings.splitBelow() : null);
        json.put("keepPolicy", settings.keepPolicy().name().toLowerCase(Locale.ROOT));
        json.put("documents", r.clusteredDocuments());
        json.put("records", r.documents());
        json.put("deadLetters", r.deadLetters());
        json.put("supersededVersions", r.superseded());
        json.put("deletedDocuments", r.deleted());
        json.put("clusters", r.clusters());
        json.put("kept", r.clusters()); // one document kept per cluster
        json.put("removed", r.removed());
        json.put("pairs", r.pairs());
        json.put("exactCopies", r.exactCopies());
        json.put("comparisons", r.comparisons());
        json.put("exactChecks", settings.exact() ? r.exactChecks() : null);
        json.put("bandEntries", r.bandEntries());
        json.put("giantBuckets", r.giantBuckets());
        json.put("blockPairs", r.blockTasks());
        json.put("largestBucket", r.largestBucket());
        json.put("componentRounds", r.rounds());
        json.put("componentRoundsInJob", r.roundsInJob());
        json.put("componentsInMemory", r.inMemory());
        json.put("jobs", r.jobs());
        json.put("chainedClusters", r.chainedComponents());
        json.put("cutComponents", r.cutComponents());
        json.put("clusterSizes", histogram(r.clusterSizes()));
        json.put("clusterSizesExact", r.clusterSizes());
        json.put("largestClusters", r.largest());
        json.put("seconds", r.seconds());
        json.put("documentsPerSecond", r.documents() / Math.max(1e-3, r.seconds()));
        return json;
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
