package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.io.DocumentParser;
import dev.neardup.io.Json;
import dev.neardup.io.KafkaDocumentDeserializer;
import dev.neardup.io.RawRecord;
import dev.neardup.runtime.EmbeddedJob;
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
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 30: no record can stop the stream. An unbounded job against a real Kafka 4.2 broker
 * (exactly-once, restart strategy 'none': any failure fails the job) reads a topic with two poison
 * records between pages:
 *
 * <ul>
 *   <li>a real one, {@code "fetchedAt": "+999999999-12-31T23:59:59Z"}, which made the parser throw
 *       {@code ArithmeticException: long overflow} before issue 30 (the job failed, restarted from
 *       its checkpoint, read it again: the pipeline stopped for every page behind it);
 *   <li>a record whose parsing throws, injected through the parser's test seam ({@link
 *       DocumentParser} is not final: the real job gets a parser whose {@code parse} throws on that
 *       one record, as a bug would), which must become a dead letter {@code INTERNAL_ERROR}.
 *   <li>an id, a url and a tombstone's key of 1 MB each, over their limits, which must be dead
 *       letters {@code TOO_LARGE} (a 1 MB id failed every checkpoint while its verdict waited).
 * </ul>
 *
 * The job keeps running, each poison record has exactly one committed dead letter (read with {@code
 * read_committed}), and the pages after them get their verdicts.
 */
class KafkaPoisonRecordITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.twoSlots();

    private static final Duration WAIT = Duration.ofSeconds(120);

    private static final long T0 =
            Instant.now().minus(Duration.ofHours(1)).toEpochMilli() / 60_000 * 60_000;

    private static final String PAGE = SyntheticText.prose(29, 3000);
    private static final String OTHER = SyntheticText.prose(31, 3000);

    /** What the failing parser throws on. */
    private static final String TRIGGER = "parse-throws-here";

    /** The job's own parser, except that a record containing {@link #TRIGGER} throws. */
    static final class ThrowingParser extends DocumentParser {
        private static final long serialVersionUID = 1L;
        private final DocumentParser real;

        ThrowingParser(DocumentParser real) {
            super(null, 1);
            this.real = real;
        }

        @Override
        public Result parse(RawRecord raw, long ingestTime, long now) {
            if (new String(raw.payload, StandardCharsets.UTF_8).contains(TRIGGER)) {
                throw new IllegalStateException("injected failure for " + raw.source);
            }
            return real.parse(raw, ingestTime, now);
        }
    }

    private static Message page(String id, String content, Object fetchedAt) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", id);
        json.put("content", content);
        json.put("fetchedAt", fetchedAt);
        return new Message(id, Json.write(json).getBytes(StandardCharsets.UTF_8), null);
    }

    private static String at(long t) {
        return Instant.ofEpochMilli(t).toString();
    }

    @Test
    void poisonRecordsAreDeadLettersOnceAndTheJobGoesOn() throws Exception {
        String documents = KafkaTestBroker.uniqueTopic("documents");
        String alerts = KafkaTestBroker.uniqueTopic("alerts");
        String verdicts = KafkaTestBroker.uniqueTopic("verdicts");
        String deadLetters = KafkaTestBroker.uniqueTopic("dead-letters");
        KafkaTestBroker.createTopics(1, documents);
        KafkaTestBroker.createTopics(2, alerts, verdicts, deadLetters);
        List<Message> input = new ArrayList<>();
        input.add(page("A", PAGE, at(T0))); // offset 0
        input.add(page("overflow", PAGE, "+999999999-12-31T23:59:59Z")); // offset 1
        input.add(page("thrower", PAGE + " " + TRIGGER, at(T0 + 1000))); // offset 2
        input.add(page("B", PAGE, at(T0 + 2000))); // offset 3: a copy of A
        input.add(page("C", OTHER, at(T0 + 3000))); // offset 4
        String megabyte = "M1-" + "y".repeat(1 << 20);
        input.add(page(megabyte, PAGE, at(T0 + 4000))); // offset 5: a 1 MB id (and key)
        Message longUrl = page("long-url", OTHER, at(T0 + 5000));
        input.add(
                new Message(
                        "long-url",
                        new String(longUrl.value(), StandardCharsets.UTF_8)
                                .replace(
                                        "\"id\":\"long-url\"",
                                        "\"id\":\"long-url\",\"url\":\"https://example.org/"
                                                + megabyte
                                                + "\"")
                                .getBytes(StandardCharsets.UTF_8),
                        null)); // offset 6: a 1 MB url
        input.add(new Message(megabyte, null, T0 + 6000)); // offset 7: a tombstone, 1 MB key
        input.add(page("D", OTHER, at(T0 + 7000))); // offset 8: a copy of C
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
        base.set(NearDupOptions.KAFKA_BOUNDED, false); // runs until cancelled, as in production
        base.set(NearDupOptions.MAX_OUT_OF_ORDERNESS, Duration.ZERO);
        base.set(NearDupOptions.IDLE_TIMEOUT, Duration.ofSeconds(2));
        Path work = Files.createTempDirectory(MiniClusters.TMP, "poison");
        // Restart strategy 'none' (EmbeddedJob.configuration): a failure would end the job.
        Configuration conf = EmbeddedJob.configuration(base, work, Duration.ofMillis(500));
        NearDupSettings settings = NearDupSettings.from(conf);
        KafkaSettings kafka = KafkaSettings.from(conf);

        // KafkaJob.build, with the parser of the test seam.
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.getCheckpointConfig()
                .setCheckpointTimeout(KafkaSettings.DEFAULT_CHECKPOINT_TIMEOUT.toMillis());
        new NearDupJob(
                        settings,
                        kafka.source(
                                new KafkaDocumentDeserializer(
                                        new ThrowingParser(settings.input().parser()))),
                        DocumentWatermarks.boundedOutOfOrderness(settings.watermarks()),
                        kafka.alertSink(),
                        kafka.verdictSink(),
                        kafka.deadLetterSink())
                .build(env);
        JobClient job = env.executeAsync("poison records");
        try {
            List<JsonNode> verdictValues =
                    KafkaTestBroker.values(
                            KafkaTestBroker.readCommitted(
                                    verdicts, 4, WAIT, Duration.ofSeconds(2)));
            Map<String, String> byId = new TreeMap<>();
            for (JsonNode v : verdictValues) {
                String was =
                        byId.put(
                                v.get("docId").asText(),
                                v.get("verdict").asText() + " " + v.get("duplicateOf").asText(""));
                assertThat(was).as("one verdict per document").isNull();
            }
            assertThat(byId)
                    .as("the pages after the poison records are judged")
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of(
                                    "A",
                                    "UNIQUE ",
                                    "B",
                                    "DUPLICATE A",
                                    "C",
                                    "UNIQUE ",
                                    "D",
                                    "DUPLICATE C"));

            List<JsonNode> dead =
                    KafkaTestBroker.values(
                            KafkaTestBroker.readCommitted(
                                    deadLetters, 5, WAIT, Duration.ofSeconds(3)));
            assertThat(dead).as("one committed dead letter per poison record").hasSize(5);
            Map<Long, JsonNode> byOffset = new TreeMap<>();
            for (JsonNode d : dead) {
                assertThat(byOffset.put(d.get("sourceOffset").asLong(), d)).isNull();
            }
            assertThat(byOffset).containsOnlyKeys(1L, 2L, 5L, 6L, 7L);
            for (long offset : new long[] {5, 6, 7}) {
                JsonNode d = byOffset.get(offset);
                assertThat(d.get("reason").asText()).as("offset %d", offset).isEqualTo("TOO_LARGE");
                assertThat(d.get("payloadTruncated").asBoolean()).isEqualTo(offset != 7);
            }
            assertThat(byOffset.get(5L).get("message").asText())
                    .isEqualTo(
                            "field 'id' is 1,048,579 bytes, more than its limit of 16,384 bytes"
                                    + " (neardup.max-id-size)");
            assertThat(byOffset.get(5L).get("docId").isNull()).isTrue();
            assertThat(byOffset.get(6L).get("message").asText())
                    .startsWith("field 'url' is 1,048,599 bytes");
            assertThat(byOffset.get(6L).get("docId").asText()).isEqualTo("long-url");
            assertThat(byOffset.get(7L).get("message").asText())
                    .contains("tombstone")
                    .contains("its key is 1,048,579 bytes, more than its limit of 16,384 bytes");
            JsonNode overflow = byOffset.get(1L);
            assertThat(overflow.get("reason").asText()).isEqualTo("BAD_TIMESTAMP");
            assertThat(overflow.get("docId").asText()).isEqualTo("overflow");
            assertThat(overflow.get("message").asText())
                    .contains("field 'fetchedAt' must be a time from 1990-01-01T00:00:00Z")
                    .contains("+999999999-12-31T23:59:59Z");
            JsonNode thrower = byOffset.get(2L);
            assertThat(thrower.get("reason").asText()).isEqualTo("INTERNAL_ERROR");
            assertThat(thrower.get("message").asText())
                    .isEqualTo(
                            "java.lang.IllegalStateException: injected failure for "
                                    + documents
                                    + "-0@2 (while parsing)");
            assertThat(thrower.get("sourceTopic").asText()).isEqualTo(documents);
            assertThat(thrower.get("payload").asText()).contains(TRIGGER);

            assertThat(job.getJobStatus().get(30, TimeUnit.SECONDS))
                    .as("the job is still running (restart strategy 'none': never failed)")
                    .isEqualTo(JobStatus.RUNNING);
        } finally {
            job.cancel().get(60, TimeUnit.SECONDS);
        }
    }
}
