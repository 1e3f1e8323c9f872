package dev.neardup.tools.report;

import dev.neardup.config.NearDupSettings;
import dev.neardup.lsh.LshParams;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The report of a run's outputs ({@code dedupe --report}, {@code run --report}), filled as the
 * outputs are read: the reported pairs ({@link #pair}) sampled per band of the job's estimate, and
 * the members of the largest clusters ({@link #largest}, then {@link #member}); then {@link #build}
 * reads the sampled pages from the input and computes their exact similarity. Memory is the
 * samples: {@code samples} pairs per band, {@code 10 samples} members of each of {@link #CLUSTERS}
 * clusters.
 */
public final class OutputReport {

    /** How many of the largest clusters the report shows. */
    public static final int CLUSTERS = 10;

    /** The bands of similarity: tenths, the highest first. */
    private static final int BANDS = 10;

    private record Reported(String earlier, String later, double estimate) {}

    /** A member shown against its cluster's first page, with the job's estimate (or NaN). */
    private record Shown(String id, double estimate) {}

    private final int samples;
    private final List<PairSample<Reported>> bands = new ArrayList<>();
    private final Map<String, Long> largest = new LinkedHashMap<>();
    private final Map<String, PairSample<Report.Member>> members = new HashMap<>();
    private final Map<String, PairSample<Shown>> shown = new HashMap<>();
    private Map<String, Set<String>> shownIds;
    private final Map<String, Double> estimates = new HashMap<>();

    /** The S-curve, drawn on another core while the outputs are read. */
    private final CompletableFuture<Report.Figure> sCurve;

    /**
     * A report that shows {@code samples} pairs per band and per cluster.
     *
     * @param banding the candidate bands for the S-curve (Jaccard), or null for the job's
     */
    public OutputReport(int samples, NearDupSettings settings, LshParams banding) {
        this.samples = samples;
        this.sCurve = CompletableFuture.supplyAsync(() -> Charts.sCurve(settings, banding));
        for (int k = 0; k < BANDS; k++) {
            bands.add(new PairSample<>(samples));
        }
    }

    /** A pair the job reported: {@code later} is a near-duplicate of {@code earlier}. */
    public void pair(String earlier, String later, double estimate) {
        int band = Math.min(BANDS - 1, Math.max(0, (int) Math.floor(estimate * BANDS + 1e-9)));
        bands.get(band).offer(earlier, later, new Reported(earlier, later, estimate));
        if (shownIds == null) {
            // The members are all in by now (dedupe reads its clusters before its pairs).
            shownIds = new HashMap<>();
            shown.forEach(
                    (c, sample) -> {
                        Set<String> set = new HashSet<>();
                        sample.items().forEach(m -> set.add(m.id()));
                        shownIds.put(c, set);
                    });
        }
        Set<String> members = shownIds.get(earlier);
        if (members != null && members.contains(later)) {
            estimates.put(later + '\u0000' + earlier, estimate);
        }
    }

    /** The clusters to show, with their sizes: the largest first ({@link #CLUSTERS} at most). */
    public void largest(Map<String, Long> clusters) {
        clusters.entrySet().stream()
                .sorted(
                        Map.Entry.<String, Long>comparingByValue()
                                .reversed()
                                .thenComparing(Map.Entry.comparingByKey()))
                .limit(CLUSTERS)
                .forEach(
                        e -> {
                            largest.put(e.getKey(), e.getValue());
                            members.put(e.getKey(), new PairSample<>(10 * samples));
                            shown.put(e.getKey(), new PairSample<>(samples));
                        });
    }

    /** Whether {@code clusterId} is one of the clusters shown. */
    public boolean shows(String clusterId) {
        return largest.containsKey(clusterId);
    }

    /**
     * A member of a cluster (ignored unless the cluster is shown), with the job's estimate of its
     * similarity to the cluster's first page when the job reported that pair, else NaN. Members
     * come before pairs.
     */
    public void member(String clusterId, String id, String url, double estimateToFirst) {
        PairSample<Report.Member> sample = members.get(clusterId);
        if (sample == null) {
            return;
        }
        sample.offer(clusterId, id, new Report.Member(id, url));
        if (!id.equals(clusterId)) {
            shown.get(clusterId).offer(clusterId, id, new Shown(id, estimateToFirst));
        }
    }

    /**
     * The report: reads the sampled pages from {@code inputs} (their latest versions).
     *
     * @param figures plots besides the S-curve (the cluster sizes)
     */
    public Report build(
            String title,
            List<Report.Fact> facts,
            NearDupSettings settings,
            List<String> inputs,
            List<Report.Figure> figures)
            throws IOException {
        Set<String> ids = new HashSet<>();
        for (PairSample<Reported> band : bands) {
            for (Reported r : band.items()) {
                ids.add(r.earlier());
                ids.add(r.later());
            }
        }
        largest.keySet().forEach(ids::add);
        shown.values().forEach(s -> s.items().forEach(m -> ids.add(m.id())));
        SampledPages pages = SampledPages.read(inputs, ids, settings, true);

        List<Report.Section> sections = new ArrayList<>();
        for (int k = BANDS - 1; k >= 0; k--) {
            PairSample<Reported> band = bands.get(k);
            if (band.seen() == 0) {
                continue;
            }
            List<Reported> items = new ArrayList<>(band.items());
            items.sort(Comparator.comparingDouble(Reported::estimate).reversed());
            List<Report.Pair> pairs = new ArrayList<>();
            for (Reported r : items) {
                pairs.add(pages.pair(r.earlier(), r.later(), r.estimate(), true));
            }
            sections.add(
                    new Report.Section(
                            String.format(
                                    Locale.ROOT,
                                    "%.1f-%.1f",
                                    k / (double) BANDS,
                                    (k + 1.0) / BANDS),
                            String.format(
                                    Locale.ROOT,
                                    "%d of the %,d reported pairs whose estimated similarity is in"
                                            + " [%.1f, %.1f%s; the exact similarity is computed"
                                            + " from the two pages.",
                                    items.size(),
                                    band.seen(),
                                    k / (double) BANDS,
                                    (k + 1.0) / BANDS,
                                    k == BANDS - 1 ? "]" : ")"),
                            pairs));
        }
        List<Report.Cluster> clusters = new ArrayList<>();
        for (Map.Entry<String, Long> c : largest.entrySet()) {
            String first = c.getKey();
            List<Report.Member> list = new ArrayList<>(members.get(first).items());
            list.sort(
                    Comparator.comparing((Report.Member m) -> !m.id().equals(first))
                            .thenComparing(Report.Member::id));
            List<Shown> others = new ArrayList<>(shown.get(first).items());
            others.sort(Comparator.comparing(Shown::id));
            List<Report.Pair> pairs = new ArrayList<>();
            for (Shown other : others) {
                double estimate =
                        Double.isNaN(other.estimate())
                                ? estimates.getOrDefault(other.id() + '\u0000' + first, Double.NaN)
                                : other.estimate();
                pairs.add(pages.pair(first, other.id(), estimate, !Double.isNaN(estimate)));
            }
            clusters.add(new Report.Cluster(first, c.getValue(), list, pairs));
        }
        List<Report.Figure> all = new ArrayList<>();
        all.add(sCurve.join());
        all.addAll(figures);
        return new Report(title, facts, all, sections, clusters);
    }
}
