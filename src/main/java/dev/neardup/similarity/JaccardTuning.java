package dev.neardup.similarity;

import dev.neardup.config.ConfigException;
import dev.neardup.config.Format;
import dev.neardup.config.JaccardSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.SuperShingleParams;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoubleUnaryOperator;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The Jaccard mode's tuning ({@code neardup tune --threshold T}): the LSH banding (b bands of r
 * rows) for the threshold, chosen with {@link LshParams#suggest} or given with {@code --bands} and
 * {@code --rows}, with its S-curve as a table or JSON, and super-shingles next to it if asked.
 */
public final class JaccardTuning implements ModeTuning {

    /** Similarities of the table rows are multiples of this step, up to 1. */
    private static final double TABLE_STEP = 0.05;

    private final double threshold;
    private final int numHashes;
    private final double fpWeight;
    private final double fnWeight;
    private final Integer superShingleKeys;
    private final LshParams params;
    private final boolean optimized;
    private final double fpArea;
    private final double fnArea;
    private final SuperShingleParams superShingles;

    /** The similarities of the S-curve's rows, and the first at or above the threshold. */
    private final List<Double> table = new ArrayList<>();

    private final int thresholdRow;

    JaccardTuning(
            JaccardSettings settings,
            int numHashes,
            ReadableConfig conf,
            Set<String> flags,
            Integer superShingleKeys) {
        if (flags.contains("--corpus-size")) {
            throw new ConfigException("--corpus-size applies to --similarity cosine");
        }
        if (superShingleKeys != null
                && (superShingleKeys < 1 || superShingleKeys > SuperShingleParams.MAX_KEYS)) {
            throw new ConfigException(
                    "--super-shingles KEYS must be between 1 and %s, got %s"
                            .formatted(SuperShingleParams.MAX_KEYS, superShingleKeys));
        }
        if (conf.getOptional(NearDupOptions.THRESHOLD).isEmpty()) {
            throw new ConfigException(
                    "Missing required option: '--threshold=T' (or give --similarity cosine"
                            + " --max-hamming K)");
        }
        this.threshold = settings.threshold();
        this.numHashes = numHashes;
        this.fpWeight = conf.get(NearDupOptions.FP_WEIGHT);
        this.fnWeight = conf.get(NearDupOptions.FN_WEIGHT);
        this.superShingleKeys = superShingleKeys;
        this.optimized = conf.getOptional(NearDupOptions.BANDS).isEmpty();
        LshParams given = banding(conf, threshold, numHashes);
        this.params = optimized ? settings.banding() : given;
        this.fpArea = params.falsePositiveArea(threshold);
        this.fnArea = params.falseNegativeArea(threshold);
        this.superShingles =
                superShingleKeys == null
                        ? null
                        : SuperShingleParams.suggest(
                                threshold, numHashes, superShingleKeys, fpWeight, fnWeight);
        // From 0.50 (or lower, so that the threshold is in the table) to 1.00.
        int steps = (int) Math.round(1 / TABLE_STEP);
        int first = Math.min(steps / 2, (int) Math.floor(threshold / TABLE_STEP + 1e-9));
        for (int i = first; i <= steps; i++) {
            table.add(i / (double) steps);
        }
        int row = 0;
        while (row < table.size() && table.get(row) < threshold - 1e-9) {
            row++;
        }
        this.thresholdRow = row;
    }

    @Override
    public LshParams sCurve() {
        return params;
    }

    /**
     * The banding of {@code neardup tune}, {@code compare} and the job: {@code neardup.bands} x
     * {@code neardup.rows} of {@code conf} when set (both or neither), else {@link
     * LshParams#suggest(double, int)} with the default weights. A bad combination is a usage error
     * naming the flags.
     */
    public static LshParams banding(ReadableConfig conf, double threshold, int numHashes) {
        Optional<Integer> bands = conf.getOptional(NearDupOptions.BANDS);
        Optional<Integer> rows = conf.getOptional(NearDupOptions.ROWS);
        if (bands.isPresent() != rows.isPresent()) {
            throw new ConfigException(
                    "--bands and --rows go together: give both to evaluate a banding, or"
                            + " neither to choose one");
        }
        if (bands.isEmpty()) {
            return LshParams.suggest(threshold, numHashes);
        }
        if (bands.get() < 1 || rows.get() < 1) {
            throw new ConfigException(
                    "--bands and --rows must both be at least 1, got %s and %s"
                            .formatted(bands.get(), rows.get()));
        }
        try {
            return new LshParams(bands.get(), rows.get()).checkFits(numHashes);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    @Override
    public void printText(PrintWriter out) {
        LshParams p = params;
        out.printf(
                Locale.ROOT,
                "LSH banding for threshold t = %s and K = %d MinHash values: %s%n",
                Format.plain(threshold),
                numHashes,
                p);
        out.println(
                optimized
                        ? "(chosen to minimise "
                                + Format.plain(fpWeight)
                                + " x FP area + "
                                + Format.plain(fnWeight)
                                + " x FN area)"
                        : "(given with --bands and --rows)");
        out.println();
        row(out, "bands b", Integer.toString(p.bands()), "band keys per document");
        row(out, "rows per band r", Integer.toString(p.rows()), "MinHash values per band");
        row(
                out,
                "hash values used",
                p.numHashesUsed() + " of " + numHashes,
                "b x r; the others are not used by LSH");
        row(
                out,
                "effective threshold",
                Format.fixed(p.effectiveThreshold()),
                "(1/b)^(1/r), where the S-curve rises steepest");
        row(out, "false-positive area", Format.small(fpArea), "integral of P(s) over [0, t]");
        row(out, "false-negative area", Format.small(fnArea), "integral of 1 - P(s) over [t, 1]");
        row(
                out,
                "weighted error",
                Format.small(weighted(fpArea, fnArea)),
                Format.plain(fpWeight) + " x FP area + " + Format.plain(fnWeight) + " x FN area");
        out.println();
        out.printf(
                Locale.ROOT,
                "P(candidate) = 1 - (1 - s^%d)^%d for a pair of Jaccard similarity s:%n%n",
                p.rows(),
                p.bands());
        out.println("     s   P(candidate)");
        for (int i = 0; i < table.size(); i++) {
            double prob = p.probability(table.get(i));
            out.printf(
                    Locale.ROOT,
                    "  %4.2f   %12s  |%-30s|%s%n",
                    table.get(i),
                    Format.probability(prob),
                    "#".repeat((int) Math.round(prob * 30)),
                    mark(i));
        }
        out.println();
        out.println("Pairs below t that become candidates are false positives (probability P);");
        out.println("pairs at or above t that do not are false negatives (probability 1 - P).");
        if (superShingles != null) {
            printSuperShingles(out);
        }
    }

    private void printSuperShingles(PrintWriter out) {
        SuperShingleParams q = superShingles;
        double superFp = q.falsePositiveArea(threshold);
        double superFn = q.falseNegativeArea(threshold);
        out.println();
        out.printf(
                Locale.ROOT,
                "Super-shingles (Broder 1997) for t = %s, at most %d keys per document: %d"
                        + " super-shingles of %d values, a candidate when m = %d of them agree%n",
                Format.plain(threshold),
                superShingleKeys,
                q.superShingles(),
                q.rows(),
                q.required());
        out.println(
                "(chosen to minimise the same weighted error; k = super-shingles, l = values"
                        + " each, m = agreeing)");
        out.println();
        row(out, "keys per document", Integer.toString(q.keyCount()), "C(k, m), one per m-subset");
        row(
                out,
                "hash values used",
                q.numHashesUsed() + " of " + numHashes,
                "k x l; banding uses " + params.numHashesUsed());
        row(out, "false-positive area", Format.small(superFp), "banding: " + Format.small(fpArea));
        row(out, "false-negative area", Format.small(superFn), "banding: " + Format.small(fnArea));
        row(
                out,
                "weighted error",
                Format.small(weighted(superFp, superFn)),
                "banding: " + Format.small(weighted(fpArea, fnArea)));
        out.println();
        out.printf(
                Locale.ROOT,
                "P(candidate) = P[Binomial(%d, s^%d) >= %d] next to banding's (%d keys):%n%n",
                q.superShingles(),
                q.rows(),
                q.required(),
                params.bands());
        out.println("     s        banding  super-shingles");
        for (int i = 0; i < table.size(); i++) {
            out.printf(
                    Locale.ROOT,
                    "  %4.2f   %12s  %14s%s%n",
                    table.get(i),
                    Format.probability(params.probability(table.get(i))),
                    Format.probability(q.probability(table.get(i))),
                    mark(i));
        }
    }

    private static void row(PrintWriter out, String label, String value, String note) {
        out.printf(Locale.ROOT, "  %-21s %-12s %s%n", label, value, note);
    }

    /** The note after the first row at or above the threshold. */
    private String mark(int row) {
        return row == thresholdRow ? "  <- threshold t = " + Format.plain(threshold) : "";
    }

    private double weighted(double fpArea, double fnArea) {
        return fpWeight * fpArea + fnWeight * fnArea;
    }

    /** The error areas of S-curve {@code p}, its value at t and at the rows, as JSON fields. */
    private void putCurve(Map<String, Object> o, double fp, double fn, DoubleUnaryOperator p) {
        o.put("falsePositiveArea", fp);
        o.put("falseNegativeArea", fn);
        o.put("weightedError", weighted(fp, fn));
        o.put("probabilityAtThreshold", p.applyAsDouble(threshold));
        List<Object> curve = new ArrayList<>();
        for (double s : table) {
            Map<String, Object> point = new LinkedHashMap<>();
            point.put("s", s);
            point.put("p", p.applyAsDouble(s));
            curve.add(point);
        }
        o.put("curve", curve);
    }

    @Override
    public Map<String, Object> toJson() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("threshold", threshold);
        o.put("numHashes", numHashes);
        o.put("optimized", optimized);
        o.put("fpWeight", fpWeight);
        o.put("fnWeight", fnWeight);
        o.put("bands", params.bands());
        o.put("rows", params.rows());
        o.put("numHashesUsed", params.numHashesUsed());
        o.put("effectiveThreshold", params.effectiveThreshold());
        putCurve(o, fpArea, fnArea, params::probability);
        if (superShingles != null) {
            Map<String, Object> q = new LinkedHashMap<>();
            q.put("maxKeys", superShingleKeys);
            q.put("superShingles", superShingles.superShingles());
            q.put("rows", superShingles.rows());
            q.put("required", superShingles.required());
            q.put("keysPerDocument", superShingles.keyCount());
            q.put("numHashesUsed", superShingles.numHashesUsed());
            putCurve(
                    q,
                    superShingles.falsePositiveArea(threshold),
                    superShingles.falseNegativeArea(threshold),
                    superShingles::probability);
            o.put("superShingles", q);
        }
        return o;
    }
}
