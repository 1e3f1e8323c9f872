package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.DeadLetter.Reason;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link FieldLimits} through {@link DocumentParser}: an id, url or contentType at its limit in
 * UTF-8 bytes is accepted, one byte over (and 1 MB) is a dead letter {@code TOO_LARGE} whose
 * message names the field, its size and the limit; an id over its limit is never copied into the
 * dead letter.
 */
class FieldLimitsTest {

    private static final InputFields FIELDS =
            new InputFields("id", "content", "url", "contentType", "fetchedAt");
    private static final int RECORD = 4 << 20;
    private static final int ID_LIMIT = 2048;
    private static final int URL_LIMIT = 4096;
    private static final long NOW = 1_650_000_000_000L;

    private final DocumentParser parser =
            new DocumentParser(
                    FIELDS,
                    new FieldLimits(RECORD, ID_LIMIT, URL_LIMIT),
                    Long.MAX_VALUE,
                    DocumentParser.FutureTimestamps.CLAMP);

    private DocumentParser.Result parse(Map<String, Object> fields) {
        byte[] json = Json.write(fields).getBytes(StandardCharsets.UTF_8);
        return parser.parse(new RawRecord(json, "limits.jsonl:1"), NOW, NOW);
    }

    /** A string of exactly {@code bytes} UTF-8 bytes: {@code unit} repeated, then ASCII. */
    private static String ofBytes(int bytes, String unit) {
        int unitBytes = unit.getBytes(StandardCharsets.UTF_8).length;
        String s = unit.repeat(bytes / unitBytes) + "x".repeat(bytes % unitBytes);
        assertThat(s.getBytes(StandardCharsets.UTF_8)).hasSize(bytes);
        return s;
    }

    private static DeadLetter tooLarge(DocumentParser.Result r) {
        assertThat(r.document()).isNull();
        assertThat(r.deadLetter()).isNotNull();
        assertThat(r.deadLetter().reason).isEqualTo(Reason.TOO_LARGE.name());
        return r.deadLetter();
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "\u00e9", "\u20ac", "\ud83d\ude00"})
    void anIdAtItsLimitInBytesIsAcceptedAndOneByteMoreIsTooLarge(String unit) {
        String atLimit = ofBytes(ID_LIMIT, unit);
        Document d = parse(Map.of("id", atLimit, "content", "some words")).document();
        assertThat(d).isNotNull();
        assertThat(d.id).isEqualTo(atLimit);

        String over = ofBytes(ID_LIMIT + 1, unit);
        DeadLetter dead = tooLarge(parse(Map.of("id", over, "content", "some words")));
        assertThat(dead.message)
                .isEqualTo(
                        "field 'id' is 2,049 bytes, more than its limit of 2,048 bytes"
                                + " (neardup.max-id-size)");
        assertThat(dead.docId).as("an id over its limit is not copied").isNull();
    }

    @Test
    void aOneMegabyteIdIsTooLargeAndItsDeadLetterIsSmall() {
        String id = "M1-" + "y".repeat(1 << 20);
        DeadLetter dead = tooLarge(parse(Map.of("id", id, "content", "some words")));
        assertThat(dead.message).startsWith("field 'id' is 1,048,579 bytes");
        assertThat(dead.docId).isNull();
        assertThat(dead.payloadTruncated).isTrue();
        assertThat(dead.payload.length()).isEqualTo(DocumentParser.DEAD_LETTER_PAYLOAD_LIMIT);
    }

    @Test
    void aDeletionIdIsLimitedToo() {
        DeadLetter dead =
                tooLarge(parse(Map.of("id", ofBytes(ID_LIMIT + 1, "a"), "deleted", true)));
        assertThat(dead.docId).isNull();
        assertThat(parse(Map.of("id", ofBytes(ID_LIMIT, "a"), "deleted", true)).deletion())
                .isNotNull();
    }

    @Test
    void aUrlAtItsLimitIsAcceptedAndOneByteMoreIsTooLargeWithItsId() {
        String atLimit = "https://example.org/" + ofBytes(URL_LIMIT - 20, "\u00e9");
        Document d = parse(Map.of("id", "p", "url", atLimit, "content", "some words")).document();
        assertThat(d).isNotNull();
        assertThat(d.url).isEqualTo(atLimit);

        DeadLetter dead =
                tooLarge(parse(Map.of("id", "p", "url", atLimit + "x", "content", "some words")));
        assertThat(dead.message)
                .isEqualTo(
                        "field 'url' is 4,097 bytes, more than its limit of 4,096 bytes"
                                + " (neardup.max-url-size)");
        assertThat(dead.docId).isEqualTo("p");
        DeadLetter megabyte =
                tooLarge(
                        parse(
                                Map.of(
                                        "id",
                                        "p",
                                        "url",
                                        "https://example.org/" + "z".repeat(1 << 20),
                                        "content",
                                        "some words")));
        assertThat(megabyte.message).startsWith("field 'url' is 1,048,596 bytes");
    }

    @Test
    void aContentTypeHasAFixedLimit() {
        String type = "text/html; x=" + "a".repeat(FieldLimits.CONTENT_TYPE_BYTES - 13);
        assertThat(
                        parse(Map.of("id", "p", "contentType", type, "content", "some words"))
                                .document())
                .isNotNull();
        DeadLetter dead =
                tooLarge(
                        parse(
                                Map.of(
                                        "id",
                                        "p",
                                        "contentType",
                                        type + "a",
                                        "content",
                                        "some words")));
        assertThat(dead.message)
                .isEqualTo(
                        "field 'contentType' is 1,025 bytes, more than its limit of 1,024 bytes");
    }

    @Test
    void renamedFieldsAreNamedInTheMessage() {
        DocumentParser renamed =
                new DocumentParser(
                        new InputFields("key", "body", "link", "mime", "at"),
                        new FieldLimits(RECORD, ID_LIMIT, URL_LIMIT),
                        Long.MAX_VALUE,
                        DocumentParser.FutureTimestamps.CLAMP);
        byte[] json =
                Json.write(Map.of("key", "k", "link", "u".repeat(URL_LIMIT + 1), "body", "words"))
                        .getBytes(StandardCharsets.UTF_8);
        DeadLetter dead = tooLarge(renamed.parse(new RawRecord(json, "s:1"), NOW, NOW));
        assertThat(dead.message).startsWith("field 'link' is 4,097 bytes");
    }

    @Test
    void aTombstoneKeyOverTheIdLimitIsTooLarge() {
        RawRecord r = new RawRecord(new byte[0], "documents-0@7");
        r.tombstone = true;
        r.timestamp = NOW - 1;
        r.key = ofBytes(ID_LIMIT + 1, "k").getBytes(StandardCharsets.UTF_8);
        DeadLetter dead = tooLarge(parser.parse(r, NOW, NOW));
        assertThat(dead.message)
                .contains("tombstone")
                .contains("its key is 2,049 bytes, more than its limit of 2,048 bytes");
        assertThat(dead.docId).isNull();
        r.key = ofBytes(ID_LIMIT, "k").getBytes(StandardCharsets.UTF_8);
        assertThat(parser.parse(r, NOW, NOW).deletion()).isNotNull();
    }

    @Test
    void theDefaultsHoldTheLongestUrlsThatServersAccept() {
        FieldLimits defaults = FieldLimits.ofRecord(RECORD);
        assertThat(defaults.idBytes()).isEqualTo(16 * 1024);
        assertThat(defaults.urlBytes()).isEqualTo(16 * 1024);
        // Apache httpd and nginx refuse request lines over 8 KB by default.
        assertThat(FieldLimits.overLimit("url", "u".repeat(8190), defaults.urlBytes(), null))
                .isNull();
    }

    @Test
    void encodedLengthCountsUtf8Bytes() {
        for (String s :
                new String[] {"", "abc", "\u00e9t\u00e9", "\u20ac", "\ud83d\ude00x", "a\ud800b"}) {
            // A lone surrogate (which UTF-8 cannot write) counts as 3 bytes, as Java writes '?'
            // for it in one byte: only the bound matters.
            long expected = s.contains("\ud800") ? 5 : s.getBytes(StandardCharsets.UTF_8).length;
            assertThat(Utf8.encodedLength(s)).as(s).isEqualTo(expected);
        }
    }
}
