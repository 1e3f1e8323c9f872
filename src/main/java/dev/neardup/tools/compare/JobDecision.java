package dev.neardup.tools.compare;

import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.similarity.Verification;
import dev.neardup.text.ContentType;
import dev.neardup.tools.Format;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the streaming job ({@code neardup run} with the same settings) would do with two documents,
 * for {@code neardup compare}: it sketches both with the job's sketcher, so the band (or table)
 * keys are the keys of the job's buckets; the pair meets in every bucket whose key both have. A
 * bucket verifies it with the estimate it can make from what it keeps of its members ({@link
 * Verification}: the b-bit corrected MinHash estimate for Jaccard, cos(pi h / D) of the SimHash
 * fingerprints for cosine, the bottom-s samples for containment), and alerts when that estimate
 * reaches the threshold. Exact copies (equal sketch identities) are kept once and match at 1.
 */
public final class JobDecision {

    /** Colliding keys the text lists at most. */
    private static final int MAX_LISTED = 12;

    final NearDupSettings settings;
    final int keys;
    final List<Integer> colliding;
    final boolean exactCopy;
    final double estimate;
    final boolean accepted;
    final boolean alert;
    final String reason;

    /**
     * @param wordsA the words of document A (0: the job rejects it, reason NO_TEXT)
     */
    public JobDecision(
            NearDupSettings settings,
            String a,
            ContentType typeA,
            int wordsA,
            String b,
            ContentType typeB,
            int wordsB) {
        this.settings = settings;
        TextSketcher sketcher = settings.mode().newSketcher();
        DocumentSketcher.Sketch sa = sketcher.sketch(a, typeA);
        DocumentSketcher.Sketch sb = sketcher.sketch(b, typeB);
        this.keys = sa.bandKeys().length;
        Set<Long> keysOfB = new HashSet<>();
        for (long k : sb.bandKeys()) {
            keysOfB.add(k);
        }
        this.colliding = new ArrayList<>();
        for (int i = 0; i < sa.bandKeys().length; i++) {
            if (keysOfB.contains(sa.bandKeys()[i])) {
                colliding.add(i);
            }
        }
        Verification v = settings.mode().verification();
        this.exactCopy = sa.identity() == sb.identity();
        this.estimate =
                (exactCopy
                                ? v.identical()
                                : v.estimate(v.pack(sa.signature()), v.pack(sb.signature())))
                        .similarity();
        this.accepted = v.accepts(estimate);
        String unit = unit();
        String threshold = " threshold " + threshold();
        if (wordsA == 0 || wordsB == 0) {
            this.alert = false;
            this.reason =
                    (wordsA == 0 ? "A" : "B")
                            + " has no words: the job puts it in the dead letters (NO_TEXT)";
        } else if (colliding.isEmpty()) {
            this.alert = false;
            this.reason = "no " + unit + " collides: the two never meet in a bucket";
        } else {
            this.alert = accepted;
            String where = unit + " " + colliding.get(0) + " collides";
            this.reason =
                    exactCopy
                            ? where + " and they are exact copies (equal sketches)"
                            : (accepted ? where + " and" : where + ", but")
                                    + " the bucket's estimate "
                                    + Format.fixed(estimate)
                                    + (accepted ? " >=" : " <")
                                    + threshold;
        }
    }

    /** The threshold, to 4 decimals at most (cosine's is cos(pi k / D)). */
    private String threshold() {
        return Format.plain(Math.round(settings.threshold() * 1e4) / 1e4);
    }

    /** What the job's keys are called in this family. */
    private String unit() {
        return switch (settings.family()) {
            case JACCARD -> "band";
            case COSINE -> "table";
            case CONTAINMENT -> "band key";
        };
    }

    /** How the buckets estimate the similarity of a pair, in this family. */
    private String estimator() {
        return switch (settings.family()) {
            case JACCARD ->
                    String.format(
                            Locale.ROOT,
                            "%d-bit MinHash, b-bit corrected (K = %d), what a bucket keeps",
                            settings.signatureBits(),
                            settings.numHashes());
            case COSINE ->
                    "cos(pi h / D), h = Hamming distance "
                            + settings.mode().verification().hamming(estimate)
                            + " of "
                            + settings.simHashBits()
                            + " bits, k = "
                            + settings.maxHamming();
            case CONTAINMENT ->
                    "containment of one in the other, from bottom-"
                            + settings.containmentSketchSize()
                            + " samples";
        };
    }

    /** The block of lines {@code compare} prints, ending with the one-line conclusion. */
    public void printText(PrintWriter out, String banding) {
        out.println();
        out.printf(
                Locale.ROOT,
                "What the job would do (%s, threshold %s, as 'neardup run' with these options):%n",
                settings.family().name().toLowerCase(Locale.ROOT),
                threshold());
        switch (settings.family()) {
            case JACCARD ->
                    line(
                            out,
                            "LSH banding",
                            settings.banding().bands() + " x " + settings.banding().rows(),
                            banding);
            case COSINE ->
                    line(
                            out,
                            "block tables",
                            Integer.toString(keys),
                            "tables of " + settings.blockParams().blocks() + " blocks");
            case CONTAINMENT ->
                    line(
                            out,
                            "band keys",
                            Integer.toString(keys),
                            "size-partitioned, per document");
        }
        line(
                out,
                "colliding " + unit() + "s",
                colliding.isEmpty() ? "none" : colliding.size() + " of " + keys,
                colliding.isEmpty()
                        ? "no key of A is a key of B"
                        : unit()
                                + (colliding.size() == 1 ? " " : "s ")
                                + colliding.stream()
                                        .limit(MAX_LISTED)
                                        .map(String::valueOf)
                                        .collect(Collectors.joining(", "))
                                + (colliding.size() > MAX_LISTED ? ", ..." : ""));
        line(
                out,
                "bucket estimate",
                Format.fixed(estimate),
                (exactCopy ? "exact copies (equal sketches); " : "")
                        + estimator()
                        + (accepted ? "; >= " : "; < ")
                        + "threshold "
                        + threshold());
        out.println(
                "the job would alert this pair: " + (alert ? "yes" : "no") + " (" + reason + ")");
    }

    public Map<String, Object> toJson() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("similarity", settings.family().name().toLowerCase(Locale.ROOT));
        o.put("threshold", settings.threshold());
        o.put("keys", keys);
        o.put("colliding", colliding);
        o.put("exactCopy", exactCopy);
        o.put("estimate", estimate);
        o.put("estimateReachesThreshold", accepted);
        o.put("alert", alert);
        o.put("reason", reason);
        return o;
    }

    private static void line(PrintWriter out, String label, String value, String note) {
        out.printf(Locale.ROOT, "%-19s %-7s %s%n", label, value, note);
    }
}
