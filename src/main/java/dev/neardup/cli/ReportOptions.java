package dev.neardup.cli;

import dev.neardup.runtime.CliFiles;
import dev.neardup.runtime.NeardupException;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * {@code --report FILE} and {@code --report-samples N} of {@code evaluate}, {@code dedupe} and
 * {@code run}, shared as a picocli {@code @Mixin}: where the HTML report goes and how many pairs
 * (and cluster members) it shows per section.
 */
final class ReportOptions {

    /** The most pairs per section: beyond it a report of a big crawl is no longer small. */
    static final int MAX_SAMPLES = 100;

    @Option(
            names = "--report",
            paramLabel = "FILE.html",
            description =
                    "Write an HTML report to FILE.html: one self-contained file to open in a"
                            + " browser, offline. It shows the summary, the S-curve, sampled pairs"
                            + " of each similarity band side by side with their differences"
                            + " highlighted, and the missed pairs and false alerts (evaluate) or"
                            + " the largest clusters (dedupe; run on a file, not on Kafka). See"
                            + " docs/report.md.")
    Path report;

    @Option(
            names = "--report-samples",
            paramLabel = "N",
            description =
                    "Pairs the report shows per similarity band (and per list of missed pairs,"
                            + " false alerts, cluster): a fixed sample, the same on every run."
                            + " 1 to "
                            + MAX_SAMPLES
                            + ". Default: "
                            + DEFAULT_SAMPLES
                            + ".")
    Integer samples;

    static final int DEFAULT_SAMPLES = 5;

    /** The pairs per section: --report-samples, or its default. */
    int samples() {
        return samples == null ? DEFAULT_SAMPLES : samples;
    }

    /**
     * The report's file, checked (null when not wanted); a bad path or sample size: usage error.
     */
    Path checked() {
        if (report == null) {
            if (samples != null) {
                throw NeardupException.usage(
                        "--report-samples is the size of the report's samples: give --report"
                                + " FILE.html too");
            }
            return null;
        }
        String name = report.getFileName() == null ? "" : report.getFileName().toString();
        String lower = name.toLowerCase(Locale.ROOT);
        if (!lower.endsWith(".html") && !lower.endsWith(".htm")) {
            throw NeardupException.usage(
                    "--report writes one HTML file: give a name ending in .html, got " + report);
        }
        if (samples() < 1 || samples() > MAX_SAMPLES) {
            throw NeardupException.usage(
                    "--report-samples must be 1 to " + MAX_SAMPLES + ", got " + samples);
        }
        CliFiles.writableFile("--report", report.toString());
        return report;
    }
}
