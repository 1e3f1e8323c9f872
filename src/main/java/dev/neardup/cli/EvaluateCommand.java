package dev.neardup.cli;

import dev.neardup.runtime.CliFiles;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.WorkDir;
import dev.neardup.tools.evaluate.Evaluate;
import dev.neardup.tools.plot.SCurvePlot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code neardup evaluate}: recall and precision against the exact answer ({@link Evaluate}). */
@Command(
        name = "evaluate",
        header = "Recall and precision on your own corpus, against the exact answer.",
        description = {
            "Evaluate neardup on a corpus (JSON Lines, as for 'run') against the exact answer:"
                    + " computes every pair of documents with exact similarity >= --floor"
                    + " (Jaccard: a prefix-filtering similarity join over the same shingles;"
                    + " --similarity cosine: an All-Pairs join of the term-frequency vectors"
                    + " SimHash fingerprints), runs the real job on the same input, and reports"
                    + " doc-level recall, pair recall and precision, recall by similarity next to"
                    + " the predicted curves, and the cost (candidates verified per document).",
            "With --similarity cosine the threshold is the cosine of the largest Hamming"
                    + " distance K a pair may have: cos(pi K / bits), 0.989 at --max-hamming 3"
                    + " of 64 bits (or give --threshold T: the largest K with cos(pi K / bits)"
                    + " >= T). Recall and precision are measured at that threshold unless"
                    + " --recall-similarity or --precision-similarity say otherwise.",
            "With --containment T the exact answer is every pair of which one page is"
                    + " contained in the other, |A n B| / min(|A|, |B|) >= --floor (a prefix-"
                    + "filtering containment join); a pair counts as found when the job reported"
                    + " it either way round, and recall and precision are measured at T.",
            "Repeated ids (re-crawls) keep their first occurrence; records the job would reject"
                    + " are left out of both answers.",
            ""
        },
        footer = {
            "  neardup evaluate --input crawl.jsonl --plot recall.png",
            "  neardup evaluate --input crawl.jsonl --report report.html",
            "  neardup evaluate --input crawl.jsonl --threshold 0.9 --bands 14 --rows 9 \\",
            "      --json",
            "  neardup evaluate --input crawl.jsonl --similarity cosine --max-hamming 3 \\",
            "      --stopwords --plot cosine-recall.png",
            "  neardup evaluate --input digests.jsonl --containment 0.8 \\",
            "      --plot containment.png"
        })
final class EvaluateCommand implements Callable<Integer>, SettingFlags.Bound {

    @Override
    public List<ConfigOption<?>> settings() {
        return JobOptions.JOB_SETTINGS;
    }

    @Option(
            names = {"--input", "-i"},
            paramLabel = "FILE",
            required = true,
            arity = "1..*",
            description =
                    "JSON Lines file of documents, or a WARC, WET or ARC file, or - for JSON"
                            + " Lines on standard input. Several files, a directory (the files"
                            + " under it) or a quoted glob are read in the order given.")
    List<String> inputs;

    @Mixin JobOptions job;

    @Option(
            names = "--floor",
            paramLabel = "S",
            description =
                    "Lowest exact similarity of the ground truth. Default: 0.5 (Jaccard), or"
                            + " cos(2 pi (K + 1) / bits) (cosine: 0.924 at K = 3 of 64).")
    Double floor;

    @Option(
            names = "--recall-similarity",
            paramLabel = "S",
            description =
                    "Doc-level and pair recall count documents (pairs) with an earlier document"
                            + " at least this similar. Default: 0.9 (Jaccard), or the cosine"
                            + " threshold cos(pi K / bits).")
    Double recallSimilarity;

    @Option(
            names = "--precision-similarity",
            paramLabel = "S",
            description =
                    "Pair precision counts reported pairs at least this similar. Default: 0.7"
                            + " (Jaccard), or the cosine threshold cos(pi K / bits).")
    Double precisionSimilarity;

    @Mixin CommonOptions.Json jsonOption;

    @Mixin CommonOptions.Plot plotOption;

    @Mixin ReportOptions report;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @picocli.CommandLine.ParentCommand Neardup parent;

    @Override
    public Integer call() throws Exception {
        List<String> given = CliFiles.inputs(inputs);
        // Standard input is copied once: evaluate reads its input once, into the job's input.
        try (WorkDir stdinDir = given.contains("-") ? WorkDir.of(null, "nd-eval-stdin-") : null) {
            List<Path> files = new ArrayList<>();
            for (String file : given) {
                files.add(
                        file.equals("-")
                                ? stdinDir.spool(false, parent != null ? parent.stdin() : System.in)
                                : CliFiles.readableFile("input file", file, Path.of(file)));
            }
            evaluate(files);
        }
        return 0;
    }

    private void evaluate(List<Path> files) throws Exception {
        SCurvePlot.ImageFormat plotFormat = plotOption.format();
        Path reportFile = report.checked();
        Configuration conf = job.toConfiguration();
        Evaluate.run(
                new Evaluate.Options(
                        files,
                        floor,
                        recallSimilarity,
                        precisionSimilarity,
                        jsonOption.json,
                        plotOption.plot,
                        reportFile,
                        report.samples()),
                conf,
                EmbeddedJob.settings(conf),
                plotFormat,
                spec.commandLine().getOut(),
                spec.commandLine().getErr());
    }
}
