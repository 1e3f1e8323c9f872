package dev.neardup.io.warc;

/**
 * A record that could not be read, or bytes where a record should start and none does: the input is
 * broken there. The reader goes on at the next record it finds (ISO 28500:2017, WARC 1.1: a record
 * starts with a {@code WARC/1.x} line; in a {@code .warc.gz} file, with a gzip member).
 *
 * @param reason what is wrong
 * @param message what was seen and where reading went on, for people
 * @param url the record's {@code WARC-Target-URI} when its header could be read, else null
 * @param file the file name
 * @param offset the byte offset of the broken record, or of the first byte that is no record
 */
public record WarcError(Reason reason, String message, String url, String file, long offset)
        implements WarcOutcome {

    /** What is wrong. The names are stable: counters and dead letters use them. */
    public enum Reason {
        /** The file ends inside a record (its header, its block, or its gzip member). */
        TRUNCATED,
        /** No record header where one should start: bytes that are not a WARC or ARC header. */
        MALFORMED_HEADER,
        /**
         * The block does not end where the record's {@code Content-Length} says: no record end
         * ({@code CRLF CRLF}) follows it, and the next record starts elsewhere.
         */
        BAD_LENGTH,
        /** A gzip member of a {@code .warc.gz} or {@code .arc.gz} file does not inflate. */
        CORRUPT_GZIP,
        /** A mandatory field ({@code WARC-Date}, {@code WARC-Target-URI}) is missing or invalid. */
        BAD_FIELD,
        /** The block of a {@code response} record is not a readable HTTP response. */
        MALFORMED_HTTP,
        /** The chunked transfer coding of the HTTP body is broken. */
        BAD_CHUNKING,
        /** The HTTP content coding (gzip, deflate, br) does not decode. */
        BAD_CONTENT_ENCODING,
        /** The payload is larger than the configured limit ({@link WarcReadSettings}). */
        TOO_LARGE,
        /** The payload could not be read for another reason, which the message names. */
        UNREADABLE_PAYLOAD
    }
}
