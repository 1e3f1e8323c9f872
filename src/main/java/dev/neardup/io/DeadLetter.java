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
        /** The id field is missing, null, or a blank string. */
        MISSING_ID,
        /**
         * The id field has another type than a string or an integer: an object, an array, a
         * boolean, a number with a fraction or an exponent.
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
        /** fetchedAt is present but not an ISO-8601 instant or epoch milliseconds. */
        BAD_TIMESTAMP,
        /** An optional field has the wrong type (e.g. url is a number). */
        BAD_FIELD,
        /**
         * The event time (fetchedAt, else the Kafka record timestamp) is further in the future than
         * neardup.max-clock-skew allows.
         */
        FUTURE_TIMESTAMP
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
