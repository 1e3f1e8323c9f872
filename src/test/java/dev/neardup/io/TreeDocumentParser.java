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

/**
 * The {@link DocumentParser} of before issue 11 (strict decoding to a String, then a JsonNode
 * tree), kept as the reference the streaming parser is compared with ({@code
 * DocumentParserEquivalenceTest}) and benchmarked against ({@code DocumentParserBenchmark}). Same
 * constructor arguments and results, dead letters included.
 */
public final class TreeDocumentParser {

    private final InputFields fields;
    private final int maxBytes;
    private final long maxClockSkewMillis;
    private final DocumentParser.FutureTimestamps future;

    /**
     * @param fields names of the input fields
     * @param maxBytes largest record accepted
     * @param maxClockSkewMillis how far an event time may lie ahead of {@code now}
     * @param future what happens to a record whose event time lies further ahead
     */
    public TreeDocumentParser(
            InputFields fields,
            int maxBytes,
            long maxClockSkewMillis,
            DocumentParser.FutureTimestamps future) {
        this.fields = fields;
        this.maxBytes = maxBytes;
        this.maxClockSkewMillis = maxClockSkewMillis;
        this.future = future;
    }

    /** A parser that accepts any event time (no clock-skew check). */
    public TreeDocumentParser(InputFields fields, int maxBytes) {
        // eventTime - now never exceeds Long.MAX_VALUE (now is positive), so nothing is clamped.
        this(fields, maxBytes, Long.MAX_VALUE, DocumentParser.FutureTimestamps.CLAMP);
    }

    /**
     * @param ingestTime event time to use when neither fetchedAt nor a source timestamp exists
     * @param now processing time, for the dead letter's detectedAt
     */
    public DocumentParser.Result parse(RawRecord raw, long ingestTime, long now) {
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
            if (future == DocumentParser.FutureTimestamps.DEAD_LETTER) {
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
        return new DocumentParser.Result(
                new Document(id, raw.source, url, content, contentType, eventTime), null);
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

    private static DocumentParser.Result reject(
            RawRecord raw, Reason reason, String message, String docId, long now) {
        return new DocumentParser.Result(
                null, DocumentParser.deadLetter(raw, reason, message, docId, now));
    }
}
