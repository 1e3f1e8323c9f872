package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.testing.KafkaTestBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
                        "run",
                        "--bootstrap-servers",
                        KafkaTestBroker.bootstrapServers(),
                        "--input-topic",
                        in,
                        "--alerts-topic",
                        alerts,
                        "--verdicts-topic",
                        verdicts,
                        "--dead-letter-topic",
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
                        "neardup.kafka.transactional-id-prefix=cli-" + in);
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err())
                .contains("ssl.truststore.password=****")
                .doesNotContain("hunter2")
                .contains("neardup: done");
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

    private static byte[] doc(String id, String content) {
        return dev.neardup.io.Json.write(Map.of("id", id, "content", content))
                .getBytes(StandardCharsets.UTF_8);
    }
}
