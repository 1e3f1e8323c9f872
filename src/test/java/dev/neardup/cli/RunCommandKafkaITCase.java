package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.testing.KafkaTestBroker;
import dev.neardup.tools.bench.SyntheticText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code neardup run --bootstrap-servers ...} end to end against the real test broker. */
class RunCommandKafkaITCase {

    @Test
    void runsBetweenTopicsToTheEndOfTheInput() throws Exception {
        String in = KafkaTestBroker.uniqueTopic("cli-documents");
        String alerts = KafkaTestBroker.uniqueTopic("cli-alerts");
        String verdicts = KafkaTestBroker.uniqueTopic("cli-verdicts");
        String dead = KafkaTestBroker.uniqueTopic("cli-dead");
        KafkaTestBroker.createTopics(1, in, alerts, verdicts, dead);
        String a = SyntheticText.prose(21, 3000);
        String b = SyntheticText.prose(22, 3000);
        KafkaTestBroker.produce(
                in,
                List.of(
                        Map.entry("a", doc("a", a)),
                        Map.entry("b", doc("b", b)),
                        Map.entry("x", "not json".getBytes(StandardCharsets.UTF_8)),
                        Map.entry("a2", doc("a2", a + " one more sentence at the end"))));

        CliRun run =
                CliRun.run(
                        KafkaTestBroker.runArgs(
                                        in,
                                        alerts,
                                        verdicts,
                                        dead,
                                        "--group-id",
                                        "cli-" + in,
                                        "--starting-offsets",
                                        "earliest",
                                        "--bounded",
                                        "--checkpoint-interval",
                                        "500ms",
                                        "--kafka-property",
                                        "ssl.truststore.password=hunter2",
                                        "-D",
                                        "neardup.kafka.transactional-id-prefix=cli-" + in)
                                .toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err())
                .contains("ssl.truststore.password=****")
                .doesNotContain("hunter2")
                .contains("neardup: done");
        // The last progress line has the counts of the finished run, from the job's metrics.
        assertThat(run.err())
                .containsPattern(
                        "\\{\"progress\":\"kafka\",\"time\":\"[^\"]+\",\"documents\":3,"
                                + "\"documentsPerSecond\":[0-9.]+,\"alerts\":1,\"verdicts\":3,"
                                + "\"deadLetters\":1,");
        // And the latency from event time to output: the alert, the verdicts.
        assertThat(run.err())
                .containsPattern(
                        "\"alertLatencyP50Millis\":[0-9]+,\"alertLatencyP99Millis\":[0-9]+")
                .containsPattern("\"verdictLatencyP50Millis\":[0-9]+,\"verdictLatencyP99Millis\"")
                .containsPattern(
                        "neardup: latency from event time to output \\(latest of each subtask\\):"
                                + " other alerts p50 [0-9]+ ms, p99 [0-9]+ ms, verdicts p50 [0-9]+"
                                + " ms, p99 [0-9]+ ms\n");
        assertThat(
                        KafkaTestBroker.readCommitted(
                                verdicts, 3, Duration.ofSeconds(60), Duration.ofSeconds(1)))
                .hasSize(3);
        var alertRecords =
                KafkaTestBroker.readCommitted(
                        alerts, 1, Duration.ofSeconds(60), Duration.ofSeconds(1));
        assertThat(alertRecords).hasSize(1);
        assertThat(new String(alertRecords.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("a2");
        assertThat(
                        KafkaTestBroker.readCommitted(
                                dead, 1, Duration.ofSeconds(60), Duration.ofSeconds(1)))
                .hasSize(1);
    }

    @Test
    void kafkaAndFileOptionsDoNotMix() {
        CliRun.run("run", "--bootstrap-servers", "127.0.0.1:1", "--sample")
                .usageError("neardup run", "--input-topic");
        CliRun.run("run", "--bootstrap-servers", "127.0.0.1:1", "--starting-offsets", "soon")
                .usageError("neardup run", "neardup.kafka.starting-offsets");
    }

    @Test
    void unreachableBrokersAndMissingTopicsFailAtOnce() {
        CliRun.run(
                        "run",
                        "--bootstrap-servers",
                        KafkaTestBroker.bootstrapServers(),
                        "--input-topic",
                        KafkaTestBroker.uniqueTopic("absent"))
                .failure("neardup run", "has no topic");
        long start = System.nanoTime();
        CliRun run = CliRun.run("run", "--bootstrap-servers", "127.0.0.1:1", "--quiet");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("cannot reach Kafka at 127.0.0.1:1");
        assertThat((System.nanoTime() - start) / 1e9).isLessThan(60);
    }

    @Test
    void stateAndExactlyOnceSettingsAreCheckedBeforeTheJobStarts(@TempDir Path tmp)
            throws Exception {
        String in = KafkaTestBroker.uniqueTopic("cli-check-documents");
        String alerts = KafkaTestBroker.uniqueTopic("cli-check-alerts");
        String verdicts = KafkaTestBroker.uniqueTopic("cli-check-verdicts");
        String dead = KafkaTestBroker.uniqueTopic("cli-check-dead");
        KafkaTestBroker.createTopics(1, in, alerts, verdicts, dead);
        List<String> topics = KafkaTestBroker.runArgs(in, alerts, verdicts, dead, "--quiet");
        Path state = tmp.resolve("state");

        // A transaction timeout shorter than a transaction can stay open (2 min + 2 min + 1 min).
        run(
                        topics,
                        "--state-dir",
                        state.toString(),
                        "--kafka-property",
                        "transaction.timeout.ms=60000")
                .usageError("neardup run", "inconsistent exactly-once settings")
                .usageError("neardup run", "execution.checkpointing.timeout 2 min");
        // Above the broker's transaction.max.timeout.ms (15 min by default): the broker would
        // refuse the producers and the job would restart forever.
        run(
                        topics,
                        "--state-dir",
                        state.toString(),
                        "--kafka-property",
                        "transaction.timeout.ms=1200000")
                .usageError("neardup run", "above the broker's transaction.max.timeout.ms (900000");

        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        run(topics, "--state-dir", file.resolve("state").toString())
                .usageError(
                        "neardup run", "cannot use the state directory " + file.resolve("state"));
        run(topics, "--bounded", "--state-dir", state.toString())
                .usageError("neardup run", "--bounded runs start with empty state");
        run(
                        topics,
                        "--fresh",
                        "--state-dir",
                        state.toString(),
                        "-D",
                        "execution.state-recovery.path=" + tmp.resolve("savepoint"))
                .usageError("neardup run", "give one of them");
        run(topics, "-D", "execution.checkpointing.dir=file://" + tmp)
                .usageError("neardup run", "--state-dir");
        CliRun.run("run", "--state-dir", state.toString())
                .usageError("neardup run", "--bootstrap-servers");
    }

    private static CliRun run(List<String> common, String... more) {
        List<String> args = new ArrayList<>(common);
        args.addAll(List.of(more));
        return CliRun.run(args.toArray(new String[0]));
    }

    private static byte[] doc(String id, String content) {
        return dev.neardup.io.Json.write(Map.of("id", id, "content", content))
                .getBytes(StandardCharsets.UTF_8);
    }
}
