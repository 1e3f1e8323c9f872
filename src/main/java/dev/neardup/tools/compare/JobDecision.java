package dev.neardup.tools.compare;

import dev.neardup.config.Format;
import dev.neardup.config.NearDupSettings;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.similarity.ModeReport;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.similarity.Verification;
import dev.neardup.text.ContentType;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

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
    final SimilarityMode mode;
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
        this.mode = SimilarityMode.of(settings);
        TextSketcher sketcher = mode.newSketcher();
        DocumentSketcher.Sketch sa = sketcher.sketch(a, typeA);
        DocumentSketcher.Sketch sb = sketcher.sketch(b, typeB);
        this.keys = sa.bandKeys().length;
        Set<Long> keysOfB = Arrays.stream(sb.bandKeys()).boxed().collect(Collectors.toSet());
        this.colliding =
                IntStream.range(0, keys)
                        .filter(i -> keysOfB.contains(sa.bandKeys()[i]))
                        .boxed()
                        .toList();
        Verification v = mode.verification();
        this.exactCopy = sa.identity() == sb.identity();
        this.estimate =
                (exactCopy
                                ? v.identical()
                                : v.estimate(v.pack(sa.signature()), v.pack(sb.signature())))
                        .similarity();
        this.accepted = v.accepts(estimate);
        String unit = mode.keyUnit();
        String threshold = " threshold " + threshold();
        this.alert = wordsA != 0 && wordsB != 0 && !colliding.isEmpty() && accepted;
        if (wordsA == 0 || wordsB == 0) {
            this.reason =
                    (wordsA == 0 ? "A" : "B")
                            + " has no words: the job puts it in the dead letters (NO_TEXT)";
        } else if (colliding.isEmpty()) {
            this.reason = "no " + unit + " collides: the two never meet in a bucket";
        } else {
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
        return Format.plain(Math.round(settings.similarity().threshold() * 1e4) / 1e4);
    }

    /** The block of lines {@code compare} prints, ending with the one-line conclusion. */
    public void printText(PrintWriter out, String banding) {
        out.println();
        out.printf(
                Locale.ROOT,
                "What the job would do (%s, threshold %s, as 'neardup run' with these options):%n",
                mode.name(),
                threshold());
        String[] keyLine = mode.describeKeys(keys, banding);
        ModeReport.line(out, keyLine[0], keyLine[1], keyLine[2]);
        ModeReport.line(
                out,
                "colliding " + mode.keyUnit() + "s",
                colliding.isEmpty() ? "none" : colliding.size() + " of " + keys,
                colliding.isEmpty()
                        ? "no key of A is a key of B"
                        : mode.keyUnit()
                                + (colliding.size() == 1 ? " " : "s ")
                                + colliding.stream()
                                        .limit(MAX_LISTED)
                                        .map(String::valueOf)
                                        .collect(Collectors.joining(", "))
                                + (colliding.size() > MAX_LISTED ? ", ..." : ""));
        ModeReport.line(
                out,
                "bucket estimate",
                Format.fixed(estimate),
                (exactCopy ? "exact copies (equal sketches); " : "")
                        + mode.describeEstimate(estimate)
                        + (accepted ? "; >= " : "; < ")
                        + "threshold "
                        + threshold());
        out.println(
                "the job would alert this pair: " + (alert ? "yes" : "no") + " (" + reason + ")");
    }

    public Map<String, Object> toJson() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("similarity", mode.name());
        o.put("threshold", settings.similarity().threshold());
        o.put("keys", keys);
        o.put("colliding", colliding);
        o.put("exactCopy", exactCopy);
        o.put("estimate", estimate);
        o.put("estimateReachesThreshold", accepted);
        o.put("alert", alert);
        o.put("reason", reason);
        return o;
    }
}
