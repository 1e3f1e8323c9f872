package dev.neardup.cli;

import dev.neardup.dedupe.CandidateMethod;
import dev.neardup.dedupe.DedupeCounters;
import dev.neardup.dedupe.DedupeJob;
import dev.neardup.dedupe.DedupeOptions;
import dev.neardup.dedupe.DedupeSettings;
import dev.neardup.dedupe.DedupeSummary;
import dev.neardup.dedupe.KeepPolicy;
import dev.neardup.dedupe.VerifyMode;
import dev.neardup.io.Json;
import dev.neardup.io.JsonLinesSink;
import dev.neardup.runtime.CliFiles;
import dev.neardup.runtime.Interruption;
import dev.neardup.runtime.NeardupException;
import dev.neardup.runtime.Progress;
import dev.neardup.runtime.WorkDir;
import dev.neardup.tools.Format;
import dev.neardup.tools.plot.ClusterSizePlot;
import dev.neardup.tools.plot.SCurvePlot;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.JobClient;
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
 * with progress; the job graph and its report live in {@code dev.neardup.dedupe}.
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
                    + " (--candidates blocks: every such pair) or by seed 002's sliding window"
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
                    "Chaining guard: cut clusters so that every member's estimated similarity"
                            + " to its cluster's earliest document is at least S (README: the"
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
                            + " --max-hamming). window: cosine only, seed 002's sliding window"
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
        boolean onCluster = JobMain.isActive();
        Configuration conf = toConfiguration();
        if (onCluster) {
            conf = JobOptions.onCluster(JobMain.clusterConfiguration(), conf);
        }
        List<String> given = input.sample ? List.of("sample-crawl.jsonl") : input.files;
        if (given.stream().filter("-"::equals).count() > 1) {
            throw NeardupException.usage("standard input (-) can be given once");
        }
        List<String> names = new ArrayList<>();
        for (String file : given) {
            names.add(file.equals("-") ? "stdin" : file);
        }
        if (new HashSet<>(names).size() != names.size()) {
            throw NeardupException.usage("an input is given twice: " + String.join(" ", given));
        }
        DedupeSettings settings;
        try {
            settings = DedupeSettings.from(conf, names);
        } catch (IllegalArgumentException e) {
            throw NeardupException.usage(e.getMessage());
        }
        SCurvePlot.ImageFormat histogramFormat = null;
        if (histogram != null) {
            histogramFormat = SCurvePlot.ImageFormat.of(histogram);
            if (histogramFormat == null) {
                throw NeardupException.usage(
                        "--histogram must end in .png or .svg, got " + histogram);
            }
            CliFiles.writableFile("--histogram", histogram.toString());
        }
        if (summary != null) {
            CliFiles.writableFile("--summary", summary.toString());
        }
        Duration every = Progress.parseInterval(progressInterval);
        PrintWriter err = spec.commandLine().getErr();
        if (onCluster) {
            return submit(conf, settings, given, err);
        }
        if (!input.sample) {
            given.forEach(DedupeCommand::checkInput);
        }
        DedupeJob.Outputs outputs =
                new DedupeJob.Outputs(
                        localOutput("--clusters", clusters),
                        localOutput("--keep", keep),
                        localOutput("--pairs", pairs),
                        deadLetters == null
                                ? JsonLinesSink.STDERR_SUMMARY
                                : localOutput("--dead-letters", deadLetters));
        if (Stream.of(clusters, keep, pairs, deadLetters).filter("-"::equals).count() > 1) {
            throw NeardupException.usage("only one output can go to standard output (-)");
        }
        Progress progress =
                quiet ? null : Progress.onStderr(err, every, "dedupe", progressCounts(settings));
        try (WorkDir dir = WorkDir.of(workDir, "neardup-");
                Interruption interruption =
                        Interruption.install(quiet ? null : err, progress, dir::close)) {
            Path work = dir.path();
            List<String> inputs = new ArrayList<>();
            for (String file : given) {
                inputs.add(inputFile(file, work));
            }
            conf.set(CoreOptions.TMP_DIRS, work.resolve("tmp").toString());
            conf.set(WebOptions.UPLOAD_DIR, work.resolve("tmp").toString());
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            if (!quiet) {
                err.println("neardup: dedupe " + settings);
            }
            Progress.eraseBeforeConsoleRecords(progress);
            DedupeJob.Result result =
                    new DedupeJob(conf, settings, inputs, outputs, true)
                            .run(
                                    job -> {
                                        interruption.onSignal(job::cancel);
                                        return Progress.await(job, progress, interruption);
                                    });
            if (result == null) {
                if (!quiet) {
                    err.println(
                            "neardup: dedupe interrupted by "
                                    + interruption.signalName()
                                    + "; its outputs are incomplete");
                }
                return interruption.exitCode();
            }
            report(result, settings, err);
        }
        return 0;
    }

    /**
     * The progress of a dedupe on embedded Flink: its stage and the records it passed. {@link
     * Progress} asks for the stage first, which takes the snapshot the other counts come from. The
     * candidate stage and its entries are named as {@code settings} finds candidates: LSH band
     * buckets, permuted-block table buckets (cosine) or the sliding window (cosine, window); the
     * JSON names stay the same.
     */
    static Progress.Counts progressCounts(DedupeSettings settings) {
        String buckets;
        String entries;
        if (settings.candidates() == CandidateMethod.WINDOW) {
            buckets = "sliding window";
            entries = "window entries";
        } else if (settings.cosine()) {
            buckets = "table buckets";
            entries = "table entries";
        } else {
            buckets = DedupeCounters.Stage.BUCKETS.label();
            entries = "band entries";
        }
        return new Progress.Counts() {
            private DedupeCounters.Snapshot last = DedupeCounters.snapshot();

            @Override
            public String stage() {
                last = DedupeCounters.snapshot();
                return last.stage() == DedupeCounters.Stage.BUCKETS
                        ? buckets
                        : last.stage().label();
            }

            @Override
            public String name() {
                return "records";
            }

            @Override
            public long count() {
                return last.stageRecords();
            }

            @Override
            public List<Progress.Field> fields() {
                return List.of(
                        new Progress.Field("documents", "documents", last.documents()),
                        new Progress.Field("bandEntries", entries, last.bandEntries()),
                        new Progress.Field("comparisons", "comparisons", last.comparisons()),
                        new Progress.Field("pairs", "verified pairs", last.pairs()),
                        new Progress.Field("componentRounds", "component rounds", last.round() + 1),
                        new Progress.Field("clustered", "clustered", last.clustered()));
            }
        };
    }

    /**
     * As a job jar on a cluster ({@link JobMain}): inputs and outputs are paths the TaskManagers
     * reach (a plain path is on their local filesystem, so it must be absolute; outputs are
     * directories of part files). Attached ({@code flink run} without {@code -d}): waits, then
     * reports as on this machine. Detached (REST API, {@code flink run -d}): submits and returns.
     */
    private Integer submit(
            Configuration conf, DedupeSettings settings, List<String> given, PrintWriter err)
            throws Exception {
        if (input.sample || given.contains("-")) {
            throw NeardupException.usage(
                    "on a Flink cluster, give --input as a path or URI the TaskManagers can read"
                            + " (--sample and standard input are for runs on this machine)");
        }
        if (workDir != null) {
            throw NeardupException.usage(
                    "--work-dir is for runs on this machine: on a cluster, temporary files go"
                            + " where the cluster's io.tmp.dirs says");
        }
        List<String> inputs = new ArrayList<>();
        for (String file : given) {
            inputs.add(clusterPath("--input", file));
        }
        DedupeJob.Outputs outputs =
                new DedupeJob.Outputs(
                        clusterPath("--clusters", clusters),
                        clusterPath("--keep", keep),
                        clusterPath("--pairs", pairs),
                        clusterPath("--dead-letters", deadLetters));
        DedupeJob job = new DedupeJob(conf, settings, inputs, outputs, false);
        boolean attached = JobMain.clusterConfiguration().get(DeploymentOptions.ATTACHED);
        if (!attached) {
            if (summary != null || histogram != null) {
                throw NeardupException.usage(
                        "--summary and --histogram need the job's result: submit with 'flink run'"
                                + " without -d (attached), not detached or through the REST API");
            }
            JobClient client = job.start();
            if (!quiet) {
                err.println(
                        "neardup: dedupe submitted as Flink job "
                                + client.getJobID()
                                + "; its outputs are complete once the job is FINISHED");
            }
            return 0;
        }
        if (!quiet) {
            err.println("neardup: dedupe " + settings);
        }
        report(job.run(client -> Progress.await(client, null, null)), settings, err);
        return 0;
    }

    /** The summary on stderr, and the --summary and --histogram files. */
    private void report(DedupeJob.Result result, DedupeSettings settings, PrintWriter err)
            throws IOException {
        if (summary != null) {
            Files.writeString(
                    summary,
                    Json.pretty(DedupeSummary.json(result, settings)) + "\n",
                    StandardCharsets.UTF_8);
        }
        if (histogram != null) {
            SCurvePlot.write(
                    ClusterSizePlot.create(
                            result.clusterSizes(),
                            String.format(
                                    Locale.ROOT,
                                    "%,d documents in %,d clusters; %s%s",
                                    result.clusteredDocuments(),
                                    result.clusters(),
                                    settings.cosine()
                                            ? "cosine, Hamming distance <= "
                                                    + settings.job().maxHamming()
                                                    + " of "
                                                    + settings.job().simHashBits()
                                                    + " bits"
                                            : "threshold "
                                                    + Format.plain(settings.job().threshold()),
                                    settings.guarded()
                                            ? ", split below " + Format.plain(settings.splitBelow())
                                            : "")),
                    histogram,
                    SCurvePlot.ImageFormat.of(histogram));
        }
        if (!quiet) {
            for (String line : DedupeSummary.lines(result, settings)) {
                err.println("neardup: " + line);
            }
            if (histogram != null) {
                err.println("neardup: wrote " + histogram);
            }
        }
    }

    private Configuration toConfiguration() {
        Configuration conf = new Configuration();
        ConfigKeys.check(properties, "-D");
        properties.forEach(conf::setString);
        sketch.applyTo(conf);
        similarity.applyTo(conf);
        banding.applyTo(conf, similarity);
        if (candidates != null) {
            conf.set(DedupeOptions.CANDIDATES, candidates);
        }
        if (verify != null) {
            conf.set(DedupeOptions.VERIFY, verify);
        }
        if (window != null) {
            conf.set(DedupeOptions.WINDOW, window);
        }
        if (permutations != null) {
            conf.set(DedupeOptions.PERMUTATIONS, permutations);
        }
        if (keepPolicy != null) {
            conf.set(DedupeOptions.KEEP_POLICY, keepPolicy);
        }
        if (splitBelow != null) {
            conf.set(DedupeOptions.SPLIT_BELOW, splitBelow);
        }
        if (blockSize != null) {
            conf.set(DedupeOptions.BLOCK_SIZE, blockSize);
        }
        if (parallelism != null) {
            if (parallelism < 1) {
                throw NeardupException.usage(
                        "--parallelism must be at least 1, got " + parallelism);
            }
            conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        }
        return conf;
    }

    /**
     * An output on this machine: a local file (checked), {@code -}, or a Flink filesystem URI (a
     * directory of part files; its filesystem must be known here); null when not given.
     */
    private static String localOutput(String option, String target) {
        if (target == null || !DedupeJob.isFileSystemUri(target)) {
            CliFiles.writableFile(option, target);
            return target;
        }
        fileSystem(option, target);
        return target;
    }

    /**
     * A path on a cluster: a Flink filesystem URI as given, an absolute path as a {@code file:}
     * URI; null when not given.
     */
    private static String clusterPath(String option, String target) {
        if (target == null || DedupeJob.isFileSystemUri(target)) {
            return target;
        }
        if (target.equals("-")) {
            throw NeardupException.usage(
                    option + " -: on a Flink cluster outputs go to files, not standard output");
        }
        Path path = Path.of(target);
        if (!path.isAbsolute()) {
            throw NeardupException.usage(
                    option
                            + " "
                            + target
                            + ": on a Flink cluster give an absolute path (on every"
                            + " TaskManager) or a URI such as s3://bucket/"
                            + path);
        }
        return path.toUri().toString();
    }

    /** The Flink filesystem of {@code uri}; a usage error naming the option when there is none. */
    private static org.apache.flink.core.fs.FileSystem fileSystem(String option, String uri) {
        try {
            return new org.apache.flink.core.fs.Path(URI.create(uri)).getFileSystem();
        } catch (IOException | IllegalArgumentException e) {
            throw NeardupException.usage(
                    "cannot use "
                            + (option == null ? "" : option + " ")
                            + uri
                            + ": "
                            + NeardupException.oneLine(String.valueOf(e.getMessage())));
        }
    }

    /** A local input must be a readable file; one on another filesystem must exist. */
    private static void checkInput(String file) {
        if (file.equals("-")) {
            return;
        }
        Path local;
        try {
            local = DedupeJob.localPath(file);
        } catch (IllegalArgumentException e) {
            throw NeardupException.usage("not a path or URI: " + file);
        }
        if (local != null) {
            CliFiles.readableFile("input file", file, local);
            return;
        }
        try {
            org.apache.flink.core.fs.Path path =
                    new org.apache.flink.core.fs.Path(URI.create(file));
            org.apache.flink.core.fs.FileSystem fs = path.getFileSystem();
            if (!fs.exists(path)) {
                throw NeardupException.usage("input file not found: " + file);
            }
            if (fs.getFileStatus(path).isDir()) {
                throw NeardupException.usage(file + " is a directory, not a file");
            }
        } catch (IOException | IllegalArgumentException e) {
            throw NeardupException.usage(
                    "cannot read "
                            + file
                            + ": "
                            + NeardupException.oneLine(String.valueOf(e.getMessage())));
        }
    }

    private String inputFile(String file, Path work) throws IOException {
        if (input.sample) {
            Path sample = work.resolve("sample-crawl.jsonl");
            try (InputStream in = DedupeCommand.class.getResourceAsStream("/sample/crawl.jsonl")) {
                if (in == null) {
                    throw NeardupException.failure(
                            "the sample crawl is missing from the jar", null);
                }
                Files.copy(in, sample, StandardCopyOption.REPLACE_EXISTING);
            }
            return sample.toString();
        }
        if (file.equals("-")) {
            Path spooled = work.resolve("stdin.jsonl");
            Files.copy(parent.stdin(), spooled, StandardCopyOption.REPLACE_EXISTING);
            return spooled.toString();
        }
        return file;
    }
}
