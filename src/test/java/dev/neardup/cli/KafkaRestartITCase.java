package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.runtime.KafkaProgress;
import dev.neardup.runtime.StateDir;
import dev.neardup.testing.KafkaTestBroker;
import dev.neardup.testing.ShortTempDirs;
import dev.neardup.tools.bench.SyntheticText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, item 1: Kafka-mode state survives restarts. The standalone jar ({@code
 * target/neardup.jar}, with its own logging configuration) runs as a separate process against the
 * test broker, is stopped with Ctrl-C (SIGINT; SIGTERM where the test's environment ignores SIGINT,
 * as a process started in the background by a non-interactive shell does) and started again against
 * the same state directory: an exact copy of a document from before the stop is a DUPLICATE of it,
 * restoring logs no ERROR (the fencing of the previous run's producers is expected), and with
 * {@code --fresh} the copy is UNIQUE. A restore with other state-shaping settings is a usage error
 * that points to {@code --fresh}.
 */
class KafkaRestartITCase {

    private static final Path JAR = Path.of("target/neardup.jar").toAbsolutePath();
    private static final Duration WAIT = Duration.ofSeconds(90);

    private static Path work;

    @BeforeAll
    static void makeWorkDir() throws IOException {
        work = ShortTempDirs.create("ndrs");
    }

    @AfterAll
    static void deleteWorkDir() {
        StateDir.deleteTree(work);
    }

    @Test
    void aCopySentAfterARestartIsADuplicateOfADocumentFromBeforeIt() throws Exception {
        assertThat(JAR).as("the jar, built by the package phase").exists();
        String in = KafkaTestBroker.uniqueTopic("restart-documents");
        String alerts = KafkaTestBroker.uniqueTopic("restart-alerts");
        String verdicts = KafkaTestBroker.uniqueTopic("restart-verdicts");
        String dead = KafkaTestBroker.uniqueTopic("restart-dead");
        KafkaTestBroker.createTopics(1, in, alerts, verdicts, dead);
        Path stateRoot = work.resolve("state");
        String group = "restart-" + in;
        List<String> common =
                KafkaTestBroker.runArgs(
                        in,
                        alerts,
                        verdicts,
                        dead,
                        "--group-id",
                        group,
                        "--state-dir",
                        stateRoot.toString(),
                        "--checkpoint-interval",
                        "1s",
                        "--idle-timeout",
                        "1s",
                        "--max-out-of-orderness",
                        "0s",
                        "--parallelism",
                        "1",
                        "-D",
                        "neardup.kafka.transactional-id-prefix=" + group);
        String text = SyntheticText.prose(31, 3000);
        Path jobState = stateRoot.resolve(StateDir.jobDirName(in, group));

        // 1. A first run takes document "a" and is stopped with Ctrl-C.
        try (CliProcess first = CliProcess.start(work, "first", common)) {
            first.awaitErr("neardup: running");
            assertThat(first.err())
                    .contains("neardup: state in " + jobState)
                    .contains("no state kept yet")
                    .contains("restart within 11 min");
            KafkaTestBroker.produce(in, List.of(doc("a", text, "2026-11-20T10:00:00Z")));
            assertThat(verdicts(verdicts, 1)).containsEntry("a", "UNIQUE");
            // A progress line with no lag left (latency fields may follow it).
            first.awaitErrMatching("\"consumerLag\":0[,}]");
            int exit = first.stop("INT");
            assertThat(exit).as(first.err()).isEqualTo(130);
            assertThat(first.err()).contains("neardup: stopped with a savepoint");
            JsonNode last = first.lastProgress();
            assertThat(last.get("documents").asLong()).isEqualTo(1);
            assertThat(last.get("verdicts").asLong()).isEqualTo(1);
            assertThat(last.get("deadLetters").asLong()).isZero();
            assertThat(last.get("consumerLag").asLong()).isZero();
        }

        // 2. Other state-shaping settings: refused, naming them and --fresh.
        List<String> otherBanding = new ArrayList<>(common);
        otherBanding.addAll(List.of("--bands", "16", "--rows", "8", "--quiet"));
        try (CliProcess refused = CliProcess.start(work, "refused", otherBanding)) {
            assertThat(refused.awaitExit()).as(refused.err()).isEqualTo(2);
            assertThat(refused.err())
                    .contains("neardup.bands was 11, now 16")
                    .contains("--fresh")
                    .contains("(see 'neardup run --help')");
        }

        // 3. The next run resumes: an exact copy is a duplicate of "a", and nothing is repeated.
        // Then the process is killed (kill -9): no savepoint, only its retained checkpoints.
        try (CliProcess second = CliProcess.start(work, "second", common)) {
            second.awaitErr("neardup: running");
            assertThat(second.err()).contains("resuming from savepoint of checkpoint");
            KafkaTestBroker.produce(in, List.of(doc("a-copy", text, "2026-11-20T11:00:00Z")));
            Map<String, String> after = verdicts(verdicts, 2);
            assertThat(after).hasSize(2).containsEntry("a-copy", "DUPLICATE a");
            second.kill();
        }

        // 4. After the crash, the run resumes from the last retained checkpoint: the restore
        // logs no ERROR (the fencing of the dead run's producers is expected), no verdict is
        // repeated, and the state still has "a".
        try (CliProcess third = CliProcess.start(work, "third", common)) {
            third.awaitErr("neardup: running");
            assertThat(third.err()).containsPattern("resuming from checkpoint \\d+ ");
            KafkaTestBroker.produce(in, List.of(doc("a-copy-2", text, "2026-11-20T12:00:00Z")));
            Map<String, String> after = verdicts(verdicts, 3);
            assertThat(after).hasSize(3).containsEntry("a-copy-2", "DUPLICATE a");
            assertThat(third.stop("TERM")).as(third.err()).isEqualTo(130);
            assertThat(third.err())
                    .as("restoring logs no ERROR: the fencing of old producers is expected")
                    .doesNotContain(" ERROR ");
        }

        // 5. --fresh forgets "a": the next copy is unique. Reading starts at a time after the
        // earlier documents (the group's committed offsets, the default, trail the state by the
        // last seconds before a stop, so those documents would be read and judged again).
        List<String> fresh = new ArrayList<>(common);
        fresh.addAll(
                List.of(
                        "--fresh",
                        "--quiet",
                        "--starting-offsets",
                        "timestamp:" + System.currentTimeMillis()));
        try (CliProcess fourth = CliProcess.start(work, "fresh", fresh)) {
            fourth.awaitErr("discarded the state kept in " + jobState);
            KafkaTestBroker.produce(in, List.of(doc("a-copy-3", text, "2026-11-20T13:00:00Z")));
            assertThat(verdicts(verdicts, 4)).hasSize(4).containsEntry("a-copy-3", "UNIQUE");
            assertThat(fourth.stop("INT")).as(fourth.err()).isEqualTo(130);
            assertThat(fourth.err()).as("--quiet: no progress").doesNotContain("\"progress\"");
        }
    }

    /** docId to "VERDICT" or "VERDICT duplicateOf", once at least {@code n} verdicts are there. */
    private static Map<String, String> verdicts(String topic, int n) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (JsonNode v :
                KafkaTestBroker.values(
                        KafkaTestBroker.readCommitted(topic, n, WAIT, Duration.ofSeconds(1)))) {
            String was =
                    out.put(
                            v.get("docId").asText(),
                            (v.get("verdict").asText() + " " + v.get("duplicateOf").asText(""))
                                    .strip());
            assertThat(was).as("one verdict for %s", v.get("docId")).isNull();
        }
        return out;
    }

    private static Map.Entry<String, byte[]> doc(String id, String content, String fetchedAt) {
        return Map.entry(
                id,
                dev.neardup.io.Json.write(
                                Map.of("id", id, "content", content, "fetchedAt", fetchedAt))
                        .getBytes(StandardCharsets.UTF_8));
    }

    /** {@code java -jar target/neardup.jar ARGS} with stdout and stderr in files. */
    private static final class CliProcess implements AutoCloseable {
        private final Process process;
        private final Path err;

        private CliProcess(Process process, Path err) {
            this.process = process;
            this.err = err;
        }

        static CliProcess start(Path dir, String name, List<String> args) throws IOException {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-Xmx512m");
            command.add("-D" + KafkaProgress.INTERVAL_PROPERTY + "=1s");
            command.add("-jar");
            command.add(JAR.toString());
            command.addAll(args);
            // The embedded cluster's working files under the test's directory, so that the run
            // killed with -9 leaves nothing in /tmp.
            command.addAll(List.of("--work-dir", dir.resolve(name + ".work").toString()));
            Path out = dir.resolve(name + ".out");
            Path err = dir.resolve(name + ".err");
            Process p =
                    new ProcessBuilder(command)
                            .redirectOutput(out.toFile())
                            .redirectError(err.toFile())
                            .start();
            return new CliProcess(p, err);
        }

        String err() {
            try {
                return Files.readString(err, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        void awaitErr(String text) throws InterruptedException {
            awaitErrMatching(java.util.regex.Pattern.quote(text));
        }

        /** Waits until standard error has a match of {@code regex}. */
        void awaitErrMatching(String regex) throws InterruptedException {
            java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(regex);
            String text = regex;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!pattern.matcher(err()).find()) {
                if (!process.isAlive()) {
                    throw new AssertionError(
                            "exited with "
                                    + process.exitValue()
                                    + " before '"
                                    + text
                                    + "':\n"
                                    + err());
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no '" + text + "' after " + WAIT + ":\n" + err());
                }
                Thread.sleep(100);
            }
        }

        JsonNode lastProgress() throws IOException {
            List<String> lines =
                    err().lines().filter(l -> l.startsWith("{\"progress\":\"kafka\"")).toList();
            assertThat(lines).as("progress lines").isNotEmpty();
            return dev.neardup.io.Json.MAPPER.readTree(lines.get(lines.size() - 1));
        }

        /**
         * Sends {@code signal} ("INT" or "TERM"; "INT" becomes "TERM" when the process ignores
         * SIGINT) and returns the exit code.
         */
        int stop(String signal) throws Exception {
            String name = signal.equals("INT") && ignoresSigint() ? "TERM" : signal;
            Process kill =
                    new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid()))
                            .inheritIO()
                            .start();
            assertThat(kill.waitFor()).isZero();
            return awaitExit();
        }

        private boolean ignoresSigint() throws IOException {
            for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseLong(line.substring(7).strip(), 16) & 0x2) != 0;
                }
            }
            return false;
        }

        /** kill -9: the process ends at once, as in a crash. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        int awaitExit() throws InterruptedException {
            assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .as("exited in time; stderr:\n%s", err())
                    .isTrue();
            return process.exitValue();
        }

        @Override
        public void close() {
            System.out.println("---- stderr of " + err.getFileName() + ":\n" + err());
            if (process.isAlive()) {
                process.destroyForcibly();
                try {
                    process.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
