package dev.neardup.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.DeadLetter.Reason;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Base64;

/**
 * Parses and validates one raw input record into a {@link Document}, or explains why not with a
 * {@link DeadLetter}. Pure and thread-safe; the job's sources run it ({@link DocumentLinesFormat},
 * {@link KafkaDocumentDeserializer}), so documents leave the source with their event times.
 *
 * <p>Input contract (DESIGN.md): a UTF-8 JSON object with a string or integer {@code id} and a
 * string {@code content} (required, not blank), and optional string {@code url}, {@code
 * contentType}, and {@code fetchedAt} (ISO-8601 instant or offset date-time, or epoch milliseconds,
 * within the years 0000 to 9999). Field names are configurable. Unknown fields are ignored; a
 * repeated field makes the record malformed; a leading byte order mark is skipped.
 */
public final class DocumentParser implements java.io.Serializable {

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

    private final InputFields fields;
    private final int maxBytes;
    private final long maxClockSkewMillis;
    private final FutureTimestamps future;

    /**
     * @param fields names of the input fields
     * @param maxBytes largest record accepted
     * @param maxClockSkewMillis how far an event time may lie ahead of {@code now}
     * @param future what happens to a record whose event time lies further ahead
     */
    public DocumentParser(
            InputFields fields, int maxBytes, long maxClockSkewMillis, FutureTimestamps future) {
        this.fields = fields;
        this.maxBytes = maxBytes;
        this.maxClockSkewMillis = maxClockSkewMillis;
        this.future = future;
    }

    /** A parser that accepts any event time (no clock-skew check). */
    public DocumentParser(InputFields fields, int maxBytes) {
        // eventTime - now never exceeds Long.MAX_VALUE (now is positive), so nothing is clamped.
        this(fields, maxBytes, Long.MAX_VALUE, FutureTimestamps.CLAMP);
    }

    /** The outcome: exactly one of {@link #document} and {@link #deadLetter} is set. */
    public record Result(Document document, DeadLetter deadLetter) {}

    /**
     * @param ingestTime event time to use when neither fetchedAt nor a source timestamp exists
     * @param now processing time, for the dead letter's detectedAt
     */
    public Result parse(RawRecord raw, long ingestTime, long now) {
        if (raw.truncated || raw.payload.length > maxBytes) {
            return reject(
                    raw,
                    Reason.TOO_LARGE,
                    "record of " + raw.size + " bytes exceeds the limit of " + maxBytes + " bytes",
                    null,
                    now);
        }
        String text;
        try {
            text =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(raw.payload))
                            .toString();
        } catch (CharacterCodingException e) {
            return reject(raw, Reason.INVALID_UTF8, "payload is not valid UTF-8", null, now);
        }
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1); // a UTF-8 byte order mark, as Windows tools write
        }
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return reject(
                    raw,
                    Reason.MALFORMED_JSON,
                    "not valid JSON: " + e.getOriginalMessage(),
                    null,
                    now);
        }
        if (root == null || root.isMissingNode()) {
            return reject(raw, Reason.MALFORMED_JSON, "empty record", null, now);
        }
        if (!root.isObject()) {
            return reject(
                    raw,
                    Reason.NOT_AN_OBJECT,
                    "expected a JSON object, got " + root.getNodeType().name().toLowerCase(),
                    null,
                    now);
        }
        JsonNode idNode = root.get(fields.id());
        String id = null;
        if (idNode != null && (idNode.isTextual() || idNode.isIntegralNumber())) {
            id = idNode.asText();
        }
        if (id == null || id.isBlank()) {
            return reject(
                    raw,
                    Reason.MISSING_ID,
                    "field '" + fields.id() + "' must be a non-blank string or an integer",
                    null,
                    now);
        }
        JsonNode contentNode = root.get(fields.content());
        if (contentNode == null || !contentNode.isTextual()) {
            return reject(
                    raw,
                    Reason.MISSING_CONTENT,
                    "field '" + fields.content() + "' must be a string",
                    id,
                    now);
        }
        String content = contentNode.textValue();
        if (content.isBlank()) {
            return reject(
                    raw,
                    Reason.EMPTY_CONTENT,
                    "field '" + fields.content() + "' is empty",
                    id,
                    now);
        }
        String url;
        String contentType;
        try {
            url = optionalText(root, fields.url());
            contentType = optionalText(root, fields.contentType());
        } catch (IllegalArgumentException e) {
            return reject(raw, Reason.BAD_FIELD, e.getMessage(), id, now);
        }
        long eventTime;
        JsonNode fetched = root.get(fields.fetchedAt());
        if (fetched == null || fetched.isNull()) {
            eventTime = raw.timestamp >= 0 ? raw.timestamp : ingestTime;
        } else {
            try {
                eventTime = parseTime(fetched);
            } catch (IllegalArgumentException e) {
                return reject(
                        raw,
                        Reason.BAD_TIMESTAMP,
                        "field '"
                                + fields.fetchedAt()
                                + "' must be an ISO-8601 instant or epoch milliseconds, got "
                                + abbreviate(fetched.toString()),
                        id,
                        now);
            }
        }
        if (eventTime - now > maxClockSkewMillis) {
            if (future == FutureTimestamps.DEAD_LETTER) {
                return reject(
                        raw,
                        Reason.FUTURE_TIMESTAMP,
                        "event time "
                                + Json.isoTime(eventTime)
                                + (fetched == null || fetched.isNull()
                                        ? " (the Kafka record timestamp)"
                                        : " (field '" + fields.fetchedAt() + "')")
                                + " is "
                                + java.time.Duration.ofMillis(eventTime - now)
                                + " ahead of this machine's clock, more than"
                                + " neardup.max-clock-skew ("
                                + java.time.Duration.ofMillis(maxClockSkewMillis)
                                + ") allows",
                        id,
                        now);
            }
            eventTime = now;
        }
        return new Result(new Document(id, raw.source, url, content, contentType, eventTime), null);
    }

    /** Parses {@code raw} into a {@link ParsedRecord} (the form the job's sources emit). */
    public ParsedRecord parseRecord(RawRecord raw, long now) {
        Result r = parse(raw, now, now);
        return new ParsedRecord(r.document(), r.deadLetter());
    }

    private static String optionalText(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw new IllegalArgumentException(
                    "field '"
                            + field
                            + "' must be a string, got "
                            + node.getNodeType().name().toLowerCase());
        }
        return node.textValue();
    }

    /** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z: what ISO-8601 output can express. */
    private static final long MIN_TIME = -62_167_219_200_000L;

    private static final long MAX_TIME = 253_402_300_799_999L;

    private static long parseTime(JsonNode node) {
        long t = parseTimeUnchecked(node);
        if (t < MIN_TIME || t > MAX_TIME) {
            throw new IllegalArgumentException("outside the years 0000 to 9999");
        }
        return t;
    }

    private static long parseTimeUnchecked(JsonNode node) {
        if (node.isIntegralNumber()) {
            if (!node.canConvertToLong()) {
                throw new IllegalArgumentException(node.toString());
            }
            return node.longValue();
        }
        if (node.isTextual()) {
            String s = node.textValue().strip();
            try {
                return Instant.parse(s).toEpochMilli();
            } catch (DateTimeParseException e) {
                try {
                    return OffsetDateTime.parse(s).toInstant().toEpochMilli();
                } catch (DateTimeParseException e2) {
                    throw new IllegalArgumentException(s, e2);
                }
            }
        }
        throw new IllegalArgumentException(node.toString());
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
        String asText = strictUtf8(kept);
        if (asText != null) {
            d.payload = asText;
            d.payloadEncoding = "utf8";
        } else {
            d.payload = Base64.getEncoder().encodeToString(kept);
            d.payloadEncoding = "base64";
        }
        d.detectedAt = Json.isoTime(now);
        return d;
    }

    private static String strictUtf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null; // also when the cut at the limit split a multi-byte character
        }
    }

    private static Result reject(
            RawRecord raw, Reason reason, String message, String docId, long now) {
        return new Result(null, deadLetter(raw, reason, message, docId, now));
    }
}
