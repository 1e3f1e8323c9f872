package dev.neardup.cli;

import dev.neardup.batch.CandidateMethod;
import dev.neardup.batch.DedupeJob;
import dev.neardup.batch.DedupeOptions;
import dev.neardup.batch.DedupeSettings;
import dev.neardup.batch.KeepPolicy;
import dev.neardup.batch.VerifyMode;
import dev.neardup.runtime.CliFiles;
import dev.neardup.runtime.DedupeRun;
import dev.neardup.runtime.NeardupException;
import dev.neardup.tools.plot.ClusterSizePlot;
import dev.neardup.tools.plot.SCurvePlot;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code neardup dedupe}: all near-duplicate pairs of a collection on disk and its clusters, as one
 * bounded Flink job in BATCH mode ({@link DedupeJob}), on embedded Flink or, through the job jar's
 * {@link JobMain}, on a cluster. Parses and checks the options, places inputs and outputs, waits
 * with progress; the job graph and its report live in {@code dev.neardup.batch}.
 */
@Command(
        name = "dedupe",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        header = "Cluster near-duplicates of a collection; list the ones to keep.",
        description = {
            "Find every near-duplicate pair of a collection of documents (JSON Lines, as for"
                    + " 'run') and its clusters, the connected components of the similarity graph,"
                    + " with one bounded Flink job in BATCH mode (on embedded Flink here; on a"
                    + " cluster with the job jar: flink run neardup-job.jar dedupe ...). Candidate"
                    + " pairs share an LSH band bucket (no cap on bucket size; bands chosen so"
                    + " that 99%% of the pairs at the threshold are candidates) and are verified by"
                    + " the exact Jaccard similarity of their shingle sets (--verify exact), so the"
                    + " clusters are those of the exact similarity graph; exact copies are grouped"
                    + " first.",
            "With --similarity cosine --max-hamming K: 64-bit (--simhash-bits) SimHash"
                    + " fingerprints of the word frequencies; pairs within Hamming distance K"
                    + " (cosine >= cos(pi K / bits)), found by the permuted-block tables"
                    + " (--candidates blocks: every such pair) or by a sliding window"
                    + " (--candidates window: --permutations sorted orders of the permuted bits,"
                    + " each fingerprint compared with the next --window). Both plug into the"
                    + " same one job: components, clusters and outputs as for Jaccard.",
            "Writes one line per document (its cluster: the id of the cluster's earliest document"
                    + " by fetchedAt, then id; a document without near-duplicates is a cluster of"
                    + " one), optionally the keep list (one document per cluster) and the pairs."
                    + " Bad records go to the dead letters with their reason. An output given as a"
                    + " Flink filesystem URI (file:///..., s3://...) is a directory of part files"
                    + " written by every subtask; a plain path is one file.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  neardup dedupe --input crawl.jsonl --clusters clusters.jsonl \\",
            "      --keep keep.jsonl",
            "  neardup dedupe --input part-1.jsonl --input s3://bucket/part-2.jsonl \\",
            "      --clusters clusters.jsonl --pairs pairs.jsonl --split-below 0.8 \\",
            "      --summary summary.json --histogram sizes.png",
            "  neardup dedupe --input crawl.jsonl --clusters clusters.jsonl \\",
            "      --similarity cosine --max-hamming 3 --stopwords",
            "  neardup dedupe --input crawl.jsonl --clusters clusters.jsonl \\",
            "      --similarity cosine --candidates window --window 8 --permutations 10",
            "  flink run -p 2 neardup-job.jar dedupe --input s3://bucket/crawl.jsonl \\",
            "      --clusters s3://bucket/clusters --keep s3://bucket/keep",
        })
final class DedupeCommand implements Callable<Integer> {

    /** Where input comes from. */
    static final class Input {
        @Option(
                names = {"--input", "-i"},
                paramLabel = "PATH",
                required = true,
                description =
                        "JSON Lines file of documents: a local path, a Flink filesystem URI"
                                + " (file://, s3://, ...) or - for standard input. Repeatable.")
        List<String> files;

        @Option(
                names = "--sample",
                required = true,
                description = "Use the sample crawl bundled in the jar.")
        boolean sample;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Input input;

    @Option(
            names = "--clusters",
            paramLabel = "FILE",
            required = true,
            description =
                    "Where each document's cluster goes (one JSON line per valid document): a"
                            + " file, - for stdout, or a Flink filesystem URI (a directory).")
    String clusters;

    @Option(
            names = "--keep",
            paramLabel = "FILE",
            description = "Where the keep list goes: one line per cluster, its kept document.")
    String keep;

    @Option(
            names = "--pairs",
            paramLabel = "FILE",
            description = "Where the verified pairs go, with their estimated similarity.")
    String pairs;

    @Option(
            names = "--dead-letters",
            paramLabel = "FILE",
            description =
                    "Where dead letters (with payload and reason) go. Default: one summary line"
                            + " each on stderr.")
    String deadLetters;

    @Option(
            names = "--keep-policy",
            paramLabel = "earliest|longest|first",
            converter = KeepPolicyConverter.class,
            description =
                    "The document a cluster keeps: the earliest (by fetchedAt, then id: the"
                            + " cluster id), the longest content, or the first in input order."
                            + " Default: ${bundle:default.neardup.dedupe.keep-policy}.")
    KeepPolicy keepPolicy;

    @Option(
            names = "--split-below",
            paramLabel = "S",
            description =
                    "Chaining guard: cut clusters so that every member's estimated similarity to"
                            + " its cluster's earliest document is at least S (docs/dedupe.md: the"
                            + " chaining guard). Default: off, clusters are connected components.")
    Double splitBelow;

    @Option(
            names = "--summary",
            paramLabel = "FILE",
            description =
                    "Write the summary (counts, cluster size histogram, largest clusters,"
                            + " rounds) as JSON.")
    Path summary;

    @Mixin SketchOptions sketch;

    @Mixin SimilarityOptions similarity;

    @Option(
            names = "--candidates",
            paramLabel = "blocks|window",
            converter = CandidatesConverter.class,
            description =
                    "How candidate pairs are found. blocks: shared LSH band keys (Jaccard) or"
                            + " permuted-block table keys (cosine: every pair within"
                            + " --max-hamming). window: cosine only, a sliding window"
                            + " over sorted, permuted fingerprints (cheaper for large K, may"
                            + " miss pairs). Default: ${bundle:default.neardup.dedupe.candidates}.")
    CandidateMethod candidates;

    @Option(
            names = "--window",
            paramLabel = "W",
            description =
                    "--candidates window: each fingerprint is compared with the next W in every"
                            + " sorted order. Default: ${bundle:default.neardup.dedupe.window}.")
    Integer window;

    @Option(
            names = "--permutations",
            paramLabel = "M",
            description =
                    "--candidates window: how many random permutations of the fingerprint bits are"
                            + " sorted. Default: ${bundle:default.neardup.dedupe.permutations}.")
    Integer permutations;

    @Mixin BandsOptions banding;

    @Option(
            names = "--verify",
            paramLabel = "exact|signature",
            converter = VerifyConverter.class,
            description =
                    "How a candidate pair is verified. exact (the default for Jaccard): the exact"
                            + " Jaccard similarity of the two shingle sets, so the clusters are"
                            + " the connected components of the exact similarity graph; the"
                            + " bands are then chosen to make 99%% of the pairs at the threshold"
                            + " candidates (21 x 6 at 0.8) unless --bands/--rows are given."
                            + " signature: the MinHash estimate decides, as in 'run' (pairs"
                            + " within about 0.035 of the threshold land on either side); the"
                            + " only mode of --similarity cosine.")
    VerifyMode verify;

    @Option(
            names = "--block-size",
            paramLabel = "N",
            description =
                    "Band (or cosine table) buckets with more distinct signatures are compared in"
                            + " blocks of N, block against block. Default:"
                            + " ${bundle:default.neardup.dedupe.block-size}.")
    Integer blockSize;

    @Option(
            names = {"--parallelism", "-p"},
            paramLabel = "N",
            description = "Parallelism of the jobs. Default: the number of CPU cores.")
    Integer parallelism;

    @Option(
            names = "--histogram",
            paramLabel = "FILE",
            description =
                    "Draw the cluster-size histogram (clusters and their documents per size"
                            + " range, log scale) as a PNG or SVG picture, by the file's"
                            + " extension.")
    Path histogram;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description =
                    "Local directory for temporary files (Flink's sort spills, standard input)."
                            + " Default: a new temporary directory, deleted at the end.")
    Path workDir;

    @Option(
            names = "--progress-interval",
            paramLabel = "DURATION",
            description =
                    "How often progress (stage, records) is reported on stderr: a line rewritten"
                            + " on a terminal, else a JSON line. Default: 1s on a terminal, 5s"
                            + " otherwise.")
    String progressInterval;

    @Option(
            names = {"-D"},
            paramLabel = "KEY=VALUE",
            parameterConsumer = KeyValueOption.class,
            description = "Any Flink or neardup configuration option (repeatable).")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(
            names = {"--quiet", "-q"},
            description = "No settings, progress or summary on stderr.")
    boolean quiet;

    @ParentCommand Neardup parent;

    @Spec CommandSpec spec;

    /** Converts blocks|window. */
    static final class CandidatesConverter extends EnumConverter<CandidateMethod> {
        CandidatesConverter() {
            super(CandidateMethod.class);
        }
    }

    /** Converts exact|signature. */
    static final class VerifyConverter extends EnumConverter<VerifyMode> {
        VerifyConverter() {
            super(VerifyMode.class);
        }
    }

    /** Converts earliest|longest|first. */
    static final class KeepPolicyConverter extends EnumConverter<KeepPolicy> {
        KeepPolicyConverter() {
            super(KeepPolicy.class);
        }
    }

    @Override
    public Integer call() throws Exception {
        Configuration conf = toConfiguration();
        Configuration cluster = JobMain.isActive() ? JobMain.clusterConfiguration() : null;
        if (cluster != null) {
            conf = JobOptions.onCluster(cluster, conf);
        }
        DedupeRun.Options options =
                new DedupeRun.Options(
                        conf,
                        cluster,
                        input.sample,
                        input.files,
                        parent.stdin(),
                        clusters,
                        keep,
                        pairs,
                        deadLetters,
                        summary,
                        histogram,
                        // A lambda, not ClusterSizePlot::write: the job jar has no charts, and a
                        // method reference would load the plot's classes on every run.
                        (result, settings, file) -> ClusterSizePlot.write(result, settings, file),
                        workDir,
                        progressInterval,
                        quiet);
        DedupeSettings settings = DedupeRun.settings(options);
        if (histogram != null) {
            if (SCurvePlot.ImageFormat.of(histogram) == null) {
                throw NeardupException.usage(
                        "--histogram must end in .png or .svg, got " + histogram);
            }
            CliFiles.writableFile("--histogram", histogram.toString());
        }
        return DedupeRun.run(options, settings, spec.commandLine().getErr());
    }

    private Configuration toConfiguration() {
        Configuration conf = new Configuration();
        ConfigKeys.check(properties, "-D");
        properties.forEach(conf::setString);
        sketch.applyTo(conf);
        similarity.applyTo(conf);
        banding.applyTo(conf, similarity);
        setIfGiven(conf, DedupeOptions.CANDIDATES, candidates);
        setIfGiven(conf, DedupeOptions.VERIFY, verify);
        setIfGiven(conf, DedupeOptions.WINDOW, window);
        setIfGiven(conf, DedupeOptions.PERMUTATIONS, permutations);
        setIfGiven(conf, DedupeOptions.KEEP_POLICY, keepPolicy);
        setIfGiven(conf, DedupeOptions.SPLIT_BELOW, splitBelow);
        setIfGiven(conf, DedupeOptions.BLOCK_SIZE, blockSize);
        if (parallelism != null) {
            if (parallelism < 1) {
                throw NeardupException.usage(
                        "--parallelism must be at least 1, got " + parallelism);
            }
            conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        }
        return conf;
    }

    private static <T> void setIfGiven(Configuration conf, ConfigOption<T> option, T value) {
        if (value != null) {
            conf.set(option, value);
        }
    }
}
