package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.io.InputFormat;
import dev.neardup.io.warc.WarcFiles;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.KafkaJob;
import dev.neardup.runtime.KafkaSettings;
import dev.neardup.testing.KafkaTestBroker;
import dev.neardup.testing.KafkaTestBroker.Message;
import dev.neardup.tools.bench.SyntheticText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Kafka topic of WARC records, one per message (plain, or a gzip member as in a {@code
 * .warc.gz}), read by the job with {@code neardup.input.format=WARC} against a real Kafka 4.2
 * broker: two HTML pages that nearly duplicate each other are alerted and judged, the event time is
 * the WARC-Date (not the record key or timestamp), a request record and an image are skipped (no
 * dead letter, no verdict), a broken record is one dead letter at {@code topic-partition@offset},
 * and the job keeps running (restart strategy 'none') and judges the page after it.
 */
class KafkaWarcITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.twoSlots();

    private static final Duration WAIT = Duration.ofSeconds(120);

    private static final Instant T0 =
            Instant.ofEpochMilli(
                    Instant.now().minus(Duration.ofHours(1)).toEpochMilli() / 60_000 * 60_000);

    private static final String PAGE = SyntheticText.prose(29, 3000);
    private static final String OTHER = SyntheticText.prose(31, 3000);

    private static final String A = "https://example.org/bread";
    private static final String B = "https://mirror.example.net/bread";
    private static final String C = "https://example.org/ovens";

    private static byte[] html(String text) {
        return WarcFiles.http(
                200,
                "<html><head><title>t</title></head><body><p>" + text + "</p></body></html>",
                "Content-Type: text/html; charset=utf-8");
    }

    private static Message record(
            String key, boolean gzip, java.util.function.Consumer<WarcFiles> write) {
        WarcFiles w = new WarcFiles(gzip);
        write.accept(w);
        // The record timestamp is a day before the WARC-Date: the WARC-Date is the event time.
        return new Message(key, w.bytes(), T0.minus(Duration.ofDays(1)).toEpochMilli());
    }

    @Test
    void warcRecordsAsMessagesAreJudgedSkippedAndDeadLettered() throws Exception {
        String documents = KafkaTestBroker.uniqueTopic("documents");
        String alerts = KafkaTestBroker.uniqueTopic("alerts");
        String verdicts = KafkaTestBroker.uniqueTopic("verdicts");
        String deadLetters = KafkaTestBroker.uniqueTopic("dead-letters");
        KafkaTestBroker.createTopics(1, documents);
        KafkaTestBroker.createTopics(2, alerts, verdicts, deadLetters);

        byte[] whole = record(null, false, w -> w.response(C, T0, html(OTHER))).value();
        List<Message> input = new ArrayList<>();
        input.add(record("key-is-ignored", false, w -> w.response(A, T0, html(PAGE)))); // 0
        input.add(record(null, true, w -> w.request(B, T0.plusSeconds(2)))); // 1: skipped
        input.add(
                record(
                        null,
                        true,
                        w ->
                                w.response(
                                        B,
                                        T0.plusSeconds(2),
                                        html(PAGE + " A line the mirror added at the end.")))); // 2
        input.add(
                record(
                        null,
                        true,
                        w ->
                                w.response(
                                        "https://example.org/logo.png",
                                        T0.plusSeconds(3),
                                        WarcFiles.http(
                                                200,
                                                new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 1},
                                                "Content-Type: image/png")))); // 3: skipped
        input.add(
                new Message(null, Arrays.copyOf(whole, whole.length / 2), null)); // 4: cut in half
        input.add(record(null, false, w -> w.response(C, T0.plusSeconds(4), html(OTHER)))); // 5
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
        base.set(NearDupOptions.KAFKA_BOUNDED, false);
        base.set(NearDupOptions.MAX_OUT_OF_ORDERNESS, Duration.ZERO);
        base.set(NearDupOptions.IDLE_TIMEOUT, Duration.ofSeconds(2));
        base.set(NearDupOptions.INPUT_FORMAT, InputFormat.Kind.WARC);
        Path work = Files.createTempDirectory(MiniClusters.TMP, "kafka-warc");
        // Restart strategy 'none' (EmbeddedJob.configuration): a failure would end the job.
        Configuration conf = EmbeddedJob.configuration(base, work, Duration.ofMillis(500));

        JobClient job = KafkaJob.start(conf, NearDupSettings.from(conf), KafkaSettings.from(conf));
        try {
            Map<String, String> byId = new TreeMap<>();
            for (JsonNode v :
                    KafkaTestBroker.values(
                            KafkaTestBroker.readCommitted(
                                    verdicts, 3, WAIT, Duration.ofSeconds(2)))) {
                String was =
                        byId.put(
                                v.get("docId").asText(),
                                v.get("verdict").asText() + " " + v.get("duplicateOf").asText(""));
                assertThat(was).as("one verdict per document").isNull();
                if (v.get("docId").asText().equals(A)) {
                    assertThat(v.get("source").asText()).isEqualTo(documents + "-0@0");
                }
            }
            assertThat(byId)
                    .as("pages judged by their target URIs; no verdict for the request or image")
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of(A, "UNIQUE ", B, "DUPLICATE " + A, C, "UNIQUE "));

            List<JsonNode> pairs =
                    KafkaTestBroker.values(
                                    KafkaTestBroker.readCommitted(
                                            alerts, 1, WAIT, Duration.ofSeconds(2)))
                            .stream()
                            .filter(a -> a.has("duplicateOf"))
                            .toList();
            assertThat(pairs).hasSize(1);
            assertThat(pairs.get(0).get("docId").asText()).isEqualTo(B);
            assertThat(pairs.get(0).get("duplicateOf").asText()).isEqualTo(A);
            assertThat(pairs.get(0).get("url").asText()).isEqualTo(B);
            assertThat(pairs.get(0).get("eventTime").asText())
                    .as("the WARC-Date")
                    .isEqualTo(T0.plusSeconds(2).toString());

            List<JsonNode> dead =
                    KafkaTestBroker.values(
                            KafkaTestBroker.readCommitted(
                                    deadLetters, 1, WAIT, Duration.ofSeconds(3)));
            assertThat(dead).as("the broken record only: the image is skipped").hasSize(1);
            JsonNode broken = dead.get(0);
            assertThat(broken.get("reason").asText()).isEqualTo("MALFORMED_RECORD");
            assertThat(broken.get("source").asText()).isEqualTo(documents + "-0@4");
            assertThat(broken.get("sourceTopic").asText()).isEqualTo(documents);
            assertThat(broken.get("sourceOffset").asLong()).isEqualTo(4);
            assertThat(broken.get("message").asText()).contains("the message ends");

            assertThat(job.getJobStatus().get(30, TimeUnit.SECONDS))
                    .as("the job is still running (restart strategy 'none': never failed)")
                    .isEqualTo(JobStatus.RUNNING);
        } finally {
            job.cancel().get(60, TimeUnit.SECONDS);
        }
    }
}
