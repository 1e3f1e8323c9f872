package dev.neardup.io;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.neardup.io.DeadLetter.Reason;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Parses and validates one raw input record into a {@link Document} or a {@link Deletion}, or
 * explains why neither with a {@link DeadLetter}. Pure and thread-safe; the job's sources run it
 * ({@link DocumentLinesFormat}, {@link KafkaDocumentDeserializer}), so documents leave the source
 * with their event times.
 *
 * <p>Input contract (DESIGN.md): a UTF-8 JSON object with a string or integer {@code id} and a
 * string {@code content} (required, not blank), and optional string {@code url}, {@code
 * contentType}, and {@code fetchedAt} (ISO-8601 instant or offset date-time, or epoch milliseconds,
 * from 1990-01-01T00:00:00Z ({@link #MIN_FETCHED_AT}) to 9999-12-31T23:59:59.999Z, and at most the
 * allowed clock skew ahead of now). Field names are configurable. Unknown fields are ignored; a
 * repeated field makes the record malformed; a leading byte order mark is skipped.
 *
 * <p>Deletions. A record whose {@code deleted} field (configurable) is {@code true} deletes the
 * document {@code id} as of its event time: {@code content} is then not required (nor read), and
 * {@code url}, {@code contentType} and {@code fetchedAt} are checked as in a document; {@code
 * false} or null is a document as any other. A Kafka tombstone (a record with a null value, {@link
 * RawRecord#tombstone}) deletes the document named by its key, the id as UTF-8 text (as Kafka's
 * {@code StringSerializer} writes it; an integer id is its decimal digits, as the id of a JSON
 * document with an integer id reads), at the record's timestamp, under the same clock-skew rule; a
 * tombstone without a key, or with a key that is blank or not text (invalid UTF-8, control
 * characters: a binary-serialised number, say), is a dead letter {@code MISSING_ID}, and one with a
 * key over the id's limit a dead letter {@code TOO_LARGE}.
 *
 * <p>The checks, in this order (the first that fails names the dead letter's reason):
 *
 * <ol>
 *   <li>{@code TOO_LARGE}: the record is larger than its limit ({@link FieldLimits}; or was
 *       truncated).
 *   <li>{@code INVALID_UTF8}: the payload, all of it, is not well-formed UTF-8 ({@link Utf8}; pure
 *       ASCII is checked 8 bytes at a time), even if it is not JSON either.
 *   <li>{@code MALFORMED_JSON}: after an optional byte order mark, the payload is not exactly one
 *       JSON value with only white space around it ("empty record" if there is none), or a value
 *       nests deeper than {@link Json#MAX_NESTING_DEPTH} (200) levels of arrays and objects (the
 *       record's object is level 1; {@link #NESTING_MESSAGE}), or an object, at any depth, repeats
 *       a field name. Otherwise the message is Jackson's, as its {@code String}-based parser words
 *       it.
 *   <li>{@code NOT_AN_OBJECT}: the value is not an object ("expected a JSON object, got array").
 *   <li>{@code INVALID_ID} (an id of another type: object, array, boolean, a number with a fraction
 *       or an exponent), {@code MISSING_ID} (absent, null, or blank: empty or only Unicode white
 *       space, no-break spaces included, {@link #isBlankId}), {@code INVALID_ID} (a string that is
 *       not valid Unicode: a lone surrogate escape such as {@code "\ud800"}, which UTF-8 output
 *       cannot write), {@code TOO_LARGE} (an id over its limit, {@link FieldLimits}: the dead
 *       letter then has no id); {@code BAD_FIELD} when {@code deleted} is present and neither a
 *       boolean nor null; unless the record is a deletion, {@code INVALID_CONTENT} (content not a
 *       string), {@code MISSING_CONTENT} (absent or null) and {@code EMPTY_CONTENT}; {@code
 *       BAD_FIELD} or {@code TOO_LARGE} ({@code url}, then {@code contentType}), {@code
 *       BAD_TIMESTAMP} (fetchedAt not a time, or one outside the range above; the message says when
 *       a number looks like epoch seconds, microseconds or nanoseconds), {@code FUTURE_TIMESTAMP}.
 *       Only fetchedAt is range-checked: an event time from the source (a Kafka record timestamp,
 *       an input position, the ingest time) only against the clock skew.
 * </ol>
 *
 * <p>The job's sources call {@link #parseRecord(RawRecord, long, long)}, which turns anything that
 * {@link #parse} throws into a dead letter {@code INTERNAL_ERROR}, so that no record can fail the
 * job (not final, so that a test can check this). Design: docs/design/input-records.md.
 */
public class DocumentParser implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    /** What to do with an event time further in the future than the allowed clock skew. */
    public enum FutureTimestamps {
        /** Send the record to the dead letters ({@code FUTURE_TIMESTAMP}). */
        DEAD_LETTER,
        /** Use the current time instead. */
        CLAMP
    }

    /** Dead letters keep at most this many bytes of the original payload. */
    public static final int DEAD_LETTER_PAYLOAD_LIMIT = 64 * 1024;

    /** Indexes of the fields the job reads, in {@link #names()}. */
    private static final int ID = 0;

    private static final int CONTENT = 1;
    private static final int URL = 2;
    private static final int CONTENT_TYPE = 3;
    private static final int FETCHED_AT = 4;
    private static final int DELETED = 5;
    private static final int FIELDS = 6;

    /** Reads one JSON value as a tree (an odd fetchedAt), leaving what follows it to the caller. */
    private static final ObjectReader TREE_READER =
            Json.MAPPER.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final InputFields fields;
    private final FieldLimits limits;
    private final long maxClockSkewMillis;
    private final FutureTimestamps future;

    /**
     * The field paths {@link #eventTime} reads: the fetch time's alone (the others never match);
     * made on its first use.
     */
    private transient String[] timeNames;

    /**
     * @param fields names of the input fields
     * @param limits size limits of the record and of its fields
     * @param maxClockSkewMillis how far an event time may lie ahead of {@code now}
     * @param future what happens to a record whose event time lies further ahead
     */
    public DocumentParser(
            InputFields fields,
            FieldLimits limits,
            long maxClockSkewMillis,
            FutureTimestamps future) {
        this.fields = fields;
        this.limits = limits;
        this.maxClockSkewMillis = maxClockSkewMillis;
        this.future = future;
    }

    /** A parser of records of at most {@code maxBytes}, with the default field limits. */
    public DocumentParser(
            InputFields fields, int maxBytes, long maxClockSkewMillis, FutureTimestamps future) {
        this(fields, FieldLimits.ofRecord(maxBytes), maxClockSkewMillis, future);
    }

    /** A parser that accepts any event time (no clock-skew check). */
    public DocumentParser(InputFields fields, int maxBytes) {
        // eventTime - now never exceeds Long.MAX_VALUE (now is positive), so nothing is clamped.
        this(fields, maxBytes, Long.MAX_VALUE, FutureTimestamps.CLAMP);
    }

    /** The outcome: exactly one of {@link #document}, {@link #deadLetter} and {@link #deletion}. */
    public record Result(Document document, DeadLetter deadLetter, Deletion deletion) {

        /** A document or a dead letter. */
        public Result(Document document, DeadLetter deadLetter) {
            this(document, deadLetter, null);
        }
    }

    /**
     * @param ingestTime event time to use when neither fetchedAt nor a source timestamp exists
     * @param now processing time, for the dead letter's detectedAt
     */
    public Result parse(RawRecord raw, long ingestTime, long now) {
        try {
            return raw.tombstone ? tombstone(raw, ingestTime, now) : document(raw, ingestTime, now);
        } catch (Rejected r) {
            return new Result(null, deadLetter(raw, r.reason, r.getMessage(), r.docId, now));
        }
    }

    /**
     * The event time {@link #parse} would give the record, found by reading only the fetch-time
     * field (every other value is skipped, strings undecoded): what the input's order is measured
     * on. Long.MIN_VALUE where the record's size, JSON or time makes it a dead letter; a record
     * that fails another check (a missing id, invalid UTF-8 in a skipped value) still has its time,
     * which for the order is allowed (it may count records the job rejects, never fewer).
     *
     * @param ingestTime as for {@link #parse}
     * @param now as for {@link #parse}
     */
    public long eventTime(RawRecord raw, long ingestTime, long now) {
        if (raw.tombstone) {
            return raw.timestamp >= 0 ? raw.timestamp : ingestTime;
        }
        if (raw.truncated || raw.payload.length > limits.recordBytes()) {
            return Long.MIN_VALUE;
        }
        byte[] payload = raw.payload;
        int start = startsWithBom(payload) ? 3 : 0;
        Value[] values = new Value[FIELDS];
        try (JsonParser p = Json.UTF8_INPUT.createParser(payload, start, payload.length - start)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Long.MIN_VALUE;
            }
            readFields(p, timeNames(), values);
            requireEndOfInput(p);
        } catch (IOException e) {
            return Long.MIN_VALUE;
        }
        Value fetched = values[FETCHED_AT];
        try {
            long time =
                    present(fetched)
                            ? parseTime(fetched)
                            : raw.timestamp >= 0 ? raw.timestamp : ingestTime;
            return skewChecked(time, "", null, now);
        } catch (IllegalArgumentException | OutOfRange | Rejected e) {
            return Long.MIN_VALUE;
        }
    }

    private String[] timeNames() {
        if (timeNames == null) {
            String[] names = new String[FIELDS];
            java.util.Arrays.fill(names, "\u0000"); // no field's path: skipped
            names[FETCHED_AT] = fields.fetchedAt();
            timeNames = names;
        }
        return timeNames;
    }

    /** A record's dead letter, thrown by the checks: its reason, message and id (if read). */
    private static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;
        final Reason reason;
        final String docId;

        Rejected(Reason reason, String message, String docId) {
            super(message, null, false, false);
            this.reason = reason;
            this.docId = docId;
        }
    }

    private Result document(RawRecord raw, long ingestTime, long now) throws Rejected {
        if (raw.truncated || raw.payload.length > limits.recordBytes()) {
            throw new Rejected(
                    Reason.TOO_LARGE,
                    "record of "
                            + raw.size
                            + " bytes exceeds the limit of "
                            + limits.recordBytes()
                            + " bytes",
                    null);
        }
        byte[] payload = raw.payload;
        if (!Utf8.isValid(payload)) {
            throw new Rejected(Reason.INVALID_UTF8, "payload is not valid UTF-8", null);
        }
        // A UTF-8 byte order mark, as Windows tools write.
        int start = startsWithBom(payload) ? 3 : 0;
        String[] names = names();
        Value[] values = new Value[names.length];
        try (JsonParser p = Json.UTF8_INPUT.createParser(payload, start, payload.length - start)) {
            JsonToken root = p.nextToken();
            if (root == null) {
                throw new Rejected(Reason.MALFORMED_JSON, "empty record", null);
            }
            if (root != JsonToken.START_OBJECT) {
                p.skipChildren();
                requireEndOfInput(p);
                throw new Rejected(
                        Reason.NOT_AN_OBJECT,
                        "expected a JSON object, got " + typeName(root),
                        null);
            }
            readFields(p, names, values);
            requireEndOfInput(p);
        } catch (IOException e) {
            throw new Rejected(
                    Reason.MALFORMED_JSON,
                    "not valid JSON: " + malformedMessage(payload, start, e),
                    null);
        }
        return validate(raw, values, ingestTime, now);
    }

    /**
     * What the record holds for one of the fields the job reads.
     *
     * @param token the value's first token
     * @param text a string's text, or an integer's decimal digits; null otherwise
     * @param tree fetchedAt's value if it is neither, nor null (for the BAD_TIMESTAMP message)
     */
    private record Value(JsonToken token, String text, JsonNode tree) {}

    /**
     * Reads an object's fields (the parser is at its start), skipping unknown fields' values. A
     * name may be a dotted path ({@code response.body}): the field {@code body} of the object
     * {@code response}, at any depth (or a field whose own name is that path).
     */
    private static void readFields(JsonParser p, String[] names, Value[] values)
            throws IOException {
        readFields(p, names, values, "");
    }

    /** {@link #readFields} of an object at {@code prefix} ("" for the record, else "a.b."). */
    private static void readFields(JsonParser p, String[] names, Value[] values, String prefix)
            throws IOException {
        String name;
        while ((name = p.nextFieldName()) != null) {
            JsonToken token = p.nextToken();
            String path = prefix.isEmpty() ? name : prefix + name; // no copy at the top
            Value value = null;
            for (int k = 0; k < names.length; k++) {
                if (names[k].equals(path)) {
                    if (value == null) {
                        value = readValue(p, token, path.equals(names[FETCHED_AT]));
                    }
                    values[k] = value;
                }
            }
            if (value == null) {
                if (token == JsonToken.START_OBJECT && isPrefix(path + ".", names)) {
                    readFields(p, names, values, path + ".");
                } else {
                    p.skipChildren();
                }
            }
        }
    }

    /** Whether a name begins with {@code prefix}: a path into the object there. */
    private static boolean isPrefix(String prefix, String[] names) {
        for (String n : names) {
            if (n.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reads the value at {@code token}: strings and integers as text; other values are skipped, or
     * read as a tree if {@code keepTree}.
     */
    private static Value readValue(JsonParser p, JsonToken token, boolean keepTree)
            throws IOException {
        // An integer (Integer, Long or BigInteger) as the digits a JsonNode's asText() gave.
        return switch (token) {
            case VALUE_STRING -> new Value(token, p.getText(), null);
            case VALUE_NUMBER_INT -> new Value(token, p.getNumberValue().toString(), null);
            case VALUE_NULL -> new Value(token, null, null);
            default -> new Value(token, null, keepTree ? TREE_READER.readTree(p) : skip(p));
        };
    }

    private static JsonNode skip(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }

    /** Only white space may follow the record's value. */
    private static void requireEndOfInput(JsonParser p) throws IOException {
        JsonToken trailing = p.nextToken();
        if (trailing != null) {
            throw new JsonParseException(
                    p, "Trailing token (of type " + trailing + ") found after the record's value");
        }
    }

    /**
     * Jackson's description of what is wrong with a malformed record, worded by its {@code
     * String}-based parser (a second parse), else by the byte parser.
     */
    private static String malformedMessage(byte[] payload, int start, IOException streamingError) {
        if (streamingError instanceof StreamConstraintsException c
                && String.valueOf(c.getOriginalMessage()).startsWith("Document nesting depth")) {
            return NESTING_MESSAGE;
        }
        try {
            Json.MAPPER.readTree(
                    new String(payload, start, payload.length - start, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            return e.getOriginalMessage();
        } catch (RuntimeException e) {
            // fall back to the byte parser's message
        }
        return streamingError instanceof JsonProcessingException j
                ? j.getOriginalMessage()
                : String.valueOf(streamingError);
    }

    /** The MALFORMED_JSON message of a record nested too deeply. */
    public static final String NESTING_MESSAGE =
            "arrays and objects nested more than "
                    + Json.MAX_NESTING_DEPTH
                    + " levels deep (the record's object is level 1), neardup's limit for input"
                    + " records";

    private static boolean startsWithBom(byte[] b) {
        return b.length >= 3 && b[0] == (byte) 0xEF && b[1] == (byte) 0xBB && b[2] == (byte) 0xBF;
    }

    /** The JSON type of a value by its first token, as dead-letter messages name it. */
    private static String typeName(JsonToken token) {
        return switch (token) {
            case START_OBJECT -> "object";
            case START_ARRAY -> "array";
            case VALUE_STRING -> "string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
            case VALUE_TRUE, VALUE_FALSE -> "boolean";
            case VALUE_NULL -> "null";
            default -> token.name().toLowerCase();
        };
    }

    private static boolean present(Value v) {
        return v != null && v.token() != JsonToken.VALUE_NULL;
    }

    private String[] names() {
        return new String[] {
            fields.id(),
            fields.content(),
            fields.url(),
            fields.contentType(),
            fields.fetchedAt(),
            fields.deleted()
        };
    }

    /** The field checks, in the contract's order, on a syntactically valid record. */
    private Result validate(RawRecord raw, Value[] values, long ingestTime, long now)
            throws Rejected {
        Value idValue = values[ID];
        String idRule = "field '" + fields.id() + "' must be a non-blank string or an integer";
        if (present(idValue) && idValue.text() == null) {
            throw new Rejected(
                    Reason.INVALID_ID, idRule + ", got " + typeName(idValue.token()), null);
        }
        String id = idValue == null ? null : idValue.text();
        if (id == null || isBlankId(id)) {
            throw new Rejected(
                    Reason.MISSING_ID,
                    id == null || id.isBlank() ? idRule : idRule + ", got only white space",
                    null);
        }
        int surrogate = loneSurrogate(id);
        if (surrogate >= 0) {
            throw new Rejected(
                    Reason.INVALID_ID,
                    String.format(
                            "field '%s' must be valid Unicode, got a lone surrogate U+%04X at"
                                    + " character %s",
                            fields.id(), (int) id.charAt(surrogate), surrogate),
                    null);
        }
        requireWithin(fields.id(), id, limits.idBytes(), ID_SETTING, null);
        Value deletedValue = values[DELETED];
        boolean deletion = present(deletedValue) && deletedValue.token() == JsonToken.VALUE_TRUE;
        if (present(deletedValue) && !deletion && deletedValue.token() != JsonToken.VALUE_FALSE) {
            throw new Rejected(
                    Reason.BAD_FIELD,
                    "field '"
                            + fields.deleted()
                            + "' must be true or false, got "
                            + typeName(deletedValue.token()),
                    id);
        }
        String content = null;
        if (!deletion) {
            Value contentValue = values[CONTENT];
            String contentRule = "field '" + fields.content() + "' must be a string";
            if (present(contentValue) && contentValue.token() != JsonToken.VALUE_STRING) {
                throw new Rejected(
                        Reason.INVALID_CONTENT,
                        contentRule + ", got " + typeName(contentValue.token()),
                        id);
            }
            if (contentValue == null || contentValue.token() != JsonToken.VALUE_STRING) {
                throw new Rejected(Reason.MISSING_CONTENT, contentRule, id);
            }
            content = contentValue.text();
            if (content.isBlank()) {
                throw new Rejected(
                        Reason.EMPTY_CONTENT, "field '" + fields.content() + "' is empty", id);
            }
        }
        String url = optionalText(values[URL], fields.url(), id);
        requireWithin(fields.url(), url, limits.urlBytes(), URL_SETTING, id);
        String contentType = optionalText(values[CONTENT_TYPE], fields.contentType(), id);
        requireWithin(fields.contentType(), contentType, FieldLimits.CONTENT_TYPE_BYTES, null, id);
        long eventTime;
        Value fetched = values[FETCHED_AT];
        String fetchedAt = "field '" + fields.fetchedAt() + "'";
        if (!present(fetched)) {
            eventTime = raw.timestamp >= 0 ? raw.timestamp : ingestTime;
        } else {
            try {
                eventTime = parseTime(fetched);
            } catch (IllegalArgumentException e) {
                throw new Rejected(
                        Reason.BAD_TIMESTAMP,
                        fetchedAt
                                + " must be an ISO-8601 instant or epoch milliseconds, got "
                                + abbreviate(asJson(fetched)),
                        id);
            } catch (OutOfRange e) {
                throw new Rejected(
                        Reason.BAD_TIMESTAMP,
                        fetchedAt
                                + TIME_RANGE
                                + " (and at most neardup.max-clock-skew ahead of now), got "
                                + abbreviate(asJson(fetched))
                                + (e.looksLike == null
                                        ? ""
                                        : ": looks like epoch "
                                                + e.looksLike
                                                + "; '"
                                                + fields.fetchedAt()
                                                + "' takes epoch milliseconds or ISO-8601"),
                        id);
            }
        }
        String source = present(fetched) ? fetchedAt : "the Kafka record timestamp";
        eventTime = skewChecked(eventTime, source, id, now);
        if (deletion) {
            return new Result(null, null, new Deletion(id, raw.source, url, eventTime));
        }
        return new Result(new Document(id, raw.source, url, content, contentType, eventTime), null);
    }

    /**
     * A document whose fields another input format read (a WARC record, {@link WarcDocuments}),
     * checked as a JSON record's fields are, from {@code MISSING_ID} on: the id not blank and
     * within its limit, the content not blank, the url and contentType within theirs, the fetch
     * time in range and within the clock skew. {@code raw} names the record (its source, and the
     * payload that dead letters keep). Anything the checks throw is the record's dead letter {@code
     * INTERNAL_ERROR}, as in {@link #parseRecord}.
     */
    public ParsedRecord validated(
            RawRecord raw,
            String id,
            String url,
            String content,
            String contentType,
            long fetchedAt,
            String timeField,
            long now) {
        try {
            if (id == null || isBlankId(id)) {
                throw new Rejected(Reason.MISSING_ID, "the record has no id", null);
            }
            requireWithin("id", id, limits.idBytes(), ID_SETTING, null);
            if (content == null || content.isBlank()) {
                throw new Rejected(Reason.EMPTY_CONTENT, "the record's content is empty", id);
            }
            requireWithin("url", url, limits.urlBytes(), URL_SETTING, id);
            requireWithin("contentType", contentType, FieldLimits.CONTENT_TYPE_BYTES, null, id);
            if (fetchedAt < MIN_FETCHED_AT || fetchedAt > MAX_TIME) {
                throw new Rejected(
                        Reason.BAD_TIMESTAMP,
                        timeField + TIME_RANGE + ", got " + Instant.ofEpochMilli(fetchedAt),
                        id);
            }
            long eventTime = skewChecked(fetchedAt, timeField, id, now);
            return new ParsedRecord(
                    new Document(id, raw.source, url, content, contentType, eventTime), null);
        } catch (Rejected r) {
            return new ParsedRecord(null, deadLetter(raw, r.reason, r.getMessage(), r.docId, now));
        } catch (RuntimeException e) {
            return new ParsedRecord(null, DeadLetter.internalError(raw, null, e, "reading", now));
        }
    }

    /**
     * The event time, or now when it is further ahead than the allowed clock skew and {@link
     * FutureTimestamps#CLAMP}; else a dead letter {@code FUTURE_TIMESTAMP}: the event time, from
     * {@code what}, is too far ahead.
     */
    private long skewChecked(long eventTime, String what, String id, long now) throws Rejected {
        if (eventTime - now <= maxClockSkewMillis) {
            return eventTime;
        }
        if (future != FutureTimestamps.DEAD_LETTER) {
            return now;
        }
        throw new Rejected(
                Reason.FUTURE_TIMESTAMP,
                String.format(
                        "event time %s (%s) is %s ahead of this machine's clock, more than"
                                + " neardup.max-clock-skew (%s) allows",
                        Json.isoTime(eventTime),
                        what,
                        java.time.Duration.ofMillis(eventTime - now),
                        java.time.Duration.ofMillis(maxClockSkewMillis)),
                id);
    }

    /**
     * A Kafka tombstone: the deletion of the document its key names, at the record's timestamp
     * (else {@code ingestTime}), or a dead letter {@code MISSING_ID} when the key cannot be an id.
     */
    private Result tombstone(RawRecord raw, long ingestTime, long now) throws Rejected {
        byte[] key = raw.key;
        if (key == null) {
            throw badTombstone("this record has no key");
        }
        if (!Utf8.isValid(key)) {
            throw badTombstone("its key is not UTF-8 text (" + hex(key) + ")");
        }
        String id = new String(key, StandardCharsets.UTF_8);
        if (isBlankId(id)) {
            throw badTombstone("its key is blank");
        }
        if (id.chars().anyMatch(Character::isISOControl)) {
            throw badTombstone(
                    "its key holds control characters ("
                            + hex(key)
                            + "), as a binary-serialised number does");
        }
        String tooLarge = FieldLimits.overLimit("id", id, limits.idBytes(), ID_SETTING);
        if (tooLarge != null) {
            throw new Rejected(
                    Reason.TOO_LARGE,
                    "a tombstone (a record with a null value) deletes the document whose id is its"
                            + " key, but "
                            + tooLarge.replaceFirst("^field 'id'", "its key"),
                    null);
        }
        long eventTime = raw.timestamp >= 0 ? raw.timestamp : ingestTime;
        eventTime = skewChecked(eventTime, "the Kafka record timestamp", id, now);
        return new Result(null, null, new Deletion(id, raw.source, null, eventTime));
    }

    private static Rejected badTombstone(String problem) {
        return new Rejected(
                Reason.MISSING_ID,
                "a tombstone (a record with a null value) deletes the document whose id is its key,"
                        + " as UTF-8 text, but "
                        + problem,
                null);
    }

    /** The first bytes of {@code b} in hexadecimal, for a message. */
    private static String hex(byte[] b) {
        String hex = "0x" + HexFormat.of().formatHex(b, 0, Math.min(b.length, 16));
        return b.length > 16 ? hex + "... (" + b.length + " bytes)" : hex;
    }

    /** {@link #parseRecord(RawRecord, long, long)} with {@code now} as the ingest time. */
    public ParsedRecord parseRecord(RawRecord raw, long now) {
        return parseRecord(raw, now, now);
    }

    /**
     * Parses {@code raw} into a {@link ParsedRecord} (the form the job's sources emit), as {@link
     * #parse} does; if that throws, the record is a dead letter {@code INTERNAL_ERROR} with the
     * exception's class and message (and the stack trace in the log), and the job goes on.
     */
    public ParsedRecord parseRecord(RawRecord raw, long ingestTime, long now) {
        Result r;
        try {
            r = parse(raw, ingestTime, now);
        } catch (RuntimeException | StackOverflowError e) {
            org.slf4j.LoggerFactory.getLogger(DocumentParser.class)
                    .warn("parsing the record at {} failed; it is a dead letter", raw.source, e);
            return new ParsedRecord(null, DeadLetter.internalError(raw, null, e, "parsing", now));
        }
        return new ParsedRecord(r.document(), r.deadLetter(), r.deletion());
    }

    /** The setting that limits ids, as dead letters name it. */
    public static final String ID_SETTING = "neardup.max-id-size";

    /** The setting that limits urls, as dead letters name it. */
    public static final String URL_SETTING = "neardup.max-url-size";

    /**
     * A dead letter {@code TOO_LARGE} unless {@code value} of {@code field} is at most {@code
     * limit} UTF-8 bytes; its id is {@code id} (null when the id itself is too large).
     */
    private static void requireWithin(
            String field, String value, int limit, String setting, String id) throws Rejected {
        String tooLarge = FieldLimits.overLimit(field, value, limit, setting);
        if (tooLarge != null) {
            throw new Rejected(Reason.TOO_LARGE, tooLarge, id);
        }
    }

    private static String optionalText(Value value, String field, String id) throws Rejected {
        if (!present(value)) {
            return null;
        }
        if (value.token() != JsonToken.VALUE_STRING) {
            throw new Rejected(
                    Reason.BAD_FIELD,
                    "field '" + field + "' must be a string, got " + typeName(value.token()),
                    id);
        }
        return value.text();
    }

    /**
     * The earliest fetchedAt accepted, 1990-01-01T00:00:00Z: no crawl is older, and an earlier time
     * is almost always a unit mistake (epoch seconds read as milliseconds lands in 1970).
     */
    public static final long MIN_FETCHED_AT = 631_152_000_000L;

    /** 9999-12-31T23:59:59.999Z: the last instant ISO-8601 output can express. */
    public static final long MAX_TIME = 253_402_300_799_999L;

    /** What a BAD_TIMESTAMP message says of a fetch time out of range, after the field's name. */
    private static final String TIME_RANGE =
            " must be a time from "
                    + Json.isoTime(MIN_FETCHED_AT)
                    + " to "
                    + Json.isoTime(MAX_TIME);

    /**
     * A fetchedAt that is a time, but outside {@link #MIN_FETCHED_AT} to {@link #MAX_TIME}; {@code
     * looksLike} names the unit ("seconds"...) when the number would be in range in that unit.
     */
    private static final class OutOfRange extends Exception {
        private static final long serialVersionUID = 1L;
        final String looksLike;

        OutOfRange(String looksLike) {
            super(null, null, false, false);
            this.looksLike = looksLike;
        }
    }

    /**
     * fetchedAt in epoch milliseconds; {@link IllegalArgumentException} when it is not a time at
     * all, {@link OutOfRange} when it is one outside the documented range (no arithmetic on the
     * value can overflow: "+999999999-12-31T23:59:59Z" is out of range, not an error).
     */
    private static long parseTime(Value value) throws OutOfRange {
        if (value.token() == JsonToken.VALUE_NUMBER_INT) {
            BigInteger n = new BigInteger(value.text());
            if (inRange(n)) {
                return n.longValueExact();
            }
            BigInteger thousand = BigInteger.valueOf(1000);
            if (inRange(n.multiply(thousand))) {
                throw new OutOfRange("seconds");
            }
            if (inRange(n.divide(thousand))) {
                throw new OutOfRange("microseconds");
            }
            if (inRange(n.divide(thousand.pow(2)))) {
                throw new OutOfRange("nanoseconds");
            }
            throw new OutOfRange(null);
        }
        if (value.token() == JsonToken.VALUE_STRING) {
            String s = value.text().strip();
            Instant t;
            try {
                t = Instant.parse(s);
            } catch (DateTimeParseException e) {
                try {
                    t = OffsetDateTime.parse(s).toInstant();
                } catch (DateTimeParseException e2) {
                    throw new IllegalArgumentException(s, e2);
                }
            }
            if (t.isBefore(Instant.ofEpochMilli(MIN_FETCHED_AT))
                    || t.isAfter(Instant.ofEpochMilli(MAX_TIME))) {
                throw new OutOfRange(null);
            }
            return t.toEpochMilli();
        }
        throw new IllegalArgumentException(value.tree().toString());
    }

    private static boolean inRange(BigInteger millis) {
        return millis.compareTo(BigInteger.valueOf(MIN_FETCHED_AT)) >= 0
                && millis.compareTo(BigInteger.valueOf(MAX_TIME)) <= 0;
    }

    /**
     * Whether an id is empty or only Unicode white space: {@link Character#isWhitespace}, the space
     * separators (no-break spaces such as U+00A0, which {@link String#isBlank} keeps) and U+0085.
     */
    static boolean isBlankId(String id) {
        return id.codePoints()
                .allMatch(c -> Character.isWhitespace(c) || Character.isSpaceChar(c) || c == 0x85);
    }

    /**
     * The index of the first lone surrogate in {@code s} (a JSON escape such as {@code "\ud800"}
     * with no partner: not a character, UTF-8 cannot write it), or -1.
     */
    static int loneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /** The value as JSON text: a string quoted and escaped, an integer's digits, or the tree. */
    private static String asJson(Value value) {
        return switch (value.token()) {
            case VALUE_STRING -> TextNode.valueOf(value.text()).toString();
            case VALUE_NUMBER_INT -> value.text();
            default -> value.tree().toString();
        };
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    /** A dead letter for {@code raw}, keeping at most {@link #DEAD_LETTER_PAYLOAD_LIMIT} bytes. */
    public static DeadLetter deadLetter(
            RawRecord raw, Reason reason, String message, String docId, long now) {
        DeadLetter d = new DeadLetter();
        d.reason = reason.name();
        d.message = message;
        d.source = raw.source;
        if (raw.topic != null) {
            d.sourceTopic = raw.topic;
            d.sourcePartition = raw.partition;
            d.sourceOffset = raw.offset;
        }
        d.docId = docId;
        d.payloadBytes = raw.size;
        byte[] kept =
                raw.payload.length > DEAD_LETTER_PAYLOAD_LIMIT
                        ? Arrays.copyOf(raw.payload, DEAD_LETTER_PAYLOAD_LIMIT)
                        : raw.payload;
        d.payloadTruncated = raw.truncated || kept.length < raw.payload.length;
        // Not UTF-8 also when the cut at the limit split a multi-byte character.
        if (Utf8.isValid(kept)) {
            d.payload = new String(kept, StandardCharsets.UTF_8);
            d.payloadEncoding = "utf8";
        } else {
            d.payload = Base64.getEncoder().encodeToString(kept);
            d.payloadEncoding = "base64";
        }
        d.detectedAt = Json.isoTime(now);
        return d;
    }
}
