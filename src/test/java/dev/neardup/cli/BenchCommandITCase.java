package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A small {@code neardup bench} run: every figure is measured and plausible. */
class BenchCommandITCase {

    @Test
    void measuresEveryFigure() throws Exception {
        CliRun run =
                CliRun.run(
                        "bench",
                        "--documents",
                        "400",
                        "--document-size",
                        "1500",
                        "--parallelism",
                        "2",
                        "--checkpoint-interval",
                        "1s",
                        "--hot-copies",
                        "300",
                        "--json",
                        "--progress-interval",
                        "100ms");
        assertThat(run.exitCode()).as(run.err()).isZero();
        // Progress of the job runs, as JSON lines (stderr is no terminal here), per phase.
        List<JsonNode> progress = RunCommandITCase.progressLines(run.err());
        assertThat(progress)
                .extracting(p -> p.get("phase").asText())
                .contains("warm-up", "measured", "hot", "cut")
                .containsOnly("warm-up", "measured", "hot", "cut");
        assertThat(progress)
                .allSatisfy(p -> assertThat(p.get("progress").asText()).isEqualTo("bench"));
        assertThat(progress)
                .allSatisfy(p -> assertThat(p.get("documents").asLong()).isBetween(0L, 1100L));
        JsonNode r = Json.MAPPER.readTree(run.out());
        // The warm-up documents (as many as measured) come first in the same job.
        assertThat(r.get("documents").asInt()).isEqualTo(400);
        assertThat(r.get("warmUpDocuments").asInt()).isEqualTo(400);
        // Then the whole job ran on them alone until the JIT was quiet, at most 6 times.
        assertThat(r.get("warmUpRuns").asInt()).isBetween(1, 6);
        assertThat(run.err()).contains("neardup bench: whole job, warm-up run 1");
        assertThat(r.get("signatureOnlyDocsPerSecond").asDouble()).isPositive();
        assertThat(r.get("jobDocsPerSecond").asDouble()).isPositive();
        // About 10% of the documents are near-duplicates of earlier ones: they raise alerts.
        assertThat(r.get("alerts").asInt()).isBetween(40, 160);
        assertThat(r.get("latencyP99Millis").asDouble())
                .isGreaterThanOrEqualTo(r.get("latencyP50Millis").asDouble());
        assertThat(r.get("stateBytesPerDocument").asDouble()).isBetween(50.0, 20_000.0);
        assertThat(r.get("machine").asText()).contains("cores");
        // The hot bucket: 300 exact copies of one page among the 800 documents. Every later copy
        // is reported once, against the first copy, and the run keeps up with the distinct one.
        assertThat(r.get("hotCopies").asInt()).isEqualTo(300);
        assertThat(r.get("hotAlertsNamingTheFirstCopy").asInt()).isEqualTo(299);
        assertThat(r.get("hotAlerts").asInt()).isEqualTo(r.get("alerts").asInt() + 299);
        assertThat(r.get("hotDocsPerSecond").asDouble()).isPositive();
        assertThat(r.get("peakRssMegabytes").asLong()).isPositive();
        // The job with its keyed path cut, and the CPU per document: appended, positive, and the
        // ratios are the quotients of their parts.
        List<String> fields = new java.util.ArrayList<>();
        r.fieldNames().forEachRemaining(fields::add);
        assertThat(fields)
                .endsWith(
                        "peakRssMegabytes",
                        "cutJobDocsPerSecondAfterStartup",
                        "cutJobCpuMicrosPerDocument",
                        "jobCpuMicrosPerDocument",
                        "signatureCpuMicrosPerDocument",
                        "jobToCutJobRatio",
                        "jobCpuToSignatureCpuRatio",
                        "jobJitMicrosPerDocument",
                        "cutJobJitMicrosPerDocument");
        for (String field : fields.subList(fields.size() - 8, fields.size() - 2)) {
            assertThat(r.get(field).asDouble()).as(field).isPositive().isFinite();
        }
        // The JIT compiler threads' CPU time in the same window (none at all is possible).
        assertThat(r.get("jobJitMicrosPerDocument").asDouble()).isNotNegative().isFinite();
        assertThat(r.get("cutJobJitMicrosPerDocument").asDouble()).isNotNegative().isFinite();
        assertThat(r.get("jobToCutJobRatio").asDouble())
                .isCloseTo(
                        r.get("jobDocsPerSecondAfterStartup").asDouble()
                                / r.get("cutJobDocsPerSecondAfterStartup").asDouble(),
                        org.assertj.core.api.Assertions.withinPercentage(0.001));
        assertThat(r.get("jobCpuToSignatureCpuRatio").asDouble())
                .isCloseTo(
                        r.get("jobCpuMicrosPerDocument").asDouble()
                                / r.get("signatureCpuMicrosPerDocument").asDouble(),
                        org.assertj.core.api.Assertions.withinPercentage(0.001));
    }

    /**
     * {@code --live}: pages written to a watched directory at a steady rate with a 3 s
     * out-of-orderness. A copy of a page written more than 3 s before is alerted early, well before
     * the watermark would pass it; nothing that waits for the watermark (verdicts, the other
     * alerts) can come sooner than 3 s after its page was written.
     */
    @Test
    void liveMeasuresEarlyAlertsAndVerdictsOnAStream() throws Exception {
        CliRun run =
                CliRun.run(
                        "bench",
                        "--live",
                        "50",
                        "--live-duration",
                        "15s",
                        "-D",
                        "neardup.watermark.max-out-of-orderness=3s",
                        "--json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode r = Json.MAPPER.readTree(run.out());
        assertThat(r.get("pagesWritten").asInt()).isEqualTo(750);
        assertThat(r.get("maxOutOfOrderness").asText()).isEqualTo("3s");
        // About 10% are copies of a random earlier page: most of them written over 3 s before.
        assertThat(r.get("earlyAlerts").asInt()).isPositive();
        assertThat(r.get("earlyAlertLatencyP99Millis").asDouble()).isLessThan(3000);
        assertThat(r.get("verdicts").asInt()).isGreaterThan(300);
        assertThat(r.get("verdictLatencyMinMillis").asDouble()).isGreaterThanOrEqualTo(3000);
        if (r.get("alerts").asInt() > 0) {
            assertThat(r.get("alertLatencyMinMillis").asDouble()).isGreaterThanOrEqualTo(3000);
        }
    }

    /**
     * {@code --scale-curve}: one warm-up, then the whole job and the cut job at each size; every
     * point measured, state per document of the same order at each size, and the plot written.
     */
    @Test
    void scaleCurveMeasuresEachSize(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path plot = dir.resolve("scale.svg");
        CliRun run =
                CliRun.run(
                        "bench",
                        "--scale-curve",
                        "300,900",
                        "--warm-up",
                        "200",
                        "--document-size",
                        "1500",
                        "--parallelism",
                        "2",
                        "--checkpoint-interval",
                        "1s",
                        "--plot",
                        plot.toString(),
                        "--json",
                        "--progress-interval",
                        "100ms");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(RunCommandITCase.progressLines(run.err()))
                .extracting(p -> p.get("phase").asText())
                .containsOnly("warm-up", "cut warm-up", "measured", "cut");
        JsonNode r = Json.MAPPER.readTree(run.out());
        assertThat(r.get("warmUpDocuments").asInt()).isEqualTo(200);
        JsonNode points = r.get("points");
        assertThat(points).hasSize(2);
        assertThat(points.get(0).get("documents").asInt()).isEqualTo(300);
        assertThat(points.get(1).get("documents").asInt()).isEqualTo(900);
        for (JsonNode point : points) {
            for (String field :
                    List.of(
                            "jobDocsPerSecondAfterStartup",
                            "jobCpuMicrosPerDocument",
                            "cutJobDocsPerSecondAfterStartup",
                            "cutJobCpuMicrosPerDocument",
                            "stateBytesPerDocument")) {
                assertThat(point.get(field).asDouble()).as(field).isPositive().isFinite();
            }
            assertThat(point.get("jobToCutJobRatio").asDouble())
                    .isCloseTo(
                            point.get("jobDocsPerSecondAfterStartup").asDouble()
                                    / point.get("cutJobDocsPerSecondAfterStartup").asDouble(),
                            org.assertj.core.api.Assertions.withinPercentage(0.001));
            assertThat(point.get("stateBytesPerDocument").asDouble()).isBetween(50.0, 20_000.0);
            assertThat(point.get("jobJitMicrosPerDocument").asDouble()).isNotNegative().isFinite();
        }
        // The 900-document crawl starts with the 300-document one: more documents, more alerts.
        assertThat(points.get(1).get("alerts").asInt())
                .isGreaterThan(points.get(0).get("alerts").asInt());
        assertThat(r.get("largestToSmallestRateRatio").asDouble())
                .isCloseTo(
                        points.get(1).get("jobDocsPerSecondAfterStartup").asDouble()
                                / points.get(0).get("jobDocsPerSecondAfterStartup").asDouble(),
                        org.assertj.core.api.Assertions.withinPercentage(0.001));
        String svg = java.nio.file.Files.readString(plot);
        assertThat(svg)
                .contains("<svg")
                .contains("Throughput as state grows")
                .contains("whole job");
    }

    /**
     * {@code --files}: the stream measured in this process, {@code run} and {@code dedupe} each in
     * a JVM of their own, round after round; the medians and ratios are those of the rounds, and
     * the children get the settings given to bench, but not the stream's checkpoint interval.
     */
    @Test
    void filesMeasuresRunAndDedupeAgainstTheStream() throws Exception {
        CliRun run =
                CliRun.run(
                        "bench",
                        "--files",
                        "2",
                        "--documents",
                        "300",
                        "--document-size",
                        "800",
                        "--warm-up",
                        "0",
                        "--parallelism",
                        "1",
                        "--checkpoint-interval",
                        "1s",
                        "-D",
                        "neardup.threshold=0.7",
                        "-D",
                        "s3.secret-key=not-for-output",
                        "--json",
                        "--quiet");
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode r = Json.MAPPER.readTree(run.out());
        assertThat(r.get("rounds").asInt()).isEqualTo(2);
        assertThat(r.get("parallelism").asInt()).isEqualTo(1);
        assertThat(r.get("fileCommandSettings").get("neardup.threshold").asText()).isEqualTo("0.7");
        assertThat(r.get("fileCommandSettings").get("parallelism.default").asText()).isEqualTo("1");
        assertThat(r.get("fileCommandSettings").has("execution.checkpointing.interval")).isFalse();
        // A secret goes to the commands, not into bench's output.
        assertThat(r.get("fileCommandSettings").get("s3.secret-key").asText()).isEqualTo("******");
        assertThat(run.out()).doesNotContain("not-for-output");
        double stream = median(r.get("streamDocsPerSecondAfterStartup"));
        assertThat(r.get("streamMedianDocsPerSecond").asDouble()).isPositive().isEqualTo(stream);
        for (String command : List.of("run", "dedupe")) {
            JsonNode seconds = r.get(command + "Seconds");
            assertThat(seconds).hasSize(2);
            // A new JVM with a MiniCluster takes more than half a second from launch to exit.
            seconds.forEach(s -> assertThat(s.asDouble()).as(command).isGreaterThan(0.5));
            r.get(command + "CpuSeconds")
                    .forEach(c -> assertThat(c.asDouble()).as(command).isGreaterThan(0.5));
            double median = median(seconds);
            assertThat(r.get(command + "MedianSeconds").asDouble()).isEqualTo(median);
            assertThat(r.get(command + "MedianPagesPerSecond").asDouble())
                    .isCloseTo(300 / median, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(r.get(command + "ToStreamRatio").asDouble())
                    .isCloseTo(300 / median / stream, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(r.get(command + "CpuToStreamRatio").asDouble()).isPositive();
            // The same command in bench's own JVM, after the stream: timed and compared alike.
            JsonNode warm = r.get(command + "WarmSeconds");
            assertThat(warm).hasSize(2);
            warm.forEach(s -> assertThat(s.asDouble()).as(command).isPositive());
            r.get(command + "WarmCpuSeconds")
                    .forEach(c -> assertThat(c.asDouble()).as(command).isPositive());
            double warmMedian = median(warm);
            assertThat(r.get(command + "WarmMedianSeconds").asDouble()).isEqualTo(warmMedian);
            assertThat(r.get(command + "WarmToStreamRatio").asDouble())
                    .isCloseTo(
                            300 / warmMedian / stream, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(r.get(command + "JvmStartAndWarmUpSeconds").asDouble())
                    .isCloseTo(median - warmMedian, org.assertj.core.data.Offset.offset(1e-9));
        }
        // A new JVM pays its start (and a MiniCluster's) on top of what this one does.
        assertThat(r.get("runJvmStartAndWarmUpSeconds").asDouble()).isPositive();
    }

    private static double median(JsonNode values) {
        double[] v = new double[values.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = values.get(i).asDouble();
        }
        java.util.Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /**
     * A signal to {@code bench --files} while a file command runs stops that command too, removes
     * bench's work directory (and the command's) and exits with 130, as an interrupted run does:
     * whether the command runs in a new JVM or in bench's, where the signal may come before the
     * command can stop its job, and the command exits at once.
     */
    @ParameterizedTest
    @ValueSource(strings = {"(a new JVM)", "(in this JVM, warm)"})
    void filesStopsTheCommandItRunsWhenInterrupted(
            String where, @org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path stderr = tmp.resolve("stderr.txt");
        Path javaTmp = java.nio.file.Files.createDirectories(tmp.resolve("java-tmp"));
        Process bench =
                startBench(
                        javaTmp,
                        stderr,
                        "--files",
                        "1",
                        "--documents",
                        "3000",
                        "--warm-up",
                        "0",
                        "--parallelism",
                        "1");
        try {
            awaitOutput(bench, stderr, "neardup run --input " + where);
            boolean newJvm = where.equals("(a new JVM)");
            List<ProcessHandle> commands =
                    bench.descendants().filter(ProcessHandle::isAlive).toList();
            if (newJvm) {
                assertThat(commands).as("the command bench runs").isNotEmpty();
                Thread.sleep(1500); // into the command's start-up
            } else {
                Thread.sleep(200); // before the command has a job to stop
            }
            bench.destroy(); // SIGTERM
            assertThat(bench.waitFor(2, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
            assertThat(bench.exitValue()).as(java.nio.file.Files.readString(stderr)).isEqualTo(130);
            if (newJvm) {
                assertThat(java.nio.file.Files.readString(stderr))
                        .contains("neardup: interrupted (SIGTERM)");
            }
            for (ProcessHandle command : commands) {
                command.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
            }
            try (var left = java.nio.file.Files.list(javaTmp)) {
                assertThat(left.map(f -> f.getFileName().toString()))
                        .as("bench's work directory")
                        .noneMatch(name -> name.startsWith("nd-bench-"))
                        .noneMatch(name -> name.startsWith("neardup-"));
            }
        } finally {
            bench.descendants().forEach(ProcessHandle::destroyForcibly);
            bench.destroyForcibly();
        }
    }

    /**
     * A signal to {@code bench} in its other modes, while a job runs, removes its work directory
     * and exits with 130.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "neardup bench: whole job|--documents|3000",
                "neardup bench: dedupe|--dedupe|--documents|3000",
                "neardup bench: whole job|--scale-curve|2000,3000"
            })
    void otherModesRemoveTheirWorkDirectoryWhenInterrupted(
            String modeAndMarker, @org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        List<String> parts = List.of(modeAndMarker.split("\\|"));
        String marker = parts.get(0);
        Path stderr = tmp.resolve("stderr.txt");
        Path javaTmp = java.nio.file.Files.createDirectories(tmp.resolve("java-tmp"));
        List<String> args =
                new java.util.ArrayList<>(List.of("--warm-up", "0", "--parallelism", "1"));
        args.addAll(parts.subList(1, parts.size()));
        Process bench = startBench(javaTmp, stderr, args.toArray(String[]::new));
        try {
            awaitOutput(bench, stderr, marker);
            Thread.sleep(300); // into the job
            bench.destroy(); // SIGTERM
            assertThat(bench.waitFor(2, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
            String said = java.nio.file.Files.readString(stderr);
            assertThat(bench.exitValue()).as(said).isEqualTo(130);
            assertThat(said).contains("neardup: interrupted (SIGTERM)");
            try (var left = java.nio.file.Files.list(javaTmp)) {
                assertThat(left.map(f -> f.getFileName().toString()))
                        .as("bench's work directory")
                        .noneMatch(name -> name.startsWith("nd-bench-"));
            }
        } finally {
            bench.destroyForcibly();
        }
    }

    /**
     * {@code neardup bench ARGS} in a JVM of its own whose temporary directory is {@code javaTmp},
     * with its stdout and stderr in {@code output}.
     */
    private static Process startBench(Path javaTmp, Path output, String... args)
            throws java.io.IOException {
        List<String> command =
                new java.util.ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Djava.io.tmpdir=" + javaTmp,
                                "-cp",
                                System.getProperty("java.class.path"),
                                Neardup.class.getName(),
                                "bench"));
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
    }

    /** Waits (3 minutes at most) until {@code bench} has written {@code text} to {@code output}. */
    private static void awaitOutput(Process bench, Path output, String text) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(3);
        while (!java.nio.file.Files.readString(output).contains(text)) {
            assertThat(bench.isAlive()).as(java.nio.file.Files.readString(output)).isTrue();
            assertThat(System.nanoTime()).as("bench wrote " + text).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    @Test
    void filesUsageErrors() {
        CliRun.run("bench", "--files", "--dedupe")
                .usageError("neardup bench", "--files measures 'run' and 'dedupe' on a file");
        CliRun.run("bench", "--files", "0")
                .usageError("neardup bench", "--files takes the rounds, at least 1, got 0");
    }

    @Test
    void scaleCurveUsageErrors() {
        CliRun.run("bench", "--scale-curve", "1000")
                .usageError("neardup bench", "--scale-curve needs at least two document counts");
        CliRun.run("bench", "--scale-curve", "2000,1000")
                .usageError(
                        "neardup bench", "must be at least 100 and increasing, got [2000, 1000]");
        CliRun.run("bench", "--scale-curve", "1000,2000", "--documents", "5000")
                .usageError("neardup bench", "leave out --documents");
        CliRun.run("bench", "--scale-curve", "1000,2000", "--hot-copies", "10")
                .usageError("neardup bench", "--scale-curve runs the streaming job only");
        CliRun.run("bench", "--scale-curve", "1000,2000", "--plot", "curve.gif")
                .usageError("neardup bench", "--plot must end in .png or .svg, got curve.gif");
        CliRun.run("bench", "--plot", "curve.svg")
                .usageError("neardup bench", "--plot draws the --scale-curve: give both");
        CliRun.run("bench", "--corpus-files", "2")
                .usageError("neardup bench", "--corpus-files applies to --write-corpus only");
        CliRun.run("bench", "--write-corpus", "x.jsonl", "--corpus-files", "0")
                .usageError("neardup bench", "--corpus-files must be at least 1, got 0");
    }

    /**
     * A generated crawl written as the WARC files of three fetcher threads, listed one after the
     * other, is read in fetch order through an index: the verdicts of the same pages as one JSON
     * Lines file, page by page.
     */
    @Test
    void aCorpusWrittenAsWarcFilesRunsAsTheSamePagesAsJsonLines(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        for (String file : new String[] {"crawl.jsonl", "crawl.warc.gz"}) {
            CliRun write =
                    CliRun.run(
                            "bench",
                            "--write-corpus",
                            dir.resolve(file).toString(),
                            "--corpus-files",
                            file.endsWith(".jsonl") ? "1" : "3",
                            "--documents",
                            "600",
                            "--document-size",
                            "400");
            assertThat(write.exitCode()).as(write.err()).isZero();
        }
        assertThat(dir.resolve("crawl-2.warc.gz")).exists();
        java.util.Map<String, String> verdicts = new java.util.TreeMap<>();
        for (String tag : new String[] {"json", "warc"}) {
            java.util.List<String> inputs =
                    tag.equals("json")
                            ? java.util.List.of(dir.resolve("crawl.jsonl").toString())
                            : java.util.List.of(
                                    dir.resolve("crawl-0.warc.gz").toString(),
                                    dir.resolve("crawl-1.warc.gz").toString(),
                                    dir.resolve("crawl-2.warc.gz").toString());
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run"));
            for (String in : inputs) {
                args.add("--input");
                args.add(in);
            }
            args.addAll(
                    java.util.List.of(
                            "--verdicts", dir.resolve(tag + "-verdicts.jsonl").toString()));
            CliRun run = CliRun.run(args.toArray(String[]::new));
            assertThat(run.exitCode()).as(run.err()).isZero();
            if (tag.equals("warc")) {
                assertThat(run.err()).contains("indexed in fetch order");
            }
            java.util.Map<String, String> byUrl = new java.util.TreeMap<>();
            for (JsonNode v :
                    dev.neardup.testing.JobFiles.read(dir.resolve(tag + "-verdicts.jsonl"))) {
                byUrl.put(
                        v.get("url").asText(),
                        v.get("verdict").asText() + " " + v.path("duplicateUrl").asText());
            }
            assertThat(byUrl).hasSize(600);
            if (tag.equals("json")) {
                verdicts.putAll(byUrl);
                assertThat(verdicts.values()).anyMatch(x -> x.startsWith("DUPLICATE"));
            } else {
                assertThat(byUrl).isEqualTo(verdicts);
            }
        }
    }
}
