package dev.neardup.io;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.warc.WarcFiles;
import dev.neardup.io.warc.WarcReadSettings;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.Collector;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * Kafka message values that are WARC or ARC records: read with the WARC reader as files are
 * (documents, skips counted by reason, revisits, broken records as dead letters at {@code
 * topic-partition@offset}), per message by its first bytes with AUTO; JSON values as before.
 */
class KafkaDocumentDeserializerTest {

    private static final String TOPIC = "crawl";
    private static final Instant T1 = Instant.parse("2024-03-01T10:00:00Z");
    private static final Instant T2 = Instant.parse("2024-03-02T11:30:15Z");
    private static final String PAGE =
            "<html><head><title>A page</title></head><body><p>Some words about bread and"
                    + " ovens, enough of them to make a page.</p></body></html>";

    private final DocumentParser parser =
            new DocumentParser(
                    new InputFields("id", "content", "url", "contentType", "fetchedAt"), 8 << 20);
    private final Map<String, Counter> counters = new TreeMap<>();

    private static byte[] response(String url, Instant date, byte[] http, boolean gzip) {
        WarcFiles w = new WarcFiles(gzip);
        w.response(url, date, http);
        return w.bytes();
    }

    private static byte[] page(String url, Instant date) {
        return response(url, date, WarcFiles.http(200, PAGE, "Content-Type: text/html"), false);
    }

    private KafkaDocumentDeserializer deserializer(InputFormat.Kind kind) {
        KafkaDocumentDeserializer d =
                new KafkaDocumentDeserializer(parser, kind, WarcReadSettings.defaults());
        d.open(context());
        return d;
    }

    private static ConsumerRecord<byte[], byte[]> message(long offset, String key, byte[] value) {
        return new ConsumerRecord<>(
                TOPIC, 3, offset, key == null ? null : key.getBytes(UTF_8), value);
    }

    private static List<ParsedRecord> read(
            KafkaDocumentDeserializer d, ConsumerRecord<byte[], byte[]> record) throws Exception {
        List<ParsedRecord> out = new ArrayList<>();
        d.deserialize(
                record,
                new Collector<>() {
                    @Override
                    public void collect(ParsedRecord r) {
                        out.add(r);
                    }

                    @Override
                    public void close() {}
                });
        return out;
    }

    private Map<String, Long> skipped() {
        Map<String, Long> out = new TreeMap<>();
        counters.forEach((k, c) -> out.put(k, c.getCount()));
        return out;
    }

    @Test
    void aWarcResponseIsADocumentAtItsWarcDateWhateverTheKey() throws Exception {
        for (boolean gzip : new boolean[] {false, true}) {
            byte[] value =
                    response(
                            "https://example.org/a",
                            T1,
                            WarcFiles.http(200, PAGE, "Content-Type: text/html"),
                            gzip);
            if (gzip) {
                assertThat(value[0] & 0xff).as("one gzip member").isEqualTo(0x1f);
            }
            for (InputFormat.Kind kind : List.of(InputFormat.Kind.WARC, InputFormat.Kind.AUTO)) {
                List<ParsedRecord> out =
                        read(deserializer(kind), message(5, "some-other-key", value));

                assertThat(out).as("%s gzip=%s", kind, gzip).hasSize(1);
                Document d = out.get(0).document;
                assertThat(d).isNotNull();
                assertThat(d.id).isEqualTo("https://example.org/a");
                assertThat(d.url).isEqualTo("https://example.org/a");
                assertThat(d.content).isEqualTo(PAGE);
                assertThat(d.contentType).isEqualTo("text/html");
                assertThat(d.eventTime).as("the WARC-Date").isEqualTo(T1.toEpochMilli());
                assertThat(d.instance).isEqualTo("crawl-3@5");
            }
        }
    }

    @Test
    void recordsThatAreNoDocumentsAreSkippedAndCountedByReason() throws Exception {
        KafkaDocumentDeserializer d = deserializer(InputFormat.Kind.WARC);
        byte[] image =
                response(
                        "https://example.org/i.png",
                        T1,
                        WarcFiles.http(
                                200,
                                new byte[] {(byte) 0x89, 'P', 'N', 'G'},
                                "Content-Type: image/png"),
                        false);
        WarcFiles request = new WarcFiles(true);
        request.request("https://example.org/a", T1);
        WarcFiles revisit = new WarcFiles(false);
        revisit.add(
                new WarcRevisit.Builder(
                                "https://example.org/a", WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1)
                        .date(T2)
                        .refersTo(
                                URI.create("urn:uuid:aaaaaaaa-1234-1234-1234-123456789abc"),
                                "https://example.org/a",
                                T1)
                        .body(
                                MediaType.HTTP_RESPONSE,
                                WarcFiles.http(200, new byte[0], "Content-Type: text/html"))
                        .build());
        byte[] notFound =
                response(
                        "https://example.org/gone",
                        T1,
                        WarcFiles.http(404, PAGE, "Content-Type: text/html"),
                        false);

        assertThat(read(d, message(1, null, image))).isEmpty();
        assertThat(read(d, message(2, null, request.bytes()))).isEmpty();
        assertThat(read(d, message(3, null, revisit.bytes()))).isEmpty();
        assertThat(read(d, message(4, null, notFound))).isEmpty();
        assertThat(read(d, message(5, null, image))).isEmpty();

        assertThat(skipped())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "reason=NOT_TEXT", 2L,
                                "reason=REQUEST_RECORD", 1L,
                                "reason=IDENTICAL_REVISIT", 1L,
                                "reason=HTTP_STATUS", 1L));
    }

    @Test
    void aBrokenRecordIsADeadLetterAtTopicPartitionOffsetWithTheValue() throws Exception {
        byte[] whole = page("https://example.org/a", T1);
        byte[] cut = Arrays.copyOf(whole, whole.length - 40);
        byte[] gzipCut = WarcFiles.gzip(whole);
        gzipCut = Arrays.copyOf(gzipCut, gzipCut.length - 20);
        for (byte[] value : List.of(cut, gzipCut)) {
            List<ParsedRecord> out =
                    read(deserializer(InputFormat.Kind.WARC), message(7, null, value));

            assertThat(out).hasSize(1);
            DeadLetter dead = out.get(0).deadLetter;
            assertThat(dead).isNotNull();
            assertThat(dead.reason).isEqualTo("MALFORMED_RECORD");
            assertThat(dead.source).isEqualTo("crawl-3@7");
            assertThat(dead.sourceTopic).isEqualTo(TOPIC);
            assertThat(dead.sourcePartition).isEqualTo(3);
            assertThat(dead.sourceOffset).isEqualTo(7L);
            assertThat(dead.message).startsWith("TRUNCATED: ").contains("the message ends");
            assertThat(dead.payloadBytes).isEqualTo(value.length);
            assertThat(dead.payload).isNotEmpty();
        }
        // No record at all, with the format said: one dead letter.
        for (byte[] value :
                List.of(new byte[0], "{\"id\":\"x\",\"content\":\"y\"}".getBytes(UTF_8))) {
            List<ParsedRecord> out =
                    read(deserializer(InputFormat.Kind.WARC), message(8, null, value));
            assertThat(out).hasSize(1);
            assertThat(out.get(0).deadLetter.reason).isEqualTo("MALFORMED_RECORD");
            assertThat(out.get(0).deadLetter.source).isEqualTo("crawl-3@8");
        }
    }

    @Test
    void everyRecordOfAMessageIsReadEachWithItsOwnSource() throws Exception {
        for (boolean gzip : new boolean[] {false, true}) {
            WarcFiles w = new WarcFiles(gzip);
            w.request("https://example.org/a", T1);
            long a =
                    w.response(
                            "https://example.org/a",
                            T1,
                            WarcFiles.http(200, PAGE, "Content-Type: text/html"));
            long broken = w.raw("WARC/1.1\r\nWARC-Type: response\r\nthis is no header\r\n\r\n");
            long b =
                    w.response(
                            "https://example.org/b",
                            T2,
                            WarcFiles.http(200, PAGE + " b", "Content-Type: text/html"));

            List<ParsedRecord> out =
                    read(deserializer(InputFormat.Kind.AUTO), message(9, null, w.bytes()));

            assertThat(out).hasSize(3);
            assertThat(out.get(0).document.instance).isEqualTo("crawl-3@9+" + a);
            assertThat(out.get(1).deadLetter.source).isEqualTo("crawl-3@9+" + broken);
            assertThat(out.get(1).deadLetter.sourceOffset).isEqualTo(9L);
            assertThat(out.get(2).document.instance).isEqualTo("crawl-3@9+" + b);
            assertThat(out.get(2).document.eventTime).isEqualTo(T2.toEpochMilli());
        }
        assertThat(skipped()).containsEntry("reason=REQUEST_RECORD", 2L);
    }

    @Test
    void autoReadsAnArcRecordWithoutItsFileHeader() throws Exception {
        byte[] arc =
                WarcFiles.arcRecord(
                        "http://example.com/a",
                        "93.184.216.34",
                        "20240301100000",
                        "text/html",
                        WarcFiles.http(200, PAGE, "Content-Type: text/html"));
        for (byte[] value : List.of(arc, WarcFiles.gzip(arc))) {
            List<ParsedRecord> out =
                    read(deserializer(InputFormat.Kind.AUTO), message(1, null, value));
            assertThat(out).hasSize(1);
            assertThat(out.get(0).document).isNotNull();
            assertThat(out.get(0).document.id).isEqualTo("http://example.com/a");
            assertThat(out.get(0).document.eventTime).isEqualTo(T1.toEpochMilli());
        }
    }

    /** JSON values, tombstones and non-JSON bytes: AUTO reads them exactly as JSON_LINES does. */
    @Test
    void autoAndJsonLinesReadJsonValuesAlike() throws Exception {
        byte[] gzipJson = WarcFiles.gzip("{\"id\":\"g\",\"content\":\"words\"}".getBytes(UTF_8));
        List<byte[]> values =
                Arrays.asList(
                        "{\"id\":\"a\",\"content\":\"some words\",\"fetchedAt\":\"2024-03-01T10:00:00Z\"}"
                                .getBytes(UTF_8),
                        " {\"id\":\"b\",\"content\":\"more words\",\"fetchedAt\":1709287200000}"
                                .getBytes(UTF_8),
                        "not json".getBytes(UTF_8),
                        "true".getBytes(UTF_8),
                        "Warc? no".getBytes(UTF_8),
                        gzipJson,
                        new byte[0],
                        null);
        for (byte[] value : values) {
            ConsumerRecord<byte[], byte[]> record = message(11, "a", value);
            List<ParsedRecord> json = read(deserializer(InputFormat.Kind.JSON_LINES), record);
            List<ParsedRecord> auto = read(deserializer(InputFormat.Kind.AUTO), record);
            List<ParsedRecord> plain = read(new KafkaDocumentDeserializer(parser), record);
            assertThat(json).hasSize(1);
            // A tombstone without a time is a deletion at the time it is read: each read its own.
            assertThat(auto)
                    .usingRecursiveComparison()
                    .ignoringFields("deadLetter.detectedAt", "deletion.eventTime")
                    .isEqualTo(json);
            assertThat(plain)
                    .usingRecursiveComparison()
                    .ignoringFields("deadLetter.detectedAt", "deletion.eventTime")
                    .isEqualTo(json);
            if (json.get(0).deletion != null) {
                for (List<ParsedRecord> other : List.of(auto, plain)) {
                    assertThat(other.get(0).deletion.eventTime)
                            .isBetween(
                                    json.get(0).deletion.eventTime - 60_000,
                                    json.get(0).deletion.eventTime + 60_000);
                }
            }
        }
        // A WARC record is JSON's dead letter when JSON is said.
        List<ParsedRecord> out =
                read(
                        deserializer(InputFormat.Kind.JSON_LINES),
                        message(12, null, page("https://example.org/a", T1)));
        assertThat(out.get(0).deadLetter.reason).isEqualTo("MALFORMED_JSON");
    }

    @Test
    void aTombstoneIsADeletionWhateverTheFormat() throws Exception {
        for (InputFormat.Kind kind : InputFormat.Kind.values()) {
            List<ParsedRecord> out =
                    read(deserializer(kind), message(13, "https://example.org/a", null));
            assertThat(out).hasSize(1);
            assertThat(out.get(0).deletion).as("%s", kind).isNotNull();
            assertThat(out.get(0).deletion.id).isEqualTo("https://example.org/a");
        }
    }

    /** An initialization context whose metric group records the counters by group. */
    private DeserializationSchema.InitializationContext context() {
        MetricGroup group =
                new UnregisteredMetricsGroup() {
                    @Override
                    public MetricGroup addGroup(String key, String value) {
                        return new UnregisteredMetricsGroup() {
                            @Override
                            public Counter counter(String name) {
                                assertThat(name).isEqualTo(SourceCounters.SKIPPED);
                                return counters.computeIfAbsent(
                                        key + "=" + value, k -> new SimpleCounter());
                            }
                        };
                    }
                };
        return new DeserializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return group;
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(getClass().getClassLoader());
            }
        };
    }
}
