package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.Json;
import dev.neardup.testing.JarCommand;
import dev.neardup.tools.bench.SyntheticText;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on a file run, as a user does it: {@code java -jar target/neardup.jar run} in its own
 * process, interrupted while it writes its alerts. It exits with 128 + the signal (130 for SIGINT),
 * every output file holds complete JSON lines only, and as many as the summary on stderr says, and
 * the temporary work directory is gone.
 */
class RunInterruptITCase {

    /** Documents in the input: enough that writing their alerts takes a while. */
    private static final int DOCUMENTS = 12_000;

    @Test
    void ctrlCStopsTheJobWithCompleteLinesASummaryAndNoTemporaryFiles(@TempDir Path dir)
            throws Exception {
        assertThat(JarCommand.JAR).as("the jar, built by the package phase").exists();
        Path input = dir.resolve("docs.jsonl");
        writeInput(input);
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path alerts = dir.resolve("out/alerts.jsonl");
        Path verdicts = dir.resolve("out/verdicts.jsonl");
        Path dead = dir.resolve("out/dead.jsonl");
        Path stderr = dir.resolve("stderr.txt");
        List<String> command =
                JarCommand.of(
                        tmp,
                        "run",
                        "--input",
                        input.toString(),
                        "--alerts",
                        alerts.toString(),
                        "--verdicts",
                        verdicts.toString(),
                        "--dead-letters",
                        dead.toString(),
                        "--parallelism",
                        "2");
        Process process =
                new ProcessBuilder(command)
                        .redirectOutput(dir.resolve("stdout.txt").toFile())
                        .redirectError(stderr.toFile())
                        .start();
        try {
            // Alerts come as the file streams through the job; the file is non-empty once the sink
            // has written out its first buffer of lines: the job is then in the middle of its
            // output.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!(Files.exists(alerts) && Files.size(alerts) > 0)) {
                assertThat(process.isAlive())
                        .as("the job ended before it wrote alerts: %s", Files.readString(stderr))
                        .isTrue();
                assertThat(System.nanoTime()).as("alerts within 120 s").isLessThan(deadline);
                Thread.sleep(10);
            }
            String signal = signalToSend();
            System.out.println("RunInterruptITCase: sending SIG" + signal);
            new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
            assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("exited in time").isTrue();
            String err = Files.readString(stderr, StandardCharsets.UTF_8);

            int expectedExit = 130; // SIGINT or SIGTERM alike
            assertThat(process.exitValue())
                    .as("exit code; stderr:%n%s", err)
                    .isEqualTo(expectedExit);

            Matcher summary =
                    Pattern.compile(
                                    "neardup: interrupted by SIG"
                                            + signal
                                            + " after [0-9.]+ s: (\\d+) documents? read; written"
                                            + " \\(complete lines\\): (\\d+) verdicts?, (\\d+)"
                                            + " alerts?, (?:(\\d+) cluster merges?, )?(\\d+) dead"
                                            + " letters?\\n")
                            .matcher(err);
            assertThat(summary.find()).as("the summary on stderr:%n%s", err).isTrue();
            assertThat(err).doesNotContain("Exception");

            // Every line is a whole JSON object, and the files hold what the summary says.
            long verdictLines = completeJsonLines(verdicts);
            long alertLines = completeJsonLines(alerts);
            long deadLines = completeJsonLines(dead);
            // The alerts file holds the pair alerts and the cluster merges.
            long merges = summary.group(4) == null ? 0 : Long.parseLong(summary.group(4));
            assertThat(alertLines)
                    .isEqualTo(Long.parseLong(summary.group(3)) + merges)
                    .isPositive();
            assertThat(verdictLines).isEqualTo(Long.parseLong(summary.group(2)));
            assertThat(deadLines).isEqualTo(Long.parseLong(summary.group(5))).isEqualTo(1);
            assertThat(verdictLines).as("interrupted before the end").isLessThan(DOCUMENTS);

            // The temporary work directory (checkpoints, RocksDB, Flink's files) is gone.
            try (Stream<Path> left = Files.list(tmp)) {
                assertThat(left).as("left in java.io.tmpdir").isEmpty();
            }
        } finally {
            process.destroyForcibly();
        }
    }

    /**
     * Ctrl-C while a Kafka run checks the brokers (issue 30): the "broker" is a socket that accepts
     * the connection and never answers, so the check would wait 30 s; once the client has
     * connected, the signal ends the run at once with exit code 130 (it was 1, after the 30 s).
     */
    @Test
    void ctrlCDuringTheKafkaConnectionCheckExits130(@TempDir Path dir) throws Exception {
        assertThat(JarCommand.JAR).as("the jar, built by the package phase").exists();
        Path stderr = dir.resolve("stderr.txt");
        try (java.net.ServerSocket silent =
                new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Process process =
                    new ProcessBuilder(
                                    Path.of(System.getProperty("java.home"), "bin", "java")
                                            .toString(),
                                    "-jar",
                                    JarCommand.JAR.toString(),
                                    "run",
                                    "--bootstrap-servers",
                                    "127.0.0.1:" + silent.getLocalPort(),
                                    "--input-topic",
                                    "documents")
                            .redirectOutput(dir.resolve("stdout.txt").toFile())
                            .redirectError(stderr.toFile())
                            .start();
            silent.setSoTimeout(60_000);
            try (java.net.Socket client = silent.accept()) {
                long sent = System.nanoTime();
                String signal = signalToSend();
                new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                        .inheritIO()
                        .start()
                        .waitFor();
                assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("exited in time").isTrue();
                String err = Files.readString(stderr, StandardCharsets.UTF_8);
                assertThat(process.exitValue()).as("exit code; stderr:%n%s", err).isEqualTo(130);
                assertThat(err).contains("neardup: interrupted (SIG" + signal + ")");
                assertThat(err).doesNotContain("cannot reach Kafka").doesNotContain("Exception");
                assertThat(System.nanoTime() - sent)
                        .as("well before the check's 30 s")
                        .isLessThan(TimeUnit.SECONDS.toNanos(20));
            } finally {
                process.destroyForcibly();
            }
        }
    }

    /**
     * SIGINT, as Ctrl-C sends it; but a process that starts with SIGINT ignored (a background job
     * of a non-interactive shell, as a CI script may run Maven) passes that on to its children, and
     * the JVM then never sees it: the test sends SIGTERM then, which takes the same path.
     */
    private static String signalToSend() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                long ignored = Long.parseUnsignedLong(line.substring(7).strip(), 16);
                return (ignored & (1L << (2 - 1))) != 0 ? "TERM" : "INT";
            }
        }
        return "INT";
    }

    /** Lines of a file, each checked to be a JSON object; the file ends with a newline. */
    private static long completeJsonLines(Path file) throws IOException {
        String content = Files.readString(file, StandardCharsets.UTF_8);
        if (content.isEmpty()) {
            return 0;
        }
        assertThat(content).as("%s ends with a whole line", file.getFileName()).endsWith("\n");
        List<String> lines = content.lines().toList();
        for (String line : lines) {
            assertThat(Json.MAPPER.readTree(line).isObject()).as(line).isTrue();
        }
        return lines.size();
    }

    /** Documents of about 1 KB, half of them near-copies of earlier ones, and one bad line. */
    private static void writeInput(Path file) throws IOException {
        SplittableRandom random = new SplittableRandom(12);
        List<String> texts = new ArrayList<>();
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < DOCUMENTS; i++) {
                String text;
                if (i > 10 && random.nextBoolean()) {
                    String[] words = texts.get(random.nextInt(i)).split(" ");
                    words[random.nextInt(words.length)] = "edit" + i;
                    text = String.join(" ", words);
                } else {
                    text = SyntheticText.prose(random.nextLong(), 1000);
                }
                texts.add(text);
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("id", "doc-" + i);
                doc.put("content", text);
                w.write(Json.write(doc));
                w.write('\n');
                if (i == 100) {
                    w.write("{\"id\": \"broken\"\n");
                }
            }
        }
    }
}
