package dev.neardup.tools.tune;

import dev.neardup.config.Format;
import dev.neardup.io.Json;
import dev.neardup.lsh.ContainmentBanding;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.SuperShingleParams;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.runtime.NeardupException;
import dev.neardup.sketch.BottomKContainment;
import dev.neardup.tools.plot.SCurvePlot;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code tune} tool: the LSH banding (b bands of r rows) for a Jaccard threshold, chosen with
 * {@link LshParams#suggest} or given, with its S-curve as a table, JSON or a PNG or SVG chart (and
 * super-shingles next to it); for containment the job's size-partitioned bandings; for cosine the
 * job's block layout ({@link CosineTuning}).
 */
public final class Tuning {

    /** Similarities of the table rows are multiples of this step, up to 1. */
    private static final double TABLE_STEP = 0.05;

    /**
     * The options of a Jaccard tuning.
     *
     * @param threshold the similarity threshold t
     * @param numHashes MinHash values K
     * @param bands with {@code rows}: the banding to evaluate; null to choose one
     * @param plot where to draw the S-curve, or null
     * @param superShingleKeys super-shingles' keys per document, or null for none
     */
    public record Options(
            double threshold,
            int numHashes,
            double fpWeight,
            double fnWeight,
            Integer bands,
            Integer rows,
            Path plot,
            Integer superShingleKeys,
            boolean json) {}

    private final double threshold;
    private final int numHashes;
    private final double fpWeight;
    private final double fnWeight;
    private final Integer bands;
    private final Integer rows;
    private final Path plot;
    private final Integer superShingleKeys;
    private final boolean json;

    private Tuning(Options o) {
        this.threshold = o.threshold();
        this.numHashes = o.numHashes();
        this.fpWeight = o.fpWeight();
        this.fnWeight = o.fnWeight();
        this.bands = o.bands();
        this.rows = o.rows();
        this.plot = o.plot();
        this.superShingleKeys = o.superShingleKeys();
        this.json = o.json();
    }

    /** Checks the options, draws the plot if asked, and prints the banding. */
    public static void jaccard(Options options, PrintWriter out) {
        new Tuning(options).jaccard(out);
    }

    private void jaccard(PrintWriter out) {
        SCurvePlot.ImageFormat plotFormat = validate();
        boolean optimized = bands == null;
        LshParams params =
                optimized
                        ? LshParams.suggest(threshold, numHashes, fpWeight, fnWeight)
                        : new LshParams(bands, rows);
        Result result = new Result(params, optimized);
        if (plot != null) {
            try {
                SCurvePlot.write(SCurvePlot.create(params, threshold, numHashes), plot, plotFormat);
            } catch (IOException | RuntimeException e) {
                throw NeardupException.failure(
                        "cannot write plot "
                                + plot
                                + ": "
                                + NeardupException.oneLine(e.getMessage()),
                        e);
            }
        }
        if (json) {
            out.println(Json.pretty(result.toJson()));
        } else {
            printText(result, out);
        }
        out.flush();
    }

    /**
     * {@code tune --containment T}: the job's size-partitioned bandings (LSH Ensemble), one per
     * offset of the two documents' size partitions, with the resemblance each is tuned for and
     * P(candidate) of pairs contained at T and above at the size ratios it serves.
     */
    public static void containment(NearDupSettings settings, int numHashes, PrintWriter out) {
        ContainmentBanding banding = settings.containmentBanding();
        out.printf(
                Locale.ROOT,
                "containment %.2f, K = %d, largest size ratio %s: documents are in size partitions"
                    + " [2^p, 2^(p+1)) shingles; a pair p and p + d apart is looked for with the"
                    + " banding of offset d, tuned for the resemblance of a page contained at %.2f"
                    + " in one min(2^(d+1), R) times larger:%n%n",
                banding.containment(),
                numHashes,
                Format.plain(banding.maxRatio()),
                banding.containment());
        out.println("| offset d | banding | tuned for resemblance | keys per document |");
        out.println("| ---: | --- | ---: | ---: |");
        LshParams[] perOffset = banding.bandings();
        for (int d = 0; d < perOffset.length; d++) {
            out.printf(
                    Locale.ROOT,
                    "| %d | %s | %.3f | %d |%n",
                    d,
                    perOffset[d],
                    banding.resemblanceThreshold(d),
                    (d == 0 ? 1 : 2) * perOffset[d].bands());
        }
        out.printf(
                Locale.ROOT,
                "%nkeys per document: %d (each a bucket member of %d bytes of sample with"
                        + " --sketch-size %d)%n%nP(candidate) of a page of 1,000 shingles contained"
                        + " at c in a page r times larger:%n%n",
                banding.keysPerDocument(),
                BottomKContainment.packedBytes(settings.containmentSketchSize()),
                settings.containmentSketchSize());
        double[] cs = {banding.containment(), (1 + banding.containment()) / 2, 1.0};
        out.printf(
                Locale.ROOT,
                "| r | c = %.2f | c = %.2f | c = %.2f |%n| ---: | ---: | ---: | ---: |%n",
                cs[0],
                cs[1],
                cs[2]);
        for (double r : new double[] {1, 1.5, 2, 3, 4, 6, 8}) {
            if (r > 2 * banding.maxRatio()) {
                break;
            }
            out.printf(Locale.ROOT, "| %s |", Format.plain(r));
            for (double c : cs) {
                out.printf(
                        Locale.ROOT,
                        " %.4f |",
                        banding.candidateProbability(c, 1000, Math.round(1000 * r)));
            }
            out.println();
        }
        out.flush();
    }

    /**
     * The banding of {@code neardup tune}, {@code compare} and the job: {@code bands} x {@code
     * rows} when given (both or neither), else {@link LshParams#suggest(double, int)} with the
     * default weights, which are those of {@code neardup.tune.fp-weight} and {@code .fn-weight}. A
     * bad combination is a usage error naming the options.
     */
    public static LshParams banding(double threshold, int numHashes, Integer bands, Integer rows) {
        if ((bands == null) != (rows == null)) {
            throw NeardupException.usage(
                    "--bands and --rows go together: give both to evaluate a banding, or"
                            + " neither to choose one");
        }
        if (bands == null) {
            return LshParams.suggest(threshold, numHashes);
        }
        if (bands < 1 || rows < 1) {
            throw NeardupException.usage(
                    "--bands and --rows must both be at least 1, got " + bands + " and " + rows);
        }
        try {
            return new LshParams(bands, rows).checkFits(numHashes);
        } catch (IllegalArgumentException e) {
            throw NeardupException.usage(e.getMessage());
        }
    }

    /** Checks the options; returns the plot format (null without --plot). */
    private SCurvePlot.ImageFormat validate() {
        if (!(threshold > 0 && threshold < 1)) {
            throw NeardupException.usage(
                    "threshold must be a Jaccard similarity strictly between 0 and 1, got "
                            + Format.plain(threshold));
        }
        if (numHashes < 1 || numHashes > 4096) {
            throw NeardupException.usage(
                    "--num-hashes (K) must be between 1 and 4096, got " + numHashes);
        }
        if (!(fpWeight >= 0 && fnWeight >= 0)
                || Double.isInfinite(fpWeight)
                || Double.isInfinite(fnWeight)
                || fpWeight + fnWeight == 0) {
            throw NeardupException.usage(
                    "--fp-weight and --fn-weight must be finite, >= 0 and not both 0, got "
                            + Format.plain(fpWeight)
                            + " and "
                            + Format.plain(fnWeight));
        }
        banding(threshold, numHashes, bands, rows);
        if (plot == null) {
            return null;
        }
        SCurvePlot.ImageFormat format = SCurvePlot.ImageFormat.of(plot);
        if (format == null) {
            throw NeardupException.usage(
                    "--plot needs a file name ending in .png or .svg, got '" + plot + "'");
        }
        if (Files.isDirectory(plot)) {
            throw NeardupException.usage("--plot " + plot + " is a directory, not a file name");
        }
        Path dir = plot.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw NeardupException.usage(
                    "--plot " + plot + ": directory " + dir + " does not exist");
        }
        return format;
    }

    private void printText(Result r, PrintWriter out) {
        LshParams p = r.params;
        out.printf(
                Locale.ROOT,
                "LSH banding for threshold t = %s and K = %d MinHash values: %s%n",
                Format.plain(threshold),
                numHashes,
                p);
        out.println(
                r.optimized
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
        row(out, "false-positive area", Format.small(r.fpArea), "integral of P(s) over [0, t]");
        row(out, "false-negative area", Format.small(r.fnArea), "integral of 1 - P(s) over [t, 1]");
        row(
                out,
                "weighted error",
                Format.small(r.weightedError),
                Format.plain(fpWeight) + " x FP area + " + Format.plain(fnWeight) + " x FN area");
        out.println();
        out.printf(
                Locale.ROOT,
                "P(candidate) = 1 - (1 - s^%d)^%d for a pair of Jaccard similarity s:%n%n",
                p.rows(),
                p.bands());
        out.println("     s   P(candidate)");
        boolean marked = false;
        for (double[] row : r.table) {
            double s = row[0];
            double prob = row[1];
            String mark = "";
            if (!marked && s >= threshold - 1e-9) {
                marked = true;
                mark = "  <- threshold t = " + Format.plain(threshold);
            }
            out.printf(
                    Locale.ROOT,
                    "  %4.2f   %12s  |%-30s|%s%n",
                    s,
                    Format.probability(prob),
                    "#".repeat((int) Math.round(prob * 30)),
                    mark);
        }
        out.println();
        out.println("Pairs below t that become candidates are false positives (probability P);");
        out.println("pairs at or above t that do not are false negatives (probability 1 - P).");
        if (r.superShingles != null) {
            printSuperShingles(r, out);
        }
        if (plot != null) {
            out.println("wrote " + plot);
        }
    }

    private void printSuperShingles(Result r, PrintWriter out) {
        SuperShingleParams q = r.superShingles;
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
                "k x l; banding uses " + r.params.numHashesUsed());
        row(
                out,
                "false-positive area",
                Format.small(r.superFpArea),
                "banding: " + Format.small(r.fpArea));
        row(
                out,
                "false-negative area",
                Format.small(r.superFnArea),
                "banding: " + Format.small(r.fnArea));
        row(
                out,
                "weighted error",
                Format.small(fpWeight * r.superFpArea + fnWeight * r.superFnArea),
                "banding: " + Format.small(r.weightedError));
        out.println();
        out.printf(
                Locale.ROOT,
                "P(candidate) = P[Binomial(%d, s^%d) >= %d] next to banding's (%d keys):%n%n",
                q.superShingles(),
                q.rows(),
                q.required(),
                r.params.bands());
        out.println("     s        banding  super-shingles");
        boolean marked = false;
        for (double[] row : r.table) {
            String mark = "";
            if (!marked && row[0] >= threshold - 1e-9) {
                marked = true;
                mark = "  <- threshold t = " + Format.plain(threshold);
            }
            out.printf(
                    Locale.ROOT,
                    "  %4.2f   %12s  %14s%s%n",
                    row[0],
                    Format.probability(row[1]),
                    Format.probability(q.probability(row[0])),
                    mark);
        }
    }

    private static void row(PrintWriter out, String label, String value, String note) {
        out.printf(Locale.ROOT, "  %-21s %-12s %s%n", label, value, note);
    }

    /** The numbers that both outputs show. */
    private final class Result {
        final LshParams params;
        final boolean optimized;
        final double fpArea;
        final double fnArea;
        final double weightedError;
        final List<double[]> table = new ArrayList<>();
        final SuperShingleParams superShingles;
        final double superFpArea;
        final double superFnArea;

        Result(LshParams params, boolean optimized) {
            this.params = params;
            this.optimized = optimized;
            this.fpArea = params.falsePositiveArea(threshold);
            this.fnArea = params.falseNegativeArea(threshold);
            this.weightedError = fpWeight * fpArea + fnWeight * fnArea;
            this.superShingles =
                    superShingleKeys == null
                            ? null
                            : SuperShingleParams.suggest(
                                    threshold, numHashes, superShingleKeys, fpWeight, fnWeight);
            this.superFpArea =
                    superShingles == null ? 0 : superShingles.falsePositiveArea(threshold);
            this.superFnArea =
                    superShingles == null ? 0 : superShingles.falseNegativeArea(threshold);
            // From 0.50 (or lower, so that the threshold is in the table) to 1.00.
            int steps = (int) Math.round(1 / TABLE_STEP);
            int first = Math.min(steps / 2, (int) Math.floor(threshold / TABLE_STEP + 1e-9));
            for (int i = first; i <= steps; i++) {
                double s = i / (double) steps;
                table.add(new double[] {s, params.probability(s)});
            }
        }

        Map<String, Object> toJson() {
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
            o.put("falsePositiveArea", fpArea);
            o.put("falseNegativeArea", fnArea);
            o.put("weightedError", weightedError);
            o.put("probabilityAtThreshold", params.probability(threshold));
            List<Object> curve = new ArrayList<>();
            for (double[] row : table) {
                Map<String, Object> point = new LinkedHashMap<>();
                point.put("s", row[0]);
                point.put("p", row[1]);
                curve.add(point);
            }
            o.put("curve", curve);
            if (superShingles != null) {
                Map<String, Object> q = new LinkedHashMap<>();
                q.put("maxKeys", superShingleKeys);
                q.put("superShingles", superShingles.superShingles());
                q.put("rows", superShingles.rows());
                q.put("required", superShingles.required());
                q.put("keysPerDocument", superShingles.keyCount());
                q.put("numHashesUsed", superShingles.numHashesUsed());
                q.put("falsePositiveArea", superFpArea);
                q.put("falseNegativeArea", superFnArea);
                q.put("weightedError", fpWeight * superFpArea + fnWeight * superFnArea);
                q.put("probabilityAtThreshold", superShingles.probability(threshold));
                List<Object> points = new ArrayList<>();
                for (double[] row : table) {
                    Map<String, Object> point = new LinkedHashMap<>();
                    point.put("s", row[0]);
                    point.put("p", superShingles.probability(row[0]));
                    points.add(point);
                }
                q.put("curve", points);
                o.put("superShingles", q);
            }
            if (plot != null) {
                o.put("plot", plot.toString());
            }
            return o;
        }
    }
}
