package dev.neardup.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --report} and {@code --report-samples}: a bad value is one clear line, before any run. */
class ReportOptionsTest {

    @TempDir Path dir;

    @Test
    void theReportIsAnHtmlFileInAWritablePlace() throws Exception {
        CliRun.run("run", "--sample", "--report", dir.resolve("report.txt").toString())
                .usageError(
                        "neardup run",
                        "--report writes one HTML file: give a name ending in .html");
        CliRun.run("evaluate", "--input", sample(), "--report", dir.toString())
                .usageError("neardup evaluate", "--report writes one HTML file");
        Path file = Files.writeString(dir.resolve("file"), "x");
        CliRun.run(
                        "dedupe",
                        "--sample",
                        "--clusters",
                        dir.resolve("c.jsonl").toString(),
                        "--report",
                        file.resolve("report.html").toString())
                .usageError("neardup dedupe", "is a file, not a directory");
    }

    @Test
    void theSampleSizeHasARange() {
        CliRun.run(
                        "run",
                        "--sample",
                        "--report",
                        dir.resolve("r.html").toString(),
                        "--report-samples",
                        "0")
                .usageError("neardup run", "--report-samples must be 1 to 100, got 0");
        CliRun.run("run", "--sample", "--report-samples", "10")
                .usageError("neardup run", "--report-samples is the size of the report's samples");
    }

    @Test
    void theReportReadsOutputsBackSoTheyMustBeFiles() {
        CliRun.run(
                        "run",
                        "--sample",
                        "--verdicts",
                        "-",
                        "--report",
                        dir.resolve("r.html").toString())
                .usageError(
                        "neardup run", "--report reads the verdicts back: give --verdicts FILE");
        CliRun.run(
                        "dedupe",
                        "--sample",
                        "--clusters",
                        "-",
                        "--report",
                        dir.resolve("r.html").toString())
                .usageError("neardup dedupe", "--report reads --clusters back");
    }

    @Test
    void aKafkaRunHasNoReport() {
        CliRun.run(
                        "run",
                        "--bootstrap-servers",
                        "127.0.0.1:9",
                        "--input-topic",
                        "documents",
                        "--report",
                        dir.resolve("r.html").toString())
                .usageError("neardup run", "--report is for a run on a file");
    }

    private static String sample() {
        return Path.of("src/main/resources/sample/crawl.jsonl").toString();
    }
}
