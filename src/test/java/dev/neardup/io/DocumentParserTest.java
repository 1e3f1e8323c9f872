package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.DeadLetter.Reason;
import dev.neardup.io.DocumentParser.FutureTimestamps;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link DocumentParser}: the input contract of its Javadoc, one dead-letter reason at a time. */
class DocumentParserTest {

    private static final InputFields DEFAULT_FIELDS =
            new InputFields("id", "content", "url", "contentType", "fetchedAt");
    private static final int EIGHT_MB = 8 * 1024 * 1024;
    private static final long INGEST = 1_600_000_000_000L;
    private static final long NOW = 1_650_000_000_000L;
    private static final String SOURCE = "feed.jsonl:12";

    private final DocumentParser parser = new DocumentParser(DEFAULT_FIELDS, EIGHT_MB);

    private static RawRecord raw(String text) {
        return new RawRecord(text.getBytes(StandardCharsets.UTF_8), SOURCE);
    }

    private DocumentParser.Result parse(String text) {
        return parser.parse(raw(text), INGEST, NOW);
    }

    private Document valid(String text) {
        DocumentParser.Result r = parse(text);
        assertThat(r.deadLetter()).as("dead letter for %s", text).isNull();
        assertThat(r.document()).isNotNull();
        return r.document();
    }

    private DeadLetter rejected(RawRecord raw, Reason reason) {
        DocumentParser.Result r = parser.parse(raw, INGEST, NOW);
        assertThat(r.document()).isNull();
        DeadLetter d = r.deadLetter();
        assertThat(d).isNotNull();
        assertThat(d.reason).isEqualTo(reason.name());
        assertThat(d.source).isEqualTo(raw.source);
        assertThat(d.message).isNotBlank();
        assertThat(d.schemaVersion).isEqualTo(DeadLetter.SCHEMA_VERSION);
        assertThat(d.detectedAt).isEqualTo(Instant.ofEpochMilli(NOW).toString());
        assertThat(d.payloadBytes).isEqualTo(raw.size);
        return d;
    }

    private DeadLetter rejected(String text, Reason reason) {
        DeadLetter d = rejected(raw(text), reason);
        // A UTF-8 payload is kept as text, whole (these are all small).
        assertThat(d.payloadEncoding).isEqualTo("utf8");
        assertThat(d.payload).isEqualTo(text);
        assertThat(d.payloadTruncated).isFalse();
        return d;
    }

    // ---- valid documents ----

    @Test
    void aMinimalDocument() {
        Document d = valid("{\"id\":\"p1\",\"content\":\"Hello world\"}");
        assertThat(d.id).isEqualTo("p1");
        assertThat(d.content).isEqualTo("Hello world");
        assertThat(d.instance).isEqualTo(SOURCE);
        assertThat(d.url).isNull();
        assertThat(d.contentType).isNull();
        assertThat(d.eventTime).isEqualTo(INGEST);
    }

    @Test
    void allFieldsAndUnknownFieldsIgnored() {
        Document d =
                valid(
                        "{\"id\":\"p1\",\"url\":\"https://x.example/a\",\"contentType\":\"text/html\",\"content\":\"<p>Hi"
                            + " there</p>\",\"fetchedAt\":\"2024-03-01T10:00:00Z\","
                            + "\"extra\":{\"nested\":[1,2,3]}}");
        assertThat(d.url).isEqualTo("https://x.example/a");
        assertThat(d.contentType).isEqualTo("text/html");
        assertThat(d.content).isEqualTo("<p>Hi there</p>");
        assertThat(d.eventTime).isEqualTo(Instant.parse("2024-03-01T10:00:00Z").toEpochMilli());
    }

    @Test
    void aNumericIdIsAcceptedAsItsText() {
        assertThat(valid("{\"id\":12345,\"content\":\"x y\"}").id).isEqualTo("12345");
        assertThat(valid("{\"id\":-7,\"content\":\"x y\"}").id).isEqualTo("-7");
        assertThat(valid("{\"id\":123456789012345678901234567890,\"content\":\"x y\"}").id)
                .isEqualTo("123456789012345678901234567890");
    }

    @Test
    void nullOptionalFieldsAreAbsent() {
        Document d =
                valid(
                        "{\"id\":\"p\",\"content\":\"c\",\"url\":null,\"contentType\":null,\"fetchedAt\":null}");
        assertThat(d.url).isNull();
        assertThat(d.contentType).isNull();
        assertThat(d.eventTime).isEqualTo(INGEST);
    }

    @Test
    void fetchedAtAsAnIsoInstant() {
        assertThat(
                        valid(
                                        "{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":\"2024-05-06T07:08:09.123Z\"}")
                                .eventTime)
                .isEqualTo(Instant.parse("2024-05-06T07:08:09.123Z").toEpochMilli());
    }

    @Test
    void fetchedAtAsAnOffsetDateTime() {
        // 09:08:09 at +02:00 is 07:08:09 UTC.
        assertThat(
                        valid(
                                        "{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":\"2024-05-06T09:08:09+02:00\"}")
                                .eventTime)
                .isEqualTo(Instant.parse("2024-05-06T07:08:09Z").toEpochMilli());
    }

    @Test
    void fetchedAtAsEpochMillis() {
        assertThat(valid("{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":1714979289123}").eventTime)
                .isEqualTo(1_714_979_289_123L);
    }

    @Test
    void withoutFetchedAtTheRecordTimestampWinsOverTheIngestTime() {
        RawRecord r = raw("{\"id\":\"p\",\"content\":\"c\"}");
        r.timestamp = 1_234_567L;
        assertThat(parser.parse(r, INGEST, NOW).document().eventTime).isEqualTo(1_234_567L);

        RawRecord zero = raw("{\"id\":\"p\",\"content\":\"c\"}");
        zero.timestamp = 0;
        assertThat(parser.parse(zero, INGEST, NOW).document().eventTime).isZero();

        RawRecord none = raw("{\"id\":\"p\",\"content\":\"c\"}");
        none.timestamp = -1;
        assertThat(parser.parse(none, INGEST, NOW).document().eventTime).isEqualTo(INGEST);
    }

    @Test
    void fetchedAtWinsOverTheRecordTimestamp() {
        RawRecord r = raw("{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":1000000005000}");
        r.timestamp = 1_234_567L;
        assertThat(parser.parse(r, INGEST, NOW).document().eventTime).isEqualTo(1000000005000L);
    }

    @Test
    void configurableFieldNames() {
        DocumentParser custom =
                new DocumentParser(
                        new InputFields("docKey", "body", "link", "mime", "crawledAt"), EIGHT_MB);
        RawRecord r =
                raw(
                        "{\"docKey\":\"k1\",\"body\":\"text here\",\"link\":\"https://l.example\","
                                + "\"mime\":\"text/plain\",\"crawledAt\":\"2024-01-01T00:00:00Z\","
                                + "\"id\":\"ignored\",\"content\":\"ignored\",\"url\":42,"
                                + "\"fetchedAt\":\"yesterday\"}");
        Document d = custom.parse(r, INGEST, NOW).document();
        assertThat(d).isNotNull();
        assertThat(d.id).isEqualTo("k1");
        assertThat(d.content).isEqualTo("text here");
        assertThat(d.url).isEqualTo("https://l.example");
        assertThat(d.contentType).isEqualTo("text/plain");
        assertThat(d.eventTime).isEqualTo(Instant.parse("2024-01-01T00:00:00Z").toEpochMilli());

        // ...and the default names mean nothing to it.
        DocumentParser.Result missing =
                custom.parse(raw("{\"id\":\"p\",\"content\":\"c\"}"), INGEST, NOW);
        assertThat(missing.deadLetter().reason).isEqualTo(Reason.MISSING_ID.name());
        DocumentParser.Result noBody =
                custom.parse(raw("{\"docKey\":\"p\",\"content\":\"c\"}"), INGEST, NOW);
        assertThat(noBody.deadLetter().reason).isEqualTo(Reason.MISSING_CONTENT.name());
        assertThat(noBody.deadLetter().docId).isEqualTo("p");
    }

    @Test
    void dottedFieldNamesReachIntoNestedObjects() {
        DocumentParser nested =
                new DocumentParser(
                        new InputFields(
                                "warc.id",
                                "response.body",
                                "warc.target.uri",
                                "response.type",
                                "warc.date",
                                "op.deleted"),
                        EIGHT_MB);
        RawRecord r =
                raw(
                        "{\"warc\":{\"id\":\"k1\",\"date\":\"2024-01-01T00:00:00Z\","
                                + "\"target\":{\"uri\":\"https://l.example\",\"x\":[1,{}]}},"
                                + "\"response\":{\"status\":200,\"type\":\"text/plain\","
                                + "\"body\":\"text here\"},\"id\":\"ignored\","
                                + "\"body\":\"ignored\",\"other\":{\"body\":\"no\"}}");
        Document d = nested.parse(r, INGEST, NOW).document();
        assertThat(d).isNotNull();
        assertThat(d.id).isEqualTo("k1");
        assertThat(d.content).isEqualTo("text here");
        assertThat(d.url).isEqualTo("https://l.example");
        assertThat(d.contentType).isEqualTo("text/plain");
        assertThat(d.eventTime).isEqualTo(Instant.parse("2024-01-01T00:00:00Z").toEpochMilli());

        // A nested deletion flag; a path whose object is missing or not an object is absent.
        assertThat(
                        nested.parse(
                                        raw(
                                                "{\"warc\":{\"id\":\"k2\"},"
                                                        + "\"op\":{\"deleted\":true}}"),
                                        INGEST,
                                        NOW)
                                .deletion())
                .isNotNull();
        DocumentParser.Result notObject =
                nested.parse(raw("{\"warc\":\"k3\",\"response\":{\"body\":\"x y\"}}"), INGEST, NOW);
        assertThat(notObject.deadLetter().reason).isEqualTo(Reason.MISSING_ID.name());
        assertThat(notObject.deadLetter().message).contains("field 'warc.id'");
        // A repeated field inside a nested object is malformed, as at the top.
        assertThat(
                        nested.parse(
                                        raw(
                                                "{\"warc\":{\"id\":\"a\",\"id\":\"b\"},"
                                                        + "\"response\":{\"body\":\"x\"}}"),
                                        INGEST,
                                        NOW)
                                .deadLetter()
                                .reason)
                .isEqualTo(Reason.MALFORMED_JSON.name());
    }

    @Test
    void aDocumentOfExactlyTheLimitIsAccepted() {
        String head = "{\"id\":\"p\",\"content\":\"";
        String tail = "\"}";
        int limit = 1024;
        String json = head + "a".repeat(limit - head.length() - tail.length()) + tail;
        assertThat(json.getBytes(StandardCharsets.UTF_8)).hasSize(limit);
        DocumentParser small = new DocumentParser(DEFAULT_FIELDS, limit);
        assertThat(small.parse(raw(json), INGEST, NOW).document()).isNotNull();
        assertThat(small.parse(raw(json + " "), INGEST, NOW).deadLetter().reason)
                .isEqualTo(Reason.TOO_LARGE.name());
    }

    // ---- dead letters, one reason at a time ----

    @Test
    void malformedJson() {
        DeadLetter d = rejected("{\"id\":\"p\",\"content\":\"c\"", Reason.MALFORMED_JSON);
        assertThat(d.docId).isNull();
    }

    @Test
    void trailingGarbageAfterTheObjectIsMalformed() {
        rejected("{\"id\":\"p\",\"content\":\"c\"} trailing", Reason.MALFORMED_JSON);
        rejected(
                "{\"id\":\"p\",\"content\":\"c\"}{\"id\":\"q\",\"content\":\"d\"}",
                Reason.MALFORMED_JSON);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "\t"})
    void anEmptyPayloadIsMalformed(String text) {
        rejected(text, Reason.MALFORMED_JSON);
    }

    @Test
    void aJsonArrayIsNotAnObject() {
        rejected("[{\"id\":\"p\",\"content\":\"c\"}]", Reason.NOT_AN_OBJECT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"just a string\"", "42", "true", "null"})
    void otherJsonValuesAreNotObjects(String text) {
        rejected(text, Reason.NOT_AN_OBJECT);
    }

    @Test
    void missingId() {
        assertThat(rejected("{\"content\":\"c\"}", Reason.MISSING_ID).docId).isNull();
    }

    @Test
    void nullId() {
        rejected("{\"id\":null,\"content\":\"c\"}", Reason.MISSING_ID);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"\"", "\"   \"", "\"\\t\\n\""})
    void blankId(String id) {
        rejected("{\"id\":" + id + ",\"content\":\"c\"}", Reason.MISSING_ID);
    }

    /**
     * An id of the wrong type is there but unusable: INVALID_ID, naming the type, not MISSING_ID
     * (issue 12: it was reported as missing).
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "1.5|number",
                "1e3|number",
                "true|boolean",
                "{\"a\":1}|object",
                "[\"p\"]|array"
            })
    void anIdThatIsNeitherAStringNorAnIntegerIsInvalid(String id, String type) {
        DeadLetter d = rejected("{\"id\":" + id + ",\"content\":\"c\"}", Reason.INVALID_ID);
        assertThat(d.message)
                .isEqualTo("field 'id' must be a non-blank string or an integer, got " + type);
        assertThat(d.docId).isNull();
    }

    @Test
    void absentNullAndBlankIdsAreMissingNotInvalid() {
        for (String record :
                new String[] {
                    "{\"content\":\"c\"}",
                    "{\"id\":null,\"content\":\"c\"}",
                    "{\"id\":\" \",\"content\":\"c\"}"
                }) {
            assertThat(rejected(record, Reason.MISSING_ID).message)
                    .isEqualTo("field 'id' must be a non-blank string or an integer");
        }
    }

    @Test
    void theIdIsCheckedBeforeTheContent() {
        rejected("{\"id\":[1],\"content\":5}", Reason.INVALID_ID);
        rejected("{\"id\":null,\"content\":5}", Reason.MISSING_ID);
    }

    @Test
    void missingContentCarriesTheId() {
        assertThat(rejected("{\"id\":\"p9\"}", Reason.MISSING_CONTENT).docId).isEqualTo("p9");
    }

    @Test
    void nullContent() {
        assertThat(rejected("{\"id\":\"p9\",\"content\":null}", Reason.MISSING_CONTENT).docId)
                .isEqualTo("p9");
    }

    /** Likewise content of the wrong type: INVALID_CONTENT, naming the type. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "42|number",
                "1.5|number",
                "true|boolean",
                "[\"a\"]|array",
                "{\"text\":\"a\"}|object"
            })
    void contentThatIsNotAStringIsInvalid(String content, String type) {
        DeadLetter d = rejected("{\"id\":7,\"content\":" + content + "}", Reason.INVALID_CONTENT);
        assertThat(d.docId).isEqualTo("7");
        assertThat(d.message).isEqualTo("field 'content' must be a string, got " + type);
    }

    @Test
    void absentAndNullContentIsMissingNotInvalid() {
        assertThat(rejected("{\"id\":7}", Reason.MISSING_CONTENT).message)
                .isEqualTo("field 'content' must be a string");
        rejected("{\"id\":7,\"content\":null}", Reason.MISSING_CONTENT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "   \\t\\n\\r  "})
    void emptyOrWhitespaceOnlyContent(String content) {
        DeadLetter d =
                rejected("{\"id\":\"p\",\"content\":\"" + content + "\"}", Reason.EMPTY_CONTENT);
        assertThat(d.docId).isEqualTo("p");
    }

    @Test
    void aTwentyMegabyteDocumentIsTooLarge() {
        StringBuilder sb = new StringBuilder(20 * 1024 * 1024 + 64);
        sb.append("{\"id\":\"huge\",\"content\":\"");
        while (sb.length() < 20 * 1024 * 1024) {
            sb.append("lorem ipsum dolor sit amet ");
        }
        sb.append("\"}");
        byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
        RawRecord r = new RawRecord(bytes, SOURCE);

        DeadLetter d = rejected(r, Reason.TOO_LARGE);

        assertThat(d.payloadTruncated).isTrue();
        assertThat(d.payloadBytes).isEqualTo(bytes.length);
        assertThat(d.payloadEncoding).isEqualTo("utf8");
        assertThat(d.payload.getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(DocumentParser.DEAD_LETTER_PAYLOAD_LIMIT)
                .isLessThanOrEqualTo(64 * 1024);
        assertThat(sb.toString()).startsWith(d.payload);
        assertThat(d.payload).hasSizeGreaterThan(1000);
    }

    @Test
    void aTruncatedRecordIsTooLargeWhateverItsKeptBytes() {
        byte[] kept = "{\"id\":\"p\",\"content\":\"abc".getBytes(StandardCharsets.UTF_8);
        RawRecord r = new RawRecord(kept, SOURCE);
        r.truncated = true;
        r.size = 50_000_000L;

        DeadLetter d = rejected(r, Reason.TOO_LARGE);

        assertThat(d.payloadTruncated).isTrue();
        assertThat(d.payloadBytes).isEqualTo(50_000_000L);
        assertThat(d.payloadEncoding).isEqualTo("utf8");
        assertThat(d.payload).isEqualTo("{\"id\":\"p\",\"content\":\"abc");
    }

    @Test
    void invalidUtf8IsKeptAsBase64() {
        byte[] bytes = {'{', '"', 'i', 'd', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        RawRecord r = new RawRecord(bytes, SOURCE);

        DeadLetter d = rejected(r, Reason.INVALID_UTF8);

        assertThat(d.payloadEncoding).isEqualTo("base64");
        assertThat(Base64.getDecoder().decode(d.payload)).containsExactly(bytes);
        assertThat(d.payloadTruncated).isFalse();
        assertThat(d.payloadBytes).isEqualTo(bytes.length);
        assertThat(d.docId).isNull();
    }

    @Test
    void binaryGarbageIsInvalidUtf8() {
        byte[] bytes = new byte[256];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (255 - i);
        }
        DeadLetter d = rejected(new RawRecord(bytes, SOURCE), Reason.INVALID_UTF8);
        assertThat(d.payloadEncoding).isEqualTo("base64");
        assertThat(Base64.getDecoder().decode(d.payload)).containsExactly(bytes);
    }

    @Test
    void aLoneSurrogateEncodedInUtf8IsInvalid() {
        // CESU-style encoding of U+D800: not valid UTF-8.
        byte[] bytes = {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'};
        rejected(new RawRecord(bytes, SOURCE), Reason.INVALID_UTF8);
    }

    @Test
    void nonAsciiUtf8IsFine() {
        Document d =
                valid(
                        "{\"id\":\"\u00fc-1\",\"content\":\"Gr\u00fc\u00dfe, \u4e16\u754c"
                                + " \ud83c\udf0d\"}");
        assertThat(d.id).isEqualTo("\u00fc-1");
        assertThat(d.content).isEqualTo("Gr\u00fc\u00dfe, \u4e16\u754c \ud83c\udf0d");
    }

    @Test
    void aUtf8PayloadIsKeptAsText() {
        String text = "{\"id\":\"\u00fc\",\"content\":\"Gr\u00fc\u00dfe\",\"url\":1}";
        DeadLetter d = rejected(text, Reason.BAD_FIELD);
        assertThat(d.payload).isEqualTo(text);
        assertThat(d.payloadBytes).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
    }

    @Test
    void urlAsANumberIsABadField() {
        assertThat(rejected("{\"id\":\"p\",\"content\":\"c\",\"url\":12}", Reason.BAD_FIELD).docId)
                .isEqualTo("p");
    }

    @Test
    void contentTypeAsAnObjectIsABadField() {
        rejected("{\"id\":\"p\",\"content\":\"c\",\"contentType\":{\"a\":1}}", Reason.BAD_FIELD);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "\"yesterday\"",
                "\"2024-13-45T00:00:00Z\"",
                "\"2024-05-06T07:08:09\"",
                "true",
                "{\"t\":1}"
            })
    void anUnreadableFetchedAtIsABadTimestamp(String value) {
        DeadLetter d =
                rejected(
                        "{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":" + value + "}",
                        Reason.BAD_TIMESTAMP);
        assertThat(d.docId).isEqualTo("p");
    }

    @Test
    void everyReasonButNoTextIsProducedByTheParser() {
        // NO_TEXT is decided after tokenising (SignatureFunction), INTERNAL_ERROR when something
        // throws (parseRecord, SignatureFunction), MALFORMED_RECORD by the WARC reader
        // (WarcDocuments); every other reason is here.
        Map<Reason, RawRecord> examples = new EnumMap<>(Reason.class);
        examples.put(Reason.INVALID_UTF8, new RawRecord(new byte[] {(byte) 0xFF}, SOURCE));
        examples.put(Reason.MALFORMED_JSON, raw("{"));
        examples.put(Reason.NOT_AN_OBJECT, raw("[]"));
        examples.put(Reason.MISSING_ID, raw("{\"content\":\"c\"}"));
        examples.put(Reason.MISSING_CONTENT, raw("{\"id\":\"p\"}"));
        examples.put(Reason.INVALID_ID, raw("{\"id\":true,\"content\":\"c\"}"));
        examples.put(Reason.INVALID_CONTENT, raw("{\"id\":\"p\",\"content\":1}"));
        examples.put(Reason.EMPTY_CONTENT, raw("{\"id\":\"p\",\"content\":\" \"}"));
        byte[] big = new byte[EIGHT_MB + 1];
        Arrays.fill(big, (byte) ' ');
        examples.put(Reason.TOO_LARGE, new RawRecord(big, SOURCE));
        examples.put(
                Reason.BAD_TIMESTAMP, raw("{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":\"x\"}"));
        examples.put(Reason.BAD_FIELD, raw("{\"id\":\"p\",\"content\":\"c\",\"url\":false}"));
        // Only with a clock-skew limit and the DEAD_LETTER policy.
        examples.put(
                Reason.FUTURE_TIMESTAMP,
                raw("{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":" + (NOW + 2 * HOUR) + "}"));

        assertThat(EnumSet.complementOf(EnumSet.copyOf(examples.keySet())))
                .containsExactlyInAnyOrder(
                        Reason.NO_TEXT, Reason.INTERNAL_ERROR, Reason.MALFORMED_RECORD);
        DocumentParser strict = skewParser(HOUR, FutureTimestamps.DEAD_LETTER);
        examples.forEach(
                (reason, record) ->
                        assertThat(
                                        (reason == Reason.FUTURE_TIMESTAMP ? strict : parser)
                                                .parse(record, INGEST, NOW)
                                                .deadLetter()
                                                .reason)
                                .as("example for %s", reason)
                                .isEqualTo(reason.name()));
    }

    @Test
    void timesOutsideTheYearsIso8601CanWriteAreBadTimestamps() {
        assertThat(
                        parse(
                                        "{\"id\":\"a\",\"content\":\"x"
                                                + " y\",\"fetchedAt\":\"+12026-01-01T00:00:00Z\"}")
                                .deadLetter()
                                .reason)
                .isEqualTo("BAD_TIMESTAMP");
        assertThat(
                        parse(
                                        "{\"id\":\"a\",\"content\":\"x"
                                                + " y\",\"fetchedAt\":9223372036854775807}")
                                .deadLetter()
                                .reason)
                .isEqualTo("BAD_TIMESTAMP");
    }

    @Test
    void repeatedFieldsAreMalformed() {
        assertThat(parse("{\"id\":\"a\",\"id\":\"b\",\"content\":\"x\"}").deadLetter().reason)
                .isEqualTo("MALFORMED_JSON");
    }

    @Test
    void aLeadingByteOrderMarkIsSkipped() {
        DocumentParser.Result r = parse("\uFEFF{\"id\":\"a\",\"content\":\"x y\"}");
        assertThat(r.document()).isNotNull();
        assertThat(r.document().id).isEqualTo("a");
    }

    // ---- reading the record's bytes (issue 11): what the byte parser must still catch ----

    private static final String VALID = "{\"id\":\"a\",\"content\":\"x y\"}";

    private static byte[] withBytes(String before, int[] bytes, String after) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(before.getBytes(StandardCharsets.UTF_8));
        for (int b : bytes) {
            out.write(b);
        }
        out.writeBytes(after.getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** Ill-formed UTF-8 (Unicode Table 3-7): overlong, surrogate, above U+10FFFF, stray, cut. */
    private static final int[][] ILL_FORMED = {
        {0xC0, 0xAF},
        {0xE0, 0x80, 0xAF},
        {0xED, 0xA0, 0x80},
        {0xF4, 0x90, 0x80, 0x80},
        {0x80},
        {0xBF},
        {0xC3, 0x28},
        {0xE4, 0xB8},
        {0xF5, 0x80, 0x80, 0x80},
        {0xFF}
    };

    @Test
    void illFormedUtf8AnywhereIsInvalidUtf8() {
        String[][] places = {
            {"{\"id\":\"a\",\"content\":\"x ", "y\"}"}, // in the content
            {"{\"id\":\"a", "\",\"content\":\"x y\"}"}, // in the id
            {"{\"id\":\"a\",\"content\":\"x y\",\"k", "\":1}"}, // in an unknown key
            {"{\"id\":\"a\",\"content\":\"x y\",\"skipped\":\"", "\"}"}, // skipped value
            {"{\"id\":\"a\",\"content\":\"x y\",\"s\":{\"t\":[\"", "\"]}}"}, // deep in it
            {VALID + " ", ""}, // after the object
            {VALID, ""}, // at the very end (a truncated sequence)
            {"\uFEFF", VALID}, // after the byte order mark
            {"{\"id\":\"\u00e9\",\"content\":\"\u4e16 ", "\"}"}, // among valid non-ASCII
        };
        for (String[] place : places) {
            for (int[] bad : ILL_FORMED) {
                RawRecord r = new RawRecord(withBytes(place[0], bad, place[1]), SOURCE);
                assertThat(parser.parse(r, INGEST, NOW).deadLetter())
                        .as("%s", java.util.HexFormat.of().formatHex(r.payload))
                        .isNotNull()
                        .extracting(d -> d.reason)
                        .isEqualTo(Reason.INVALID_UTF8.name());
            }
        }
    }

    @Test
    void invalidUtf8WinsOverMalformedJson() {
        rejected(
                new RawRecord(withBytes("{\"id\":\"a", new int[] {0xC0, 0xAF}, ""), SOURCE),
                Reason.INVALID_UTF8);
        rejected(
                new RawRecord(withBytes("[1,,", new int[] {0xED, 0xA0, 0x80}, "}"), SOURCE),
                Reason.INVALID_UTF8);
    }

    @Test
    void anUnterminatedStringKeepsTheReadmesMessage() {
        assertThat(rejected("{\"id\":\"a\",\"content\":\"x y", Reason.MALFORMED_JSON).message)
                .isEqualTo(
                        "not valid JSON: Unexpected end-of-input: was expecting closing quote for a"
                                + " string value");
        assertThat(rejected("{\"id\":\"a\",\"skipped\":\"x y", Reason.MALFORMED_JSON).message)
                .endsWith("was expecting closing quote for a string value");
    }

    @Test
    void anUnexpectedNonAsciiCharacterIsNamedNotCalledInvalidUtf8() {
        DeadLetter d = rejected(VALID + " \u00e9", Reason.MALFORMED_JSON);
        assertThat(d.message).contains("'\u00e9'").doesNotContain("UTF-8");
        DeadLetter bom = rejected("\uFEFF\uFEFF" + VALID, Reason.MALFORMED_JSON);
        assertThat(bom.message).contains("code 65279").doesNotContain("UTF-8");
    }

    @Test
    void trailingContentMessages() {
        assertThat(rejected(VALID + "{}", Reason.MALFORMED_JSON).message)
                .contains("Trailing token (of type START_OBJECT)");
        assertThat(rejected(VALID + " x", Reason.MALFORMED_JSON).message)
                .contains("Unrecognized token 'x'");
        assertThat(valid(VALID + " \n\t\r ").id).isEqualTo("a");
        // Trailing content makes a non-object malformed, not NOT_AN_OBJECT.
        rejected("[] []", Reason.MALFORMED_JSON);
        rejected("\"s\" 1", Reason.MALFORMED_JSON);
    }

    @Test
    void repeatedUnknownFieldsAreMalformedToo() {
        // Jackson's strict duplicate detection covers every object, skipped values included.
        rejected("{\"id\":\"a\",\"content\":\"x\",\"u\":1,\"u\":1}", Reason.MALFORMED_JSON);
        assertThat(
                        rejected(
                                        "{\"id\":\"a\",\"content\":\"x\",\"u\":{\"v\":1,\"v\":2}}",
                                        Reason.MALFORMED_JSON)
                                .message)
                .contains("Duplicate field 'v'");
        // The same name in sibling objects is no repetition.
        valid("{\"id\":\"a\",\"content\":\"x\",\"u\":[{\"v\":1},{\"v\":2}]}");
    }

    @Test
    void theNestingLimitAppliesInsideSkippedValues() {
        // The record's object is level 1: 199 arrays inside it reach the limit of 200.
        String ok = "[".repeat(199) + "]".repeat(199);
        valid("{\"id\":\"a\",\"content\":\"x\",\"u\":" + ok + "}");
        assertThat(
                        rejected(
                                        "{\"id\":\"a\",\"content\":\"x\",\"u\":[" + ok + "]}",
                                        Reason.MALFORMED_JSON)
                                .message)
                .isEqualTo("not valid JSON: " + DocumentParser.NESTING_MESSAGE)
                .contains("200 levels");
        // The same at the top level, and in the field the job reads.
        rejected("[".repeat(201) + "]".repeat(201), Reason.MALFORMED_JSON);
        assertThat(
                        rejected(
                                        "{\"id\":\"a\",\"content\":\"x\",\"fetchedAt\":"
                                                + "[".repeat(200)
                                                + "]".repeat(200)
                                                + "}",
                                        Reason.MALFORMED_JSON)
                                .message)
                .endsWith(DocumentParser.NESTING_MESSAGE);
    }

    @Test
    void integerIdsAreTheirCanonicalText() {
        assertThat(valid("{\"id\":-0,\"content\":\"x y\"}").id).isEqualTo("0");
        assertThat(valid("{\"id\":-98765432109876543210,\"content\":\"x y\"}").id)
                .isEqualTo("-98765432109876543210");
        rejected("{\"id\":1e3,\"content\":\"x y\"}", Reason.INVALID_ID);
    }

    @Test
    void badTimestampMessagesShowTheValueAsJson() {
        assertThat(
                        rejected(
                                        "{\"id\":\"a\",\"content\":\"x\",\"fetchedAt\":99999999999999999999}",
                                        Reason.BAD_TIMESTAMP)
                                .message)
                .contains("got 99999999999999999999");
        assertThat(
                        rejected(
                                        "{\"id\":\"a\",\"content\":\"x\",\"fetchedAt\":\"a\\\"b\"}",
                                        Reason.BAD_TIMESTAMP)
                                .message)
                .endsWith("got \"a\\\"b\"");
        assertThat(
                        rejected(
                                        "{\"id\":\"a\",\"content\":\"x\",\"fetchedAt\":1e10}",
                                        Reason.BAD_TIMESTAMP)
                                .message)
                .endsWith("got 1.0E10");
        assertThat(
                        rejected(
                                        "{\"id\":\"a\",\"content\":\"x\",\"fetchedAt\":[1, {\"t\" :"
                                                + " null}]}",
                                        Reason.BAD_TIMESTAMP)
                                .message)
                .endsWith("got [1,{\"t\":null}]");
    }

    @Test
    void aLeadingZeroByteIsMalformedJsonNotAnotherEncoding() {
        // Jackson guesses UTF-16 or UTF-32 from zero bytes at the start; the input is UTF-8.
        for (String text :
                new String[] {"\u0000{}", "\u0000\u0000\u0000{", "{\u0000\u0000\u0000"}) {
            assertThat(rejected(text, Reason.MALFORMED_JSON).message).contains("code 0");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"UTF-16BE", "UTF-16LE", "UTF-32BE", "UTF-32LE"})
    void aRecordInAnotherEncodingIsMalformedNotGuessed(String encoding) {
        // Valid UTF-8 (zero bytes and ASCII), so not INVALID_UTF8, and not a document either.
        byte[] bytes = VALID.getBytes(java.nio.charset.Charset.forName(encoding));
        assertThat(rejected(new RawRecord(bytes, SOURCE), Reason.MALFORMED_JSON).message)
                .contains("code 0");
    }

    @Test
    void aByteOrderMarkAloneIsAnEmptyRecord() {
        assertThat(rejected("\uFEFF", Reason.MALFORMED_JSON).message).isEqualTo("empty record");
        assertThat(rejected("\uFEFF \n", Reason.MALFORMED_JSON).message).isEqualTo("empty record");
        assertThat(rejected("", Reason.MALFORMED_JSON).message).isEqualTo("empty record");
    }

    @Test
    void sameFieldNameConfiguredTwiceReadsTheSameValue() {
        DocumentParser same =
                new DocumentParser(
                        new InputFields("k", "k", "url", "contentType", "fetchedAt"), 1024);
        Document d = same.parse(raw("{\"k\":\"both\"}"), INGEST, NOW).document();
        assertThat(d.id).isEqualTo("both");
        assertThat(d.content).isEqualTo("both");
    }

    // ---- event times in the future (neardup.max-clock-skew) ----

    private static final long HOUR = 3_600_000L;

    private static DocumentParser skewParser(long maxSkew, FutureTimestamps policy) {
        return new DocumentParser(DEFAULT_FIELDS, EIGHT_MB, maxSkew, policy);
    }

    private static RawRecord fetchedAt(long eventTime) {
        return raw("{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":" + eventTime + "}");
    }

    private static RawRecord kafkaRecord(String json, long timestamp) {
        RawRecord r = raw(json);
        r.topic = "documents";
        r.partition = 3;
        r.offset = 1042;
        r.timestamp = timestamp;
        return r;
    }

    private static DeadLetter futureDeadLetter(DocumentParser p, RawRecord r) {
        DocumentParser.Result result = p.parse(r, INGEST, NOW);
        assertThat(result.document()).isNull();
        DeadLetter d = result.deadLetter();
        assertThat(d).isNotNull();
        assertThat(d.reason).isEqualTo(Reason.FUTURE_TIMESTAMP.name());
        assertThat(d.docId).isEqualTo("p");
        assertThat(d.source).isEqualTo(SOURCE);
        assertThat(d.detectedAt).isEqualTo(Instant.ofEpochMilli(NOW).toString());
        assertThat(d.payloadEncoding).isEqualTo("utf8");
        assertThat(d.payload).isEqualTo(new String(r.payload, StandardCharsets.UTF_8));
        assertThat(d.payloadBytes).isEqualTo(r.size);
        return d;
    }

    @Test
    void aFetchedAtTwoHoursAheadIsADeadLetterWithAnActionableMessage() {
        long eventTime = NOW + 2 * HOUR;
        DeadLetter d =
                futureDeadLetter(
                        skewParser(HOUR, FutureTimestamps.DEAD_LETTER), fetchedAt(eventTime));
        assertThat(d.message)
                .contains(Instant.ofEpochMilli(eventTime).toString()) // 2022-04-15T07:20:00Z
                .contains("2022-04-15T07:20:00Z")
                .contains("field 'fetchedAt'")
                .contains("PT2H") // how far ahead
                .contains("ahead")
                .contains("neardup.max-clock-skew")
                .contains("PT1H") // the limit
                .doesNotContain("Kafka");
    }

    @Test
    void anIsoFetchedAtAheadIsRejectedToo() {
        // NOW is 2022-04-15T05:20:00Z; 07:20:00.5 at +01:00 is 1 h 0.5 s ahead.
        DeadLetter d =
                futureDeadLetter(
                        skewParser(HOUR, FutureTimestamps.DEAD_LETTER),
                        raw(
                                "{\"id\":\"p\",\"content\":\"c\","
                                        + "\"fetchedAt\":\"2022-04-15T07:20:00.5+01:00\"}"));
        assertThat(d.message).contains("2022-04-15T06:20:00.500Z").contains("PT1H0.5S");
    }

    @Test
    void anEventTimeExactlyAtTheLimitIsAccepted() {
        DocumentParser p = skewParser(HOUR, FutureTimestamps.DEAD_LETTER);
        DocumentParser.Result atLimit = p.parse(fetchedAt(NOW + HOUR), INGEST, NOW);
        assertThat(atLimit.deadLetter()).isNull();
        assertThat(atLimit.document().eventTime).isEqualTo(NOW + HOUR);
        // One millisecond more is too far.
        DeadLetter d = futureDeadLetter(p, fetchedAt(NOW + HOUR + 1));
        assertThat(d.message).contains("PT1H0.001S");
        // The present and the past are always fine.
        assertThat(p.parse(fetchedAt(NOW), INGEST, NOW).document().eventTime).isEqualTo(NOW);
        assertThat(p.parse(fetchedAt(DocumentParser.MIN_FETCHED_AT), INGEST, NOW).document())
                .isNotNull();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "631151999999", // 1989-12-31T23:59:59.999Z
                "0",
                "-1",
                "\"1989-12-31T23:59:59Z\"",
                "\"1970-01-01T00:00:00Z\"",
                "\"+999999999-12-31T23:59:59Z\"", // was ArithmeticException: long overflow
                "\"-999999999-01-01T00:00:00Z\"",
                "\"+10000-01-01T00:00:00Z\"",
                "\"+999999999-12-31T23:59:59+18:00\"",
                "253402300800000", // 10000-01-01
                "9223372036854775807000",
                "-9223372036854775808",
                "-99999999999999999999999999999"
            })
    void aFetchedAtOutsideTheRangeIsABadTimestampThatNamesTheRange(String value) {
        for (FutureTimestamps policy : FutureTimestamps.values()) {
            DeadLetter d =
                    skewParser(HOUR, policy)
                            .parse(
                                    raw(
                                            "{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":"
                                                    + value
                                                    + "}"),
                                    INGEST,
                                    NOW)
                            .deadLetter();
            assertThat(d).as("%s with %s", value, policy).isNotNull();
            assertThat(d.reason).isEqualTo("BAD_TIMESTAMP");
            assertThat(d.docId).isEqualTo("p");
            assertThat(d.message)
                    .startsWith(
                            "field 'fetchedAt' must be a time from 1990-01-01T00:00:00Z to"
                                    + " 9999-12-31T23:59:59.999Z")
                    .contains("got " + value)
                    .doesNotContain("looks like");
        }
    }

    @Test
    void whatParsingThrowsIsADeadLetterInternalErrorNotAFailure() {
        // The test seam: a parser whose parse throws on one record, as a bug would.
        DocumentParser failing =
                new DocumentParser(DEFAULT_FIELDS, EIGHT_MB) {
                    @Override
                    public Result parse(RawRecord raw, long ingestTime, long now) {
                        if (new String(raw.payload, StandardCharsets.UTF_8).contains("boom")) {
                            throw new IllegalStateException("boom in the parser");
                        }
                        return super.parse(raw, ingestTime, now);
                    }
                };
        RawRecord boom = raw("{\"id\":\"b\",\"content\":\"boom\"}");
        ParsedRecord r = failing.parseRecord(boom, INGEST, NOW);
        assertThat(r.document).isNull();
        DeadLetter d = r.deadLetter;
        assertThat(d.reason).isEqualTo("INTERNAL_ERROR");
        assertThat(d.message)
                .isEqualTo("java.lang.IllegalStateException: boom in the parser (while parsing)");
        assertThat(d.source).isEqualTo(SOURCE);
        assertThat(d.payload).isEqualTo("{\"id\":\"b\",\"content\":\"boom\"}");
        assertThat(d.detectedAt).isEqualTo(Instant.ofEpochMilli(NOW).toString());
        // Other records are parsed as ever.
        assertThat(failing.parseRecord(raw(VALID), INGEST, NOW).document).isNotNull();
    }

    @Test
    void aNumberThatLooksLikeEpochSecondsSaysSo() {
        DeadLetter d =
                rejected(
                        "{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":1700000000}",
                        Reason.BAD_TIMESTAMP);
        assertThat(d.message)
                .isEqualTo(
                        "field 'fetchedAt' must be a time from 1990-01-01T00:00:00Z to"
                                + " 9999-12-31T23:59:59.999Z (and at most neardup.max-clock-skew"
                                + " ahead of now), got 1700000000: looks like epoch seconds;"
                                + " 'fetchedAt' takes epoch milliseconds or ISO-8601");
        assertThat(
                        rejected(
                                        "{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":1700000000000000}",
                                        Reason.BAD_TIMESTAMP)
                                .message)
                .contains("looks like epoch microseconds");
        assertThat(
                        rejected(
                                        "{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":1700000000000000000}",
                                        Reason.BAD_TIMESTAMP)
                                .message)
                .contains("looks like epoch nanoseconds");
        // The configured field name is the one named.
        DeadLetter custom =
                new DocumentParser(
                                new InputFields("id", "content", "url", "contentType", "ts"),
                                EIGHT_MB)
                        .parse(
                                raw("{\"id\":\"p\",\"content\":\"c\",\"ts\":1700000000}"),
                                INGEST,
                                NOW)
                        .deadLetter();
        assertThat(custom.message).startsWith("field 'ts'").contains("'ts' takes epoch");
        // Milliseconds in range are a document.
        assertThat(valid("{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":1700000000000}").eventTime)
                .isEqualTo(1_700_000_000_000L);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "\\u00a0", // no-break space
                "\\u2007\\u202f", // figure space, narrow no-break space
                "\\u3000", // ideographic space
                "\\u0085\\u2028",
                " \\t\\u00a0 "
            })
    void anIdOfOnlyUnicodeWhiteSpaceIsMissing(String escaped) {
        DeadLetter d =
                rejected("{\"id\":\"" + escaped + "\",\"content\":\"c\"}", Reason.MISSING_ID);
        assertThat(d.message).startsWith("field 'id' must be a non-blank string");
        assertThat(d.docId).isNull();
        // A deletion is checked the same way.
        rejected("{\"id\":\"" + escaped + "\",\"deleted\":true}", Reason.MISSING_ID);
    }

    @Test
    void anIdWithALoneSurrogateIsInvalidNotChanged() {
        DeadLetter d = rejected("{\"id\":\"\\ud800b\",\"content\":\"c\"}", Reason.INVALID_ID);
        assertThat(d.message)
                .isEqualTo(
                        "field 'id' must be valid Unicode, got a lone surrogate U+D800 at"
                                + " character 0");
        assertThat(d.docId).isNull();
        assertThat(rejected("{\"id\":\"a\\udc00\",\"content\":\"c\"}", Reason.INVALID_ID).message)
                .contains("U+DC00 at character 1");
        rejected("{\"id\":\"\\udbff\\udbff\\udfff\",\"deleted\":true}", Reason.INVALID_ID);
        // A surrogate pair is a character: kept.
        assertThat(valid("{\"id\":\"\\ud83d\\ude00b\",\"content\":\"c\"}").id)
                .isEqualTo("\uD83D\uDE00b");
        // Inner white space is part of an id.
        assertThat(valid("{\"id\":\"a\\u00a0b\",\"content\":\"c\"}").id).isEqualTo("a\u00a0b");
    }

    @Test
    void aZeroSkewAcceptsOnlyTheCurrentTimeAndBefore() {
        DocumentParser p = skewParser(0, FutureTimestamps.DEAD_LETTER);
        assertThat(p.parse(fetchedAt(NOW), INGEST, NOW).document().eventTime).isEqualTo(NOW);
        assertThat(futureDeadLetter(p, fetchedAt(NOW + 1)).message).contains("PT0.001S");
    }

    @Test
    void clampReplacesAFutureEventTimeWithNow() {
        DocumentParser p = skewParser(HOUR, FutureTimestamps.CLAMP);
        Document d = p.parse(fetchedAt(NOW + 2 * HOUR), INGEST, NOW).document();
        assertThat(d).isNotNull();
        assertThat(d.eventTime).isEqualTo(NOW);
        assertThat(d.id).isEqualTo("p");
        // Within the limit the event time is kept.
        assertThat(p.parse(fetchedAt(NOW + HOUR), INGEST, NOW).document().eventTime)
                .isEqualTo(NOW + HOUR);
        assertThat(p.parse(fetchedAt(NOW + HOUR + 1), INGEST, NOW).document().eventTime)
                .isEqualTo(NOW);
        // Far in the future, up to the last instant ISO-8601 can write.
        assertThat(p.parse(fetchedAt(253_402_300_799_999L), INGEST, NOW).document().eventTime)
                .isEqualTo(NOW);
    }

    @Test
    void aKafkaTimestampInTheFutureIsTreatedTheSameWay() {
        String json = "{\"id\":\"p\",\"content\":\"c\"}";
        long eventTime = NOW + 2 * HOUR;
        DeadLetter d =
                futureDeadLetter(
                        skewParser(HOUR, FutureTimestamps.DEAD_LETTER),
                        kafkaRecord(json, eventTime));
        assertThat(d.message)
                .contains(Instant.ofEpochMilli(eventTime).toString())
                .contains("Kafka record timestamp")
                .contains("PT2H")
                .contains("neardup.max-clock-skew")
                .doesNotContain("field 'fetchedAt'");
        assertThat(d.sourceTopic).isEqualTo("documents");
        assertThat(d.sourcePartition).isEqualTo(3);
        assertThat(d.sourceOffset).isEqualTo(1042L);

        // An explicit null fetchedAt also falls back to the Kafka timestamp.
        DeadLetter viaNull =
                futureDeadLetter(
                        skewParser(HOUR, FutureTimestamps.DEAD_LETTER),
                        kafkaRecord(
                                "{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":null}", eventTime));
        assertThat(viaNull.message).contains("Kafka record timestamp");

        // CLAMP: the document gets the current time.
        assertThat(
                        skewParser(HOUR, FutureTimestamps.CLAMP)
                                .parse(kafkaRecord(json, eventTime), INGEST, NOW)
                                .document()
                                .eventTime)
                .isEqualTo(NOW);
        // At the limit, the Kafka timestamp is kept.
        assertThat(
                        skewParser(HOUR, FutureTimestamps.DEAD_LETTER)
                                .parse(kafkaRecord(json, NOW + HOUR), INGEST, NOW)
                                .document()
                                .eventTime)
                .isEqualTo(NOW + HOUR);
    }

    @Test
    void aPresentFetchedAtWinsOverAFutureKafkaTimestamp() {
        RawRecord r =
                kafkaRecord(
                        "{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":" + (NOW - HOUR) + "}",
                        NOW + 10 * HOUR);
        Document d =
                skewParser(HOUR, FutureTimestamps.DEAD_LETTER).parse(r, INGEST, NOW).document();
        assertThat(d).isNotNull();
        assertThat(d.eventTime).isEqualTo(NOW - HOUR);
    }

    @Test
    void otherReasonsComeBeforeTheClockSkewCheck() {
        DocumentParser p = skewParser(HOUR, FutureTimestamps.DEAD_LETTER);
        RawRecord noContent = raw("{\"id\":\"p\",\"fetchedAt\":" + (NOW + 2 * HOUR) + "}");
        assertThat(p.parse(noContent, INGEST, NOW).deadLetter().reason)
                .isEqualTo(Reason.MISSING_CONTENT.name());
        RawRecord badTime = raw("{\"id\":\"p\",\"content\":\"c\",\"fetchedAt\":\"tomorrow\"}");
        assertThat(p.parse(badTime, INGEST, NOW).deadLetter().reason)
                .isEqualTo(Reason.BAD_TIMESTAMP.name());
    }

    @Test
    void theTwoArgumentConstructorNeverRejectsFutureTimes() {
        // The last instant ISO-8601 can write, and a Kafka timestamp just as far ahead.
        long far = 253_402_300_799_999L;
        DocumentParser.Result r = parser.parse(fetchedAt(far), INGEST, NOW);
        assertThat(r.deadLetter()).isNull();
        assertThat(r.document().eventTime).isEqualTo(far);
        Document fromKafka =
                parser.parse(kafkaRecord("{\"id\":\"p\",\"content\":\"c\"}", far), INGEST, NOW)
                        .document();
        assertThat(fromKafka).isNotNull();
        assertThat(fromKafka.eventTime).isEqualTo(far);
        assertThat(parser.parse(fetchedAt(NOW + 2 * HOUR), INGEST, NOW).document().eventTime)
                .isEqualTo(NOW + 2 * HOUR);
    }

    @Test
    void parseRecordUsesNowAsTheIngestTimeAndWrapsTheResult() {
        DocumentParser p = skewParser(HOUR, FutureTimestamps.DEAD_LETTER);
        ParsedRecord ok = p.parseRecord(raw("{\"id\":\"p\",\"content\":\"c\"}"), NOW);
        assertThat(ok.deadLetter).isNull();
        assertThat(ok.document.id).isEqualTo("p");
        assertThat(ok.document.eventTime).isEqualTo(NOW);
        assertThat(ok.eventTime()).isEqualTo(NOW);

        ParsedRecord timed = p.parseRecord(fetchedAt(NOW - 5), NOW);
        assertThat(timed.eventTime()).isEqualTo(NOW - 5);

        ParsedRecord future = p.parseRecord(fetchedAt(NOW + 2 * HOUR), NOW);
        assertThat(future.document).isNull();
        assertThat(future.deadLetter.reason).isEqualTo(Reason.FUTURE_TIMESTAMP.name());
        assertThat(future.deadLetter.detectedAt).isEqualTo(Instant.ofEpochMilli(NOW).toString());
        assertThat(future.eventTime()).isEqualTo(Long.MIN_VALUE);

        ParsedRecord clamped =
                skewParser(HOUR, FutureTimestamps.CLAMP)
                        .parseRecord(fetchedAt(NOW + 2 * HOUR), NOW);
        assertThat(clamped.document.eventTime).isEqualTo(NOW);

        ParsedRecord malformed = p.parseRecord(raw("{"), NOW);
        assertThat(malformed.document).isNull();
        assertThat(malformed.deadLetter.reason).isEqualTo(Reason.MALFORMED_JSON.name());
    }

    @Test
    void theParserWithAClockSkewLimitIsSerializable() throws Exception {
        // Flink ships it inside the source with Java serialisation.
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(skewParser(HOUR, FutureTimestamps.DEAD_LETTER));
        }
        DocumentParser copy;
        try (java.io.ObjectInputStream in =
                new java.io.ObjectInputStream(
                        new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (DocumentParser) in.readObject();
        }
        assertThat(copy.parse(fetchedAt(NOW + HOUR + 1), INGEST, NOW).deadLetter().reason)
                .isEqualTo(Reason.FUTURE_TIMESTAMP.name());
        assertThat(copy.parse(fetchedAt(NOW + HOUR), INGEST, NOW).document()).isNotNull();
    }
}
