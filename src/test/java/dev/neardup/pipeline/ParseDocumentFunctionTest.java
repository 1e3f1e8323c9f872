package dev.neardup.pipeline;

import static dev.neardup.pipeline.HarnessFixtures.sideValues;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.DeadLetter;
import dev.neardup.io.Document;
import dev.neardup.io.Json;
import dev.neardup.io.RawRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link ParseDocumentFunction} in Flink's harness: documents on, everything else aside. */
class ParseDocumentFunctionTest {

    private static final long NOW = 1_700_000_123_456L;

    private OneInputStreamOperatorTestHarness<RawRecord, Document> harness;

    private void open(Configuration conf) throws Exception {
        harness =
                ProcessFunctionTestHarnesses.forProcessFunction(
                        new ParseDocumentFunction(NearDupSettings.from(conf)));
        harness.setProcessingTime(NOW);
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private static RawRecord raw(String json, String source) {
        return new RawRecord(json.getBytes(StandardCharsets.UTF_8), source);
    }

    private List<DeadLetter> deadLetters() {
        return sideValues(harness, ParseDocumentFunction.DEAD_LETTERS);
    }

    @Test
    void aValidRecordBecomesADocument() throws Exception {
        open(new Configuration());
        harness.processElement(
                raw(
                        "{\"id\":\"p1\",\"url\":\"https://a.example/\",\"contentType\":\"text/plain\",\"content\":\"hello"
                            + " world\",\"fetchedAt\":\"2024-01-02T03:04:05Z\"}",
                        "feed.jsonl:1"),
                0L);

        List<Document> docs = harness.extractOutputValues();
        assertThat(docs).hasSize(1);
        Document d = docs.get(0);
        assertThat(d.id).isEqualTo("p1");
        assertThat(d.instance).isEqualTo("feed.jsonl:1");
        assertThat(d.url).isEqualTo("https://a.example/");
        assertThat(d.contentType).isEqualTo("text/plain");
        assertThat(d.content).isEqualTo("hello world");
        assertThat(d.eventTime)
                .isEqualTo(java.time.Instant.parse("2024-01-02T03:04:05Z").toEpochMilli());
        assertThat(deadLetters()).isEmpty();
    }

    @Test
    void withoutFetchedAtOrRecordTimestampTheProcessingTimeIsTheEventTime() throws Exception {
        open(new Configuration());
        harness.processElement(raw("{\"id\":\"p1\",\"content\":\"hello\"}", "f:1"), 0L);
        assertThat(harness.extractOutputValues())
                .singleElement()
                .satisfies(d -> assertThat(d.eventTime).isEqualTo(NOW));
    }

    @Test
    void anInvalidRecordGoesToTheDeadLettersAndTheNextValidOneStillPasses() throws Exception {
        open(new Configuration());
        harness.processElement(raw("{\"id\":\"p1\",\"content\":", "feed.jsonl:7"), 0L);
        harness.processElement(raw("{\"id\":\"p2\",\"content\":\"fine\"}", "feed.jsonl:8"), 0L);

        List<DeadLetter> dead = deadLetters();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).reason).isEqualTo(DeadLetter.Reason.MALFORMED_JSON.name());
        assertThat(dead.get(0).source).isEqualTo("feed.jsonl:7");
        assertThat(dead.get(0).payload).isEqualTo("{\"id\":\"p1\",\"content\":");
        assertThat(dead.get(0).payloadEncoding).isEqualTo("utf8");
        assertThat(dead.get(0).detectedAt).isEqualTo(Json.isoTime(NOW));
        assertThat(harness.extractOutputValues()).extracting(d -> d.id).containsExactly("p2");
    }

    @Test
    void theOptionsReachTheParser() throws Exception {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.FIELD_ID, "key");
        conf.set(NearDupOptions.FIELD_CONTENT, "body");
        conf.set(NearDupOptions.MAX_DOCUMENT_SIZE, MemorySize.parse("1kb"));
        open(conf);

        harness.processElement(raw("{\"key\":7,\"body\":\"text\"}", "f:1"), 0L);
        harness.processElement(raw("{\"id\":\"x\",\"content\":\"text\"}", "f:2"), 0L);
        harness.processElement(
                raw("{\"key\":\"big\",\"body\":\"" + "x".repeat(2000) + "\"}", "f:3"), 0L);

        assertThat(harness.extractOutputValues()).extracting(d -> d.id).containsExactly("7");
        assertThat(deadLetters())
                .extracting(d -> d.reason)
                .containsExactly(
                        DeadLetter.Reason.MISSING_ID.name(), DeadLetter.Reason.TOO_LARGE.name());
    }
}
