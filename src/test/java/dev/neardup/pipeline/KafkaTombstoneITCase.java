package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.io.Json;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.KafkaJob;
import dev.neardup.runtime.KafkaSettings;
import dev.neardup.testing.KafkaTestBroker;
import dev.neardup.testing.KafkaTestBroker.Message;
import dev.neardup.tools.bench.SyntheticText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka tombstones against a real Kafka 4.2 broker (issue 12, item 4): a record with a null value,
 * keyed by a document id, between a page and its later copy takes the page out of the buckets. The
 * copy is UNIQUE, the verdicts topic has a DELETED verdict keyed by the id, and the dead-letter
 * topic has nothing for the tombstone (a tombstone without a key is the only dead letter).
 */
class KafkaTombstoneITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.twoSlots();

    private static final Duration WAIT = Duration.ofSeconds(120);

    /** An hour ago, whole minutes: well within the clock-skew and broker timestamp limits. */
    private static final long T0 =
            Instant.now().minus(Duration.ofHours(1)).toEpochMilli() / 60_000 * 60_000;

    private static final String PAGE = SyntheticText.prose(23, 3000);

    private static Message page(String id, long fetchedAt) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", id);
        json.put("url", "https://example.org/" + id);
        json.put("content", PAGE);
        json.put("fetchedAt", Instant.ofEpochMilli(fetchedAt).toString());
        return new Message(id, Json.write(json).getBytes(StandardCharsets.UTF_8), null);
    }

    @Test
    void aTombstoneBetweenAPageAndItsCopyDeletesThePage() throws Exception {
        String documents = KafkaTestBroker.uniqueTopic("documents");
        String alerts = KafkaTestBroker.uniqueTopic("alerts");
        String verdicts = KafkaTestBroker.uniqueTopic("verdicts");
        String deadLetters = KafkaTestBroker.uniqueTopic("dead-letters");
        KafkaTestBroker.createTopics(2, documents, alerts, verdicts, deadLetters);
        List<Message> input = new ArrayList<>();
        input.add(page("A", T0));
        // The tombstone of A, one minute later by its record timestamp.
        input.add(new Message("A", null, T0 + 60_000));
        input.add(page("B", T0 + 120_000)); // an exact copy of A, after the deletion
        input.add(new Message(null, null, T0 + 180_000)); // no key: nothing to delete
        KafkaTestBroker.produceMessages(documents, input);

        Configuration base = new Configuration();
        base.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        base.set(NearDupOptions.KAFKA_BOOTSTRAP_SERVERS, KafkaTestBroker.bootstrapServers());
        base.set(NearDupOptions.KAFKA_INPUT_TOPIC, documents);
        base.set(NearDupOptions.KAFKA_ALERTS_TOPIC, alerts);
        base.set(NearDupOptions.KAFKA_VERDICTS_TOPIC, verdicts);
        base.set(NearDupOptions.KAFKA_DEAD_LETTER_TOPIC, deadLetters);
        base.set(NearDupOptions.KAFKA_GROUP_ID, "it-" + documents);
        base.set(NearDupOptions.KAFKA_TRANSACTIONAL_ID_PREFIX, "it-" + documents);
        base.set(NearDupOptions.KAFKA_STARTING_OFFSETS, "earliest");
        base.set(NearDupOptions.KAFKA_BOUNDED, true);
        base.set(NearDupOptions.IDLE_TIMEOUT, Duration.ofSeconds(3));
        Path work = Files.createTempDirectory(MiniClusters.TMP, "tombstone");
        Configuration conf = EmbeddedJob.configuration(base, work, Duration.ofMillis(500));
        JobClient job = KafkaJob.start(conf, NearDupSettings.from(conf), KafkaSettings.from(conf));
        job.getJobExecutionResult().get(WAIT.toSeconds(), TimeUnit.SECONDS);

        List<ConsumerRecord<byte[], byte[]>> verdictRecords =
                KafkaTestBroker.readCommitted(verdicts, 3, WAIT, Duration.ofSeconds(2));
        List<String> seen = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : verdictRecords) {
            JsonNode v = Json.MAPPER.readTree(r.value());
            assertThat(new String(r.key(), StandardCharsets.UTF_8))
                    .as("verdicts are keyed by document id")
                    .isEqualTo(v.get("docId").asText());
            seen.add(
                    v.get("docId").asText()
                            + " "
                            + v.get("verdict").asText()
                            + " "
                            + v.get("eventTime").asText());
        }
        assertThat(seen)
                .containsExactlyInAnyOrder(
                        "A UNIQUE " + Instant.ofEpochMilli(T0),
                        "A DELETED " + Instant.ofEpochMilli(T0 + 60_000),
                        "B UNIQUE " + Instant.ofEpochMilli(T0 + 120_000));

        assertThat(KafkaTestBroker.readCommitted(alerts, 0, WAIT, Duration.ofSeconds(1)))
                .as("no alert: B's original was deleted")
                .isEmpty();
        List<JsonNode> dead =
                KafkaTestBroker.values(
                        KafkaTestBroker.readCommitted(deadLetters, 1, WAIT, Duration.ofSeconds(1)));
        assertThat(dead).as("only the tombstone without a key").hasSize(1);
        assertThat(dead.get(0).get("reason").asText()).isEqualTo("MISSING_ID");
        assertThat(dead.get(0).get("message").asText()).contains("no key");
        assertThat(dead.get(0).get("sourceOffset").asLong()).isNotNegative();
    }
}
