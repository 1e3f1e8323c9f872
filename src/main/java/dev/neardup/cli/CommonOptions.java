package dev.neardup.cli;

import dev.neardup.tools.plot.SCurvePlot;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Options that several commands take, each declared once: picocli {@code @Mixin}s ({@link Json},
 * {@link Plot}, {@link DeadLetters}) and an {@code @ArgGroup} ({@link Input}). A description says
 * what differs between the commands that take the option, as {@link ReportOptions} does.
 */
final class CommonOptions {

    private CommonOptions() {}

    /** {@code --json} of {@code bench}, {@code compare}, {@code evaluate} and {@code tune}. */
    static final class Json {
        @Option(
                names = "--json",
                description = "Print the result as one JSON object instead of text.")
        boolean json;
    }

    /** {@code --plot FILE} of {@code bench}, {@code evaluate} and {@code tune}. */
    static final class Plot {
        @Option(
                names = "--plot",
                paramLabel = "FILE",
                description =
                        "Also draw the result into FILE, a .png or .svg image by its extension:"
                                + " the S-curve with the threshold and its two error areas"
                                + " (tune), the measured recall per bucket over the predicted"
                                + " curves (evaluate), the documents/s of the whole job and of"
                                + " the cut job against the documents taken in (bench, with"
                                + " --scale-curve).")
        Path plot;

        /** The image format of the file (a usage error names --plot); null when not given. */
        SCurvePlot.ImageFormat format() {
            return plot == null ? null : SCurvePlot.ImageFormat.required("--plot", plot);
        }
    }

    /** {@code --dead-letters FILE} of {@code run} and {@code dedupe}. */
    static final class DeadLetters {
        @Option(
                names = "--dead-letters",
                paramLabel = "FILE",
                description =
                        "Where dead letters (JSON with the original payload and the reason) go: a"
                                + " file, or - for stdout (dedupe: also a Flink filesystem URI, a"
                                + " directory of part files). Default: one summary line each on"
                                + " stderr, so that none goes unnoticed.")
        String deadLetters;
    }

    /**
     * Where the documents of {@code run} and {@code dedupe} come from: files or the sample crawl,
     * exactly one (an {@code @ArgGroup(exclusive = true)}; the command says whether it is
     * required).
     */
    static final class Input {
        @Option(
                names = {"--input", "-i"},
                paramLabel = "FILE",
                required = true,
                arity = "1..*",
                description =
                        "JSON Lines file of documents, or a WARC, WET or ARC file as a crawler"
                                + " wrote it (plain or gzipped; known by its name or first bytes,"
                                + " or said with --input-format), or - for JSON Lines on"
                                + " standard input; dedupe also reads a Flink filesystem URI"
                                + " (file://, s3://, ...). Several files, a directory (the files"
                                + " under it) or a quoted glob (** spans directories) are read in"
                                + " the order given, any mix of formats. A pipe such as <(zcat"
                                + " FILE) is copied to the work directory first.")
        List<String> files;

        @Option(
                names = "--sample",
                required = true,
                description =
                        "Use the sample crawl bundled in the jar: 66 lines, 61 documents with"
                                + " mirrors, edits, re-crawls and malformed records.")
        boolean sample;
    }
}
