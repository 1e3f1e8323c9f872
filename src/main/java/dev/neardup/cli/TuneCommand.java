package dev.neardup.cli;

import dev.neardup.io.Json;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.SuperShingleParams;
import dev.neardup.runtime.NeardupException;
import dev.neardup.sketch.MinHash;
import dev.neardup.tools.tune.CosineTuning;
import dev.neardup.tools.tune.Tuning;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code neardup tune}: chooses the LSH banding (b bands of r rows) for a similarity threshold with
 * {@link LshParams#suggest}, or evaluates a given banding, and shows its S-curve as a table, as
 * JSON, or as a PNG or SVG chart.
 */
@Command(
        name = "tune",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        header = "Choose LSH bands and rows for a threshold; draw the S-curve.",
        description = {
            "Chooses LSH banding parameters for a similarity threshold t: the b bands of r rows"
                    + " (b x r <= K) that minimise the weighted false-positive and false-negative"
                    + " areas of the S-curve P(s) = 1 - (1 - s^r)^b, the probability that a pair"
                    + " of documents with Jaccard similarity s becomes a candidate pair.",
            "",
            "False-positive area: the integral of P(s) over [0, t], dissimilar pairs that are"
                    + " compared anyway (they cost time).",
            "False-negative area: the integral of 1 - P(s) over [t, 1], near-duplicates that"
                    + " are missed.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  neardup tune --threshold 0.8",
            "  neardup tune --threshold 0.8 --plot s-curve.png",
            "  neardup tune --threshold 0.8 --fn-weight 0.9 --fp-weight 0.1",
            "      (prefer missing fewer near-duplicates over comparing fewer pairs)",
            "  neardup tune --threshold 0.8 --bands 20 --rows 5 --json",
            "      (evaluate the 20 x 5 banding of Mining of Massive Datasets, chapter 3)"
        })
final class TuneCommand implements Callable<Integer> {

    /** Similarities of the table rows are multiples of this step, up to 1. */
    private static final double TABLE_STEP = 0.05;

    @Spec CommandSpec spec;

    @Option(
            names = {"-t", "--threshold"},
            paramLabel = "T",
            description =
                    "Jaccard similarity from which a pair of documents counts as a near-duplicate,"
                            + " strictly between 0 and 1, for example 0.8 (required but with"
                            + " --similarity cosine, where it may replace --max-hamming).")
    Double threshold;

    @picocli.CommandLine.Mixin SimilarityOptions similarity;

    @Option(
            names = "--corpus-size",
            paramLabel = "N",
            description =
                    "cosine: documents the tables hold at once (those within the retention), for"
                            + " the expected random candidates and the default layout."
                            + " Default: 1000000, as the job's.")
    Long corpusSize;

    @Option(
            names = "--num-hashes",
            paramLabel = "K",
            defaultValue = "" + MinHash.DEFAULT_NUM_HASHES,
            description =
                    "MinHash signature length K (1 to 4096); the bands use b x r <= K of its"
                            + " values. Default: ${DEFAULT-VALUE}.")
    int numHashes;

    @Option(
            names = "--fp-weight",
            paramLabel = "W",
            defaultValue = "" + LshParams.DEFAULT_FP_WEIGHT,
            description =
                    "Weight of the false-positive area in the error that is minimised."
                            + " Default: ${DEFAULT-VALUE}.")
    double fpWeight;

    @Option(
            names = "--fn-weight",
            paramLabel = "W",
            defaultValue = "" + LshParams.DEFAULT_FN_WEIGHT,
            description =
                    "Weight of the false-negative area in the error that is minimised."
                            + " Default: ${DEFAULT-VALUE}.")
    double fnWeight;

    @Option(
            names = "--bands",
            paramLabel = "B",
            description = "Evaluate B bands (with --rows) instead of choosing the banding.")
    Integer bands;

    @Option(
            names = "--rows",
            paramLabel = "R",
            description = "Rows per band of the banding to evaluate (with --bands).")
    Integer rows;

    @Option(
            names = "--plot",
            paramLabel = "FILE",
            description =
                    "Also draw the S-curve with the threshold and the two error areas into FILE,"
                            + " a .png or .svg image.")
    Path plot;

    @Option(
            names = "--super-shingles",
            paramLabel = "KEYS",
            arity = "0..1",
            fallbackValue = "" + SuperShingleParams.DEFAULT_MAX_KEYS,
            description =
                    "Also show super-shingles (Broder 1997), the candidate generator for"
                            + " very high thresholds: k super-shingles of l MinHash values, a"
                            + " candidate when t of them agree, C(k, t) keys per document at most"
                            + " KEYS (default "
                            + SuperShingleParams.DEFAULT_MAX_KEYS
                            + "), chosen by the same weighted error; their S-curve stands next"
                            + " to banding's.")
    Integer superShingleKeys;

    @Option(names = "--json", description = "Print the result as one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        if (superShingleKeys != null && (similarity.containment() || similarity.cosine())) {
            throw NeardupException.usage(
                    "--super-shingles applies to Jaccard resemblance (MinHash), not to "
                            + (similarity.containment() ? "--containment" : "--similarity cosine"));
        }
        if (similarity.containment()) {
            return containment();
        }
        if (similarity.cosine()) {
            return cosine();
        }
        if (corpusSize != null) {
            throw NeardupException.usage("--corpus-size applies to --similarity cosine");
        }
        if (superShingleKeys != null
                && (superShingleKeys < 1 || superShingleKeys > SuperShingleParams.MAX_KEYS)) {
            throw NeardupException.usage(
                    "--super-shingles KEYS must be between 1 and "
                            + SuperShingleParams.MAX_KEYS
                            + ", got "
                            + superShingleKeys);
        }
        if (threshold == null) {
            throw NeardupException.usage(
                    "Missing required option: '--threshold=T' (or give --similarity cosine"
                            + " --max-hamming K)");
        }
        Tuning.jaccard(
                new Tuning.Options(
                        threshold,
                        numHashes,
                        fpWeight,
                        fnWeight,
                        bands,
                        rows,
                        plot,
                        superShingleKeys,
                        json),
                spec.commandLine().getOut());
        spec.commandLine().getOut().flush();
        return 0;
    }

    /**
     * {@code tune --containment T}: the job's size-partitioned bandings (LSH Ensemble), one per
     * offset of the two documents' size partitions, with the resemblance each is tuned for and
     * P(candidate) of pairs contained at T and above at the size ratios it serves.
     */
    private int containment() {
        if (bands != null || rows != null || plot != null || threshold != null || json) {
            throw NeardupException.usage(
                    "--threshold, --bands, --rows, --plot and --json are for Jaccard similarity;"
                            + " with --containment T the bands are tuned per pair of size"
                            + " partitions from T, --max-size-ratio and --num-hashes");
        }
        org.apache.flink.configuration.Configuration conf =
                new org.apache.flink.configuration.Configuration();
        similarity.applyTo(conf);
        conf.set(dev.neardup.config.NearDupOptions.NUM_HASHES, numHashes);
        conf.set(dev.neardup.config.NearDupOptions.FP_WEIGHT, fpWeight);
        conf.set(dev.neardup.config.NearDupOptions.FN_WEIGHT, fnWeight);
        dev.neardup.pipeline.NearDupSettings settings = JobOptions.settings(conf);
        Tuning.containment(settings, numHashes, spec.commandLine().getOut());
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** {@code tune --similarity cosine}: the job's block layout for these options, explained. */
    private int cosine() {
        if (bands != null || rows != null || plot != null) {
            throw NeardupException.usage(
                    "--bands, --rows and --plot are for Jaccard similarity; with --similarity"
                            + " cosine the tables come from --max-hamming and --simhash-blocks");
        }
        org.apache.flink.configuration.Configuration conf =
                new org.apache.flink.configuration.Configuration();
        similarity.applyTo(conf);
        if (threshold != null) {
            conf.set(dev.neardup.config.NearDupOptions.THRESHOLD, threshold);
        }
        long n =
                corpusSize != null
                        ? corpusSize
                        : dev.neardup.config.NearDupOptions.SIMHASH_CORPUS_SIZE.defaultValue();
        conf.set(dev.neardup.config.NearDupOptions.SIMHASH_CORPUS_SIZE, n);
        CosineTuning tuning =
                new CosineTuning(JobOptions.settings(conf), n, similarity.blocks != null);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.pretty(tuning.toJson()));
        } else {
            tuning.printText(out);
        }
        out.flush();
        return 0;
    }
}
