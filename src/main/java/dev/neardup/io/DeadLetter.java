package dev.neardup.io;

/**
 * Output: an input record the job could not use, with the reason, in the spirit of Kafka Connect's
 * dead-letter queue: the original payload (as text when it was valid UTF-8, else base64), where it
 * came from, and why. JSON schema, which describes each field: {@code
 * src/main/resources/schemas/dead-letter.schema.json}.
 */
public class DeadLetter {
    public static final int SCHEMA_VERSION = 1;

    /**
     * Why a record was rejected; the codes are part of the output contract, each described in the
     * schema ({@link DocumentParser} checks them in order).
     */
    public enum Reason {
        INVALID_UTF8,
        MALFORMED_JSON,
        NOT_AN_OBJECT,
        MISSING_ID,
        INVALID_ID,
        MISSING_CONTENT,
        INVALID_CONTENT,
        EMPTY_CONTENT,
        NO_TEXT,
        TOO_LARGE,
        BAD_TIMESTAMP,
        BAD_FIELD,
        FUTURE_TIMESTAMP,
        MALFORMED_RECORD,
        INTERNAL_ERROR
    }

    /**
     * The dead letter {@link Reason#INTERNAL_ERROR} of {@code raw}, whose parsing or sketching
     * threw {@code e}: "ClassName: message (while parsing)".
     */
    public static DeadLetter internalError(
            RawRecord raw, String docId, Throwable e, String step, long now) {
        String message =
                e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return DocumentParser.deadLetter(
                raw, Reason.INTERNAL_ERROR, message + " (while " + step + ")", docId, now);
    }

    public int schemaVersion = SCHEMA_VERSION;

    /** One of {@link Reason}. */
    public String reason;

    public String message;
    public String source;
    public String sourceTopic;
    public Integer sourcePartition;
    public Long sourceOffset;
    public String docId;
    public String payload;
    public String payloadEncoding;
    public long payloadBytes;
    public boolean payloadTruncated;
    public String detectedAt;

    /** One line for people: "dead letter at SOURCE: REASON: message". */
    @Override
    public String toString() {
        return "neardup: dead letter at " + source + ": " + reason + ": " + message;
    }
}
