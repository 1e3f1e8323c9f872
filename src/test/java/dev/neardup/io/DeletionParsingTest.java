package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.DeadLetter.Reason;
import dev.neardup.io.DocumentParser.FutureTimestamps;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Deletions in the input (issue 12, item 4): a JSON line {@code {"id": .., "deleted": true}} and a
 * Kafka tombstone (null value) keyed by the id are parsed into a {@link Deletion}; a deletion line
 * with other problems, and a tombstone without a usable key, are dead letters with a reason.
 */
class DeletionParsingTest {

    private static final InputFields FIELDS =
            new InputFields("id", "content", "url", "contentType", "fetchedAt");
    private static final int EIGHT_MB = 8 * 1024 * 1024;
    private static final long INGEST = 1_600_000_000_000L;
    private static final long NOW = 1_650_000_000_000L;
    private static final long HOUR = 3_600_000L;
    private static final String SOURCE = "feed.jsonl:12";

    private final DocumentParser parser = new DocumentParser(FIELDS, EIGHT_MB);

    private static RawRecord raw(String text) {
        return new RawRecord(text.getBytes(StandardCharsets.UTF_8), SOURCE);
    }

    /** A tombstone as the Kafka deserializer makes it: empty payload, the key, the timestamp. */
    private static RawRecord tombstone(byte[] key, long timestamp) {
        RawRecord r = new RawRecord(new byte[0], "documents-3@1042");
        r.topic = "documents";
        r.partition = 3;
        r.offset = 1042;
        r.timestamp = timestamp;
        r.tombstone = true;
        r.key = key;
        return r;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Deletion deletion(DocumentParser.Result r) {
        assertThat(r.deadLetter()).as("dead letter").isNull();
        assertThat(r.document()).as("document").isNull();
        assertThat(r.deletion()).as("deletion").isNotNull();
        return r.deletion();
    }

    private static DeadLetter deadLetter(DocumentParser.Result r, Reason reason) {
        assertThat(r.document()).isNull();
        assertThat(r.deletion()).isNull();
        DeadLetter d = r.deadLetter();
        assertThat(d).isNotNull();
        assertThat(d.reason).isEqualTo(reason.name());
        assertThat(d.message).isNotBlank();
        return d;
    }

    // ---- deletion lines (file mode, stdin, and JSON records on Kafka) ----

    @Test
    void aDeletionLineNeedsOnlyTheIdAndTakesTheIngestTime() {
        Deletion d = deletion(parser.parse(raw("{\"id\":\"A\",\"deleted\":true}"), INGEST, NOW));
        assertThat(d.id).isEqualTo("A");
        assertThat(d.eventTime).isEqualTo(INGEST);
        assertThat(d.instance).isEqualTo(SOURCE);
        assertThat(d.url).isNull();
    }

    @Test
    void aDeletionLineTakesItsTimeFromFetchedAtAndKeepsItsUrl() {
        Deletion d =
                deletion(
                        parser.parse(
                                raw(
                                        "{\"id\":\"A\",\"deleted\":true,\"url\":\"https://a.example/\","
                                            + "\"fetchedAt\":\"2026-03-02T10:00:00Z\","
                                            + "\"content\":\"ignored\"}"),
                                INGEST,
                                NOW));
        assertThat(d.eventTime).isEqualTo(Instant.parse("2026-03-02T10:00:00Z").toEpochMilli());
        assertThat(d.url).isEqualTo("https://a.example/");
    }

    @Test
    void anIntegerIdIsDeletedByItsText() {
        assertThat(deletion(parser.parse(raw("{\"id\":17,\"deleted\":true}"), INGEST, NOW)).id)
                .isEqualTo("17");
    }

    @Test
    void deletedFalseOrNullIsAnOrdinaryDocument() {
        Document d =
                parser.parse(
                                raw("{\"id\":\"A\",\"deleted\":false,\"content\":\"text\"}"),
                                INGEST,
                                NOW)
                        .document();
        assertThat(d).isNotNull();
        assertThat(d.content).isEqualTo("text");
        assertThat(
                        parser.parse(
                                        raw("{\"id\":\"A\",\"deleted\":null,\"content\":\"t\"}"),
                                        INGEST,
                                        NOW)
                                .document())
                .isNotNull();
        // ...which needs its content.
        DeadLetter noContent =
                deadLetter(
                        parser.parse(raw("{\"id\":\"A\",\"deleted\":false}"), INGEST, NOW),
                        Reason.MISSING_CONTENT);
        assertThat(noContent.docId).isEqualTo("A");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"true\"", "1", "{}", "[true]"})
    void aDeletedFlagThatIsNotABooleanIsABadField(String value) {
        DeadLetter d =
                deadLetter(
                        parser.parse(
                                raw("{\"id\":\"A\",\"content\":\"t\",\"deleted\":" + value + "}"),
                                INGEST,
                                NOW),
                        Reason.BAD_FIELD);
        assertThat(d.message).contains("'deleted'").contains("true or false");
        assertThat(d.docId).isEqualTo("A");
    }

    @Test
    void aDeletionLineWithOtherProblemsGetsTheUsualReasons() {
        deadLetter(
                parser.parse(raw("{\"id\":\" \",\"deleted\":true}"), INGEST, NOW),
                Reason.MISSING_ID);
        deadLetter(parser.parse(raw("{\"deleted\":true}"), INGEST, NOW), Reason.MISSING_ID);
        DeadLetter badTime =
                deadLetter(
                        parser.parse(
                                raw("{\"id\":\"A\",\"deleted\":true,\"fetchedAt\":\"yesterday\"}"),
                                INGEST,
                                NOW),
                        Reason.BAD_TIMESTAMP);
        assertThat(badTime.docId).isEqualTo("A");
        deadLetter(
                parser.parse(raw("{\"id\":\"A\",\"deleted\":true,\"url\":5}"), INGEST, NOW),
                Reason.BAD_FIELD);
        deadLetter(
                parser.parse(raw("{\"id\":\"A\",\"deleted\":true"), INGEST, NOW),
                Reason.MALFORMED_JSON);
        DocumentParser strict =
                new DocumentParser(FIELDS, EIGHT_MB, HOUR, FutureTimestamps.DEAD_LETTER);
        DeadLetter future =
                deadLetter(
                        strict.parse(
                                raw(
                                        "{\"id\":\"A\",\"deleted\":true,\"fetchedAt\":"
                                                + (NOW + 2 * HOUR)
                                                + "}"),
                                INGEST,
                                NOW),
                        Reason.FUTURE_TIMESTAMP);
        assertThat(future.message).contains("field 'fetchedAt'").contains("PT2H");
    }

    @Test
    void theDeletedFieldNameIsConfigurable() {
        DocumentParser custom =
                new DocumentParser(
                        new InputFields("id", "content", "url", "contentType", "fetchedAt", "gone"),
                        EIGHT_MB);
        assertThat(deletion(custom.parse(raw("{\"id\":\"A\",\"gone\":true}"), INGEST, NOW)).id)
                .isEqualTo("A");
        // The default name means nothing to it: a document without content.
        deadLetter(
                custom.parse(raw("{\"id\":\"A\",\"deleted\":true}"), INGEST, NOW),
                Reason.MISSING_CONTENT);
    }

    @Test
    void parseRecordWrapsADeletion() {
        ParsedRecord r = parser.parseRecord(raw("{\"id\":\"A\",\"deleted\":true}"), NOW);
        assertThat(r.document).isNull();
        assertThat(r.deadLetter).isNull();
        assertThat(r.deletion.id).isEqualTo("A");
        assertThat(r.eventTime()).isEqualTo(NOW);
    }

    // ---- Kafka tombstones ----

    /** What the job's Kafka source makes of a record. */
    private static List<ParsedRecord> fromKafka(byte[] key, byte[] value, long timestamp) {
        ConsumerRecord<byte[], byte[]> record =
                new ConsumerRecord<>(
                        "documents",
                        3,
                        1042L,
                        timestamp,
                        TimestampType.CREATE_TIME,
                        key == null ? -1 : key.length,
                        value == null ? -1 : value.length,
                        key,
                        value,
                        new RecordHeaders(),
                        Optional.empty());
        List<ParsedRecord> out = new ArrayList<>();
        new KafkaDocumentDeserializer(new DocumentParser(FIELDS, EIGHT_MB))
                .deserialize(
                        record,
                        new Collector<>() {
                            @Override
                            public void collect(ParsedRecord r) {
                                out.add(r);
                            }

                            @Override
                            public void close() {}
                        });
        assertThat(out).hasSize(1);
        return out;
    }

    @Test
    void aKafkaTombstoneDeletesTheDocumentItsKeyNamesAtTheRecordTimestamp() {
        long timestamp = System.currentTimeMillis() - 60_000;
        ParsedRecord r = fromKafka(utf8("news.example.org/a"), null, timestamp).get(0);
        assertThat(r.deadLetter).as("no dead letter").isNull();
        assertThat(r.document).isNull();
        assertThat(r.deletion).isNotNull();
        assertThat(r.deletion.id).isEqualTo("news.example.org/a");
        assertThat(r.deletion.eventTime).isEqualTo(timestamp);
        assertThat(r.deletion.instance).isEqualTo("documents-3@1042");
        assertThat(r.eventTime()).isEqualTo(timestamp);
    }

    @Test
    void anIntegerIdIsItsDecimalTextAsAKey() {
        // {"id": 42, ...} has the id "42": a tombstone keyed "42" (StringSerializer) deletes it.
        assertThat(parser.parse(raw("{\"id\":42,\"content\":\"c\"}"), INGEST, NOW).document().id)
                .isEqualTo("42");
        assertThat(deletion(parser.parse(tombstone(utf8("42"), NOW - 5), INGEST, NOW)).id)
                .isEqualTo("42");
    }

    @Test
    void aTombstoneWithoutAKeyIsADeadLetterThatSaysSo() {
        ParsedRecord r = fromKafka(null, null, System.currentTimeMillis()).get(0);
        assertThat(r.deletion).isNull();
        DeadLetter d = r.deadLetter;
        assertThat(d).isNotNull();
        assertThat(d.reason).isEqualTo(Reason.MISSING_ID.name());
        assertThat(d.message).contains("tombstone").contains("null value").contains("no key");
        assertThat(d.sourceTopic).isEqualTo("documents");
        assertThat(d.sourcePartition).isEqualTo(3);
        assertThat(d.sourceOffset).isEqualTo(1042L);
        assertThat(d.payloadBytes).isZero();
        assertThat(d.docId).isNull();
    }

    @Test
    void aTombstoneWhoseKeyIsNotTextIsADeadLetter() {
        byte[] serializedLong = ByteBuffer.allocate(8).putLong(42L).array();
        DeadLetter binary =
                deadLetter(
                        parser.parse(tombstone(serializedLong, NOW - 5), INGEST, NOW),
                        Reason.MISSING_ID);
        assertThat(binary.message).contains("control characters").contains("0x000000000000002a");
        DeadLetter notUtf8 =
                deadLetter(
                        parser.parse(
                                tombstone(new byte[] {(byte) 0xff, 'a'}, NOW - 5), INGEST, NOW),
                        Reason.MISSING_ID);
        assertThat(notUtf8.message).contains("not UTF-8").contains("0xff61");
        deadLetter(parser.parse(tombstone(utf8("  "), NOW - 5), INGEST, NOW), Reason.MISSING_ID);
        deadLetter(parser.parse(tombstone(new byte[0], NOW - 5), INGEST, NOW), Reason.MISSING_ID);
        // Blank as an id in a JSON record is blank as a key: no-break spaces are white space too.
        assertThat(
                        deadLetter(
                                        parser.parse(
                                                tombstone(utf8("\u00a0\u3000"), NOW - 5),
                                                INGEST,
                                                NOW),
                                        Reason.MISSING_ID)
                                .message)
                .contains("its key is blank");
        // Encoded surrogates (CESU-8) are not UTF-8: a key cannot hold a lone surrogate.
        assertThat(
                        deadLetter(
                                        parser.parse(
                                                tombstone(
                                                        new byte[] {
                                                            (byte) 0xed, (byte) 0xa0, (byte) 0x80
                                                        },
                                                        NOW - 5),
                                                INGEST,
                                                NOW),
                                        Reason.MISSING_ID)
                                .message)
                .contains("not UTF-8");
    }

    @Test
    void anEmptyValueIsNotATombstone() {
        ParsedRecord r = fromKafka(utf8("A"), new byte[0], System.currentTimeMillis()).get(0);
        assertThat(r.deletion).isNull();
        assertThat(r.deadLetter.reason).isEqualTo(Reason.MALFORMED_JSON.name());
        assertThat(r.deadLetter.message).isEqualTo("empty record");
    }

    @Test
    void aTombstoneFollowsTheClockSkewRule() {
        DocumentParser strict =
                new DocumentParser(FIELDS, EIGHT_MB, HOUR, FutureTimestamps.DEAD_LETTER);
        DeadLetter d =
                deadLetter(
                        strict.parse(tombstone(utf8("A"), NOW + 2 * HOUR), INGEST, NOW),
                        Reason.FUTURE_TIMESTAMP);
        assertThat(d.message).contains("Kafka record timestamp").contains("PT2H");
        assertThat(d.docId).isEqualTo("A");
        DocumentParser clamp = new DocumentParser(FIELDS, EIGHT_MB, HOUR, FutureTimestamps.CLAMP);
        assertThat(
                        deletion(clamp.parse(tombstone(utf8("A"), NOW + 2 * HOUR), INGEST, NOW))
                                .eventTime)
                .isEqualTo(NOW);
        // Without a record timestamp: the ingestion time.
        assertThat(deletion(parser.parse(tombstone(utf8("A"), -1), INGEST, NOW)).eventTime)
                .isEqualTo(INGEST);
    }
}
