package dev.neardup.io;

/**
 * Output: an input record the job could not use, with the reason, in the spirit of Kafka Connect's
 * dead-letter queue: the original payload (as text when it was valid UTF-8, else base64), where it
 * came from, and why. JSON schema: {@code src/main/resources/schemas/dead-letter.schema.json}.
 */
public class DeadLetter {
    public static final int SCHEMA_VERSION = 1;

    /** Why a record was rejected; the codes are part of the output contract. */
    public enum Reason {
        /** Not valid UTF-8. */
        INVALID_UTF8,
        /**
         * Not parseable as JSON, a field name repeated in an object, or arrays and objects nested
         * more than 200 levels deep.
         */
        MALFORMED_JSON,
        /** JSON, but not an object (an array, a string, a number...). */
        NOT_AN_OBJECT,
        /**
         * The id field is missing, null, or a blank string (empty or only Unicode white space,
         * no-break spaces included).
         */
        MISSING_ID,
        /**
         * The id field has another type than a string or an integer: an object, an array, a
         * boolean, a number with a fraction or an exponent; or it is a string that is not valid
         * Unicode (a lone surrogate escape such as {@code "\ud800"}).
         */
        INVALID_ID,
        /** The content field is missing or null. */
        MISSING_CONTENT,
        /** The content field is not a string (a number, an object, an array, a boolean). */
        INVALID_CONTENT,
        /** The content is empty or only white space. */
        EMPTY_CONTENT,
        /** The content has no words (e.g. a page of markup, scripts or punctuation only). */
        NO_TEXT,
        /** The record is larger than neardup.max-document-size. */
        TOO_LARGE,
        /**
         * fetchedAt is present but not an ISO-8601 instant or epoch milliseconds, or is one outside
         * 1990-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z (the message says when a number looks
         * like epoch seconds, microseconds or nanoseconds).
         */
        BAD_TIMESTAMP,
        /** An optional field has the wrong type (e.g. url is a number). */
        BAD_FIELD,
        /**
         * The event time (fetchedAt, else the Kafka record timestamp) is further in the future than
         * neardup.max-clock-skew allows.
         */
        FUTURE_TIMESTAMP,
        /**
         * Parsing or sketching this record threw an exception (a bug, or an input nobody foresaw):
         * the message is the exception's class and message. The record is set aside and the job
         * goes on.
         */
        INTERNAL_ERROR
    }

    /**
     * The dead letter {@link Reason#INTERNAL_ERROR} of {@code raw}, whose parsing or sketching
     * threw {@code e}: "ClassName: message (while parsing)".
     */
    public static DeadLetter internalError(
            RawRecord raw, String docId, Throwable e, String step, long now) {
        return DocumentParser.deadLetter(
                raw, Reason.INTERNAL_ERROR, describe(e) + " (while " + step + ")", docId, now);
    }

    /** "ClassName: message", or the class alone when there is no message. */
    static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getName() + (message == null ? "" : ": " + message);
    }

    public int schemaVersion = SCHEMA_VERSION;

    /** One of {@link Reason}. */
    public String reason;

    /** Human-readable detail. */
    public String message;

    /** Where the record came from: file:line or topic-partition@offset. */
    public String source;

    /** Kafka topic of the rejected record, or null for other sources. */
    public String sourceTopic;

    /** Kafka partition of the rejected record, or null. */
    public Integer sourcePartition;

    /** Kafka offset of the rejected record, or null. */
    public Long sourceOffset;

    /** The record's id when it could be read, else null. */
    public String docId;

    /** The original payload: UTF-8 text, or base64 when {@link #payloadEncoding} says so. */
    public String payload;

    /** "utf8" or "base64". */
    public String payloadEncoding;

    /** Size of the original payload in bytes. */
    public long payloadBytes;

    /** True when {@link #payload} holds only the first bytes of a larger payload. */
    public boolean payloadTruncated;

    public String detectedAt;

    public DeadLetter() {}

    /** One line for people: "dead letter at SOURCE: REASON: message". */
    @Override
    public String toString() {
        return "neardup: dead letter at " + source + ": " + reason + ": " + message;
    }
}
