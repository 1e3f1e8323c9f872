package dev.neardup.runtime;

import dev.neardup.batch.DedupeCounters;
import dev.neardup.batch.DedupeJob;
import dev.neardup.batch.DedupeSettings;
import dev.neardup.batch.DedupeSummary;
import dev.neardup.config.CandidateMethod;
import dev.neardup.io.Json;
import dev.neardup.io.JsonLinesSink;
import dev.neardup.runtime.Progress.Field;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.NettyShuffleEnvironmentOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.JobClient;

/**
 * A run of {@code neardup dedupe}: the bounded {@link DedupeJob} on this machine's embedded Flink
 * (inputs and outputs placed and checked, progress, Ctrl-C) or, through the job jar, on a cluster
 * (attached: waits and reports; detached: submits). The job graph and its report live in {@code
 * dev.neardup.batch}.
 */
public final class DedupeRun {

    /** Draws the cluster-size histogram of a result into a file. */
    public interface HistogramWriter {
        void write(DedupeJob.Result result, DedupeSettings settings, Path file) throws IOException;
    }

    /** Writes the HTML report of a finished dedupe from its outputs into a file. */
    public interface ReportWriter {
        /**
         * @param inputs the files the job read (the sample crawl and standard input spooled)
         * @param clusters the clusters the job wrote
         * @param pairs the pairs the job wrote
         */
        void write(
                Path report,
                DedupeJob.Result result,
                DedupeSettings settings,
                List<String> inputs,
                Path clusters,
                Path pairs)
                throws IOException;
    }

    /**
     * What a dedupe run needs: the inputs (the sample crawl, or files with - for {@code stdin}),
     * the outputs (null when not given), the files of the summary, the histogram and the report
     * (null when not wanted), and on a cluster its configuration ({@code cluster}, else null).
     */
    public record Options(
            Configuration conf,
            Configuration cluster,
            boolean sample,
            List<String> files,
            InputStream stdin,
            String clusters,
            String keep,
            String pairs,
            String deadLetters,
            Path summary,
            Path histogram,
            HistogramWriter histogramWriter,
            Path report,
            ReportWriter reportWriter,
            Path workDir,
            String progressInterval,
            boolean quiet) {}

    private DedupeRun() {}

    /**
     * The inputs as given: the sample crawl's name, or the files (directories and globs expanded:
     * {@link CliFiles#inputs}).
     */
    public static List<String> given(Options o) {
        return o.sample() ? List.of(WorkDir.SAMPLE_NAME) : CliFiles.inputs(o.files());
    }

    /**
     * Checks the settings and the inputs of a run (no input given twice), as {@link #run} will read
     * them, so that a command can report these errors before its own checks.
     */
    public static void check(Options o) {
        settings(o);
    }

    /** The job's settings: checks that no input is given twice. */
    static DedupeSettings settings(Options o) {
        List<String> given = given(o);
        if (given.stream().filter("-"::equals).count() > 1) {
            throw NeardupException.usage("standard input (-) can be given once");
        }
        List<String> names = given.stream().map(f -> f.equals("-") ? "stdin" : f).toList();
        if (names.stream().distinct().count() != names.size()) {
            throw NeardupException.usage("an input is given twice: " + String.join(" ", given));
        }
        return NeardupException.usageIfInvalid(() -> DedupeSettings.from(o.conf(), names));
    }

    /**
     * Runs the job with the settings of {@code o} ({@link #check}ed by the command, which then
     * checks the histogram's file name); returns the exit code, 130 after Ctrl-C.
     */
    public static int run(Options o, PrintWriter err) throws Exception {
        DedupeSettings settings = settings(o);
        Configuration conf = o.conf();
        List<String> given = given(o);
        if (o.summary() != null) {
            CliFiles.writableFile("--summary", o.summary().toString());
        }
        Duration every = Progress.parseInterval(o.progressInterval());
        if (o.cluster() != null) {
            if (o.report() != null) {
                throw NeardupException.usage(
                        "--report is for runs on this machine: on a cluster, run dedupe with"
                                + " --clusters and --pairs, then write the report where the"
                                + " outputs are");
            }
            return submit(o, conf, settings, given, err);
        }
        if (o.report() != null) {
            checkReportOutputs(o);
        }
        if (!o.sample()) {
            given.forEach(DedupeRun::checkInput);
        }
        DedupeJob.Outputs checked =
                new DedupeJob.Outputs(
                        localOutput("--clusters", o.clusters()),
                        localOutput("--keep", o.keep()),
                        localOutput("--pairs", o.pairs()),
                        o.deadLetters() == null
                                ? JsonLinesSink.STDERR_SUMMARY
                                : localOutput("--dead-letters", o.deadLetters()));
        if (Stream.of(o.clusters(), o.keep(), o.pairs(), o.deadLetters())
                        .filter("-"::equals)
                        .count()
                > 1) {
            throw NeardupException.usage("only one output can go to standard output (-)");
        }
        JobCounts counts = new JobCounts().configure(conf);
        Progress progress =
                o.quiet()
                        ? null
                        : Progress.onStderr(err, every, "dedupe", progressCounts(settings, counts));
        try (WorkDir dir = WorkDir.of(o.workDir(), "neardup-");
                Interruption interruption =
                        Interruption.install(o.quiet() ? null : err, progress, dir::close)) {
            Path work = dir.path();
            // The report reads the pairs back: without --pairs they go to the work directory.
            String pairs =
                    o.report() != null && o.pairs() == null
                            ? work.resolve("report-pairs.jsonl").toString()
                            : o.pairs();
            DedupeJob.Outputs outputs =
                    new DedupeJob.Outputs(
                            checked.clusters(), checked.keep(), pairs, checked.deadLetters());
            List<String> inputs = new ArrayList<>();
            for (String file : given) {
                inputs.add(
                        o.sample() || file.equals("-")
                                ? dir.spool(o.sample(), o.stdin()).toString()
                                : file.contains("://")
                                        ? file
                                        : dir.spoolIfStream(Path.of(file)).toString());
            }
            conf.set(CoreOptions.TMP_DIRS, work.resolve("tmp").toString());
            conf.set(WebOptions.UPLOAD_DIR, work.resolve("tmp").toString());
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            if (!conf.contains(NettyShuffleEnvironmentOptions.SHUFFLE_COMPRESSION_CODEC)) {
                // The exchanges carry hashed sketch values, which LZ4 cannot shrink:
                // docs/design/dedupe-job.md.
                conf.set(
                        NettyShuffleEnvironmentOptions.SHUFFLE_COMPRESSION_CODEC,
                        NettyShuffleEnvironmentOptions.CompressionCodec.NONE);
            }
            if (!o.quiet()) {
                err.println("neardup: dedupe " + settings);
            }
            Progress.eraseBeforeConsoleRecords(progress);
            DedupeJob.Result result =
                    new DedupeJob(conf, settings, inputs, outputs, true)
                            .withEnvironments(EarlyMiniCluster::forDedupe)
                            .run(
                                    job -> {
                                        interruption.onSignal(job::cancel);
                                        return Progress.await(job, progress, interruption);
                                    });
            if (result == null) {
                if (!o.quiet()) {
                    err.println(
                            "neardup: dedupe interrupted by "
                                    + interruption.signalName()
                                    + "; its outputs are incomplete");
                }
                return interruption.exitCode();
            }
            report(o, result, settings, err);
            if (o.report() != null) {
                long start = System.nanoTime();
                o.reportWriter()
                        .write(
                                o.report(),
                                result,
                                settings,
                                inputs,
                                Path.of(o.clusters()),
                                Path.of(pairs));
                if (!o.quiet()) {
                    err.printf(
                            java.util.Locale.ROOT,
                            "neardup: wrote %s (%,d bytes) in %.1f s%n",
                            o.report(),
                            Files.size(o.report()),
                            (System.nanoTime() - start) / 1e9);
                }
            }
        }
        return 0;
    }

    /**
     * The report reads the clusters and pairs back: they must be local files (--pairs may be left
     * out: then they go to the work directory).
     */
    private static void checkReportOutputs(Options o) {
        for (String[] output :
                new String[][] {{"--clusters", o.clusters()}, {"--pairs", o.pairs()}}) {
            String target = output[1];
            if (target != null && (target.equals("-") || DedupeJob.isFileSystemUri(target))) {
                throw NeardupException.usage(
                        "--report reads "
                                + output[0]
                                + " back: give it as a local file, not "
                                + target
                                + (output[0].equals("--pairs") ? " (or leave --pairs out)" : ""));
            }
        }
    }

    /**
     * The progress of a dedupe on embedded Flink, from the metrics in {@code counts} (configured
     * into the job's configuration): its stage and the records it passed. {@link Progress} asks for
     * the stage first, which takes the snapshot the other counts come from. The candidate stage and
     * its entries are named as {@code settings} finds candidates: LSH band buckets, permuted-block
     * table buckets (cosine) or the sliding window (cosine, window); the JSON names stay the same.
     */
    public static Progress.Counts progressCounts(DedupeSettings settings, JobCounts counts) {
        boolean window = settings.candidates() == CandidateMethod.WINDOW;
        String unit = window ? "window" : settings.mode().keyUnit();
        String buckets = window ? "sliding window" : unit + " buckets";
        AtomicReference<DedupeCounters.Snapshot> last =
                new AtomicReference<>(DedupeCounters.snapshot(counts::countOrAbsent));
        return new Progress.Counts(
                () -> {
                    last.set(DedupeCounters.snapshot(counts::countOrAbsent));
                    return last.get().stage() == DedupeCounters.Stage.BUCKETS
                            ? buckets
                            : last.get().stage().label();
                },
                "records",
                () -> last.get().stageRecords(),
                () -> {
                    DedupeCounters.Snapshot c = last.get();
                    return List.of(
                            new Field("documents", "documents", c.documents()),
                            new Field("bandEntries", unit + " entries", c.bandEntries()),
                            new Field("comparisons", "comparisons", c.comparisons()),
                            new Field("pairs", "verified pairs", c.pairs()),
                            new Field("componentRounds", "component rounds", c.round() + 1),
                            new Field("clustered", "clustered", c.clustered()));
                });
    }

    /**
     * As a job jar on a cluster ({@link JobMain}): inputs and outputs are paths the TaskManagers
     * reach (a plain path is on their local filesystem, so it must be absolute; outputs are
     * directories of part files). Attached ({@code flink run} without {@code -d}): waits, then
     * reports as on this machine. Detached (REST API, {@code flink run -d}): submits and returns.
     */
    private static int submit(
            Options o,
            Configuration conf,
            DedupeSettings settings,
            List<String> given,
            PrintWriter err)
            throws Exception {
        if (o.sample() || given.contains("-")) {
            throw NeardupException.usage(
                    "on a Flink cluster, give --input as a path or URI the TaskManagers can read"
                            + " (--sample and standard input are for runs on this machine)");
        }
        if (o.workDir() != null) {
            throw NeardupException.usage(
                    "--work-dir is for runs on this machine: on a cluster, temporary files go"
                            + " where the cluster's io.tmp.dirs says");
        }
        List<String> inputs = given.stream().map(file -> clusterPath("--input", file)).toList();
        DedupeJob.Outputs outputs =
                new DedupeJob.Outputs(
                        clusterPath("--clusters", o.clusters()),
                        clusterPath("--keep", o.keep()),
                        clusterPath("--pairs", o.pairs()),
                        clusterPath("--dead-letters", o.deadLetters()));
        DedupeJob job = new DedupeJob(conf, settings, inputs, outputs, false);
        boolean attached = o.cluster().get(DeploymentOptions.ATTACHED);
        if (!attached) {
            if (o.summary() != null || o.histogram() != null) {
                throw NeardupException.usage(
                        "--summary and --histogram need the job's result: submit with 'flink run'"
                                + " without -d (attached), not detached or through the REST API");
            }
            JobClient client = job.start();
            if (!o.quiet()) {
                err.println(
                        "neardup: dedupe submitted as Flink job "
                                + client.getJobID()
                                + "; its outputs are complete once the job is FINISHED");
            }
            return 0;
        }
        if (!o.quiet()) {
            err.println("neardup: dedupe " + settings);
        }
        report(o, job.run(client -> Progress.await(client, null, null)), settings, err);
        return 0;
    }

    /** The summary on stderr, and the --summary and --histogram files. */
    private static void report(
            Options o, DedupeJob.Result result, DedupeSettings settings, PrintWriter err)
            throws IOException {
        if (o.summary() != null) {
            Files.writeString(
                    o.summary(),
                    Json.pretty(DedupeSummary.json(result, settings)) + "\n",
                    StandardCharsets.UTF_8);
        }
        if (o.histogram() != null) {
            o.histogramWriter().write(result, settings, o.histogram());
        }
        if (!o.quiet()) {
            for (String line : DedupeSummary.lines(result, settings)) {
                err.println("neardup: " + line);
            }
            if (o.histogram() != null) {
                err.println("neardup: wrote " + o.histogram());
            }
        }
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
        try {
            new org.apache.flink.core.fs.Path(URI.create(target)).getFileSystem();
        } catch (IOException | IllegalArgumentException e) {
            throw cannot("use " + option + " " + target, e);
        }
        return target;
    }

    /** A cluster path: a filesystem URI as is, an absolute path as a file: URI; null stays null. */
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
            throw cannot("read " + file, e);
        }
    }

    private static NeardupException cannot(String what, Exception e) {
        return NeardupException.usage(
                "cannot " + what + ": " + NeardupException.oneLine(String.valueOf(e.getMessage())));
    }
}
