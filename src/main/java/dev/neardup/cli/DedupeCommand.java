package dev.neardup.cli;

import dev.neardup.batch.DedupeJob;
import dev.neardup.batch.DedupeSettings;
import dev.neardup.config.DedupeOptions;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.RuntimeOptions;
import dev.neardup.runtime.CliFiles;
import dev.neardup.runtime.DedupeRun;
import dev.neardup.tools.plot.ClusterSizePlot;
import dev.neardup.tools.plot.SCurvePlot;
import dev.neardup.tools.report.DedupeReport;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code neardup dedupe}: the bounded {@link DedupeJob} on embedded Flink or, through {@link
 * JobMain}, on a cluster ({@link DedupeRun}).
 */
@Command(
        name = "dedupe",
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
        footer = {
            "  neardup dedupe --input crawl.jsonl --clusters clusters.jsonl \\",
            "      --keep keep.jsonl",
            "  neardup dedupe --input part-1.jsonl --input s3://bucket/part-2.jsonl \\",
            "      --clusters clusters.jsonl --pairs pairs.jsonl --split-below 0.8 \\",
            "      --summary summary.json --histogram sizes.png",
            "  neardup dedupe --input crawl.jsonl --clusters clusters.jsonl \\",
            "      --report report.html",
            "  neardup dedupe --input crawl.jsonl --clusters clusters.jsonl \\",
            "      --similarity cosine --max-hamming 3 --stopwords",
            "  neardup dedupe --input crawl.jsonl --clusters clusters.jsonl \\",
            "      --similarity cosine --candidates window --window 8 --permutations 10",
            "  flink run -p 2 neardup-job.jar dedupe --input s3://bucket/crawl.jsonl \\",
            "      --clusters s3://bucket/clusters --keep s3://bucket/keep",
        })
final class DedupeCommand implements Callable<Integer>, SettingFlags.Bound {

    @Override
    public List<ConfigOption<?>> settings() {
        return JobOptions.concat(
                JobOptions.SIMILARITY_SETTINGS,
                List.of(
                        DedupeOptions.CANDIDATES,
                        DedupeOptions.WINDOW,
                        DedupeOptions.PERMUTATIONS,
                        DedupeOptions.VERIFY,
                        DedupeOptions.BLOCK_SIZE,
                        DedupeOptions.KEEP_POLICY,
                        DedupeOptions.SPLIT_BELOW,
                        RuntimeOptions.PARALLELISM,
                        NearDupOptions.INPUT_FORMAT));
    }

    /** Where input comes from. */
    static final class Input {
        @Option(
                names = {"--input", "-i"},
                paramLabel = "PATH",
                required = true,
                arity = "1..*",
                description =
                        "JSON Lines file of documents, or a WARC, WET or ARC file (by name or"
                                + " first bytes): a local path, a Flink filesystem URI (file://,"
                                + " s3://, ...) or - for JSON Lines on standard input. Several"
                                + " files, a local directory (the files under it) or a quoted"
                                + " glob ('*.warc.gz'; ** spans directories) are read in the"
                                + " order given, any mix of formats.")
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
            names = "--summary",
            paramLabel = "FILE",
            description =
                    "Write the summary (counts, cluster size histogram, largest clusters,"
                            + " rounds) as JSON.")
    Path summary;

    @Option(
            names = "--histogram",
            paramLabel = "FILE",
            description =
                    "Draw the cluster-size histogram (clusters and their documents per size"
                            + " range, log scale) as a PNG or SVG picture, by the file's"
                            + " extension.")
    Path histogram;

    @Mixin ReportOptions report;

    @Mixin ProgressOptions.WithWorkDir progress;

    @Mixin JobOptions job;

    @ParentCommand Neardup parent;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Path reportFile = report.checked();
        int samples = report.samples();
        Configuration conf = job.toConfiguration();
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
                        reportFile,
                        (file, result, settings, inputs, clusters, pairs) ->
                                DedupeReport.write(
                                        file,
                                        samples,
                                        result,
                                        settings,
                                        input.sample ? List.of("--sample") : input.files,
                                        inputs,
                                        clusters,
                                        pairs),
                        progress.workDir,
                        progress.progressInterval,
                        progress.quiet);
        DedupeSettings settings = DedupeRun.settings(options);
        if (histogram != null) {
            SCurvePlot.ImageFormat.required("--histogram", histogram);
            CliFiles.writableFile("--histogram", histogram.toString());
        }
        return DedupeRun.run(options, settings, spec.commandLine().getErr());
    }
}
