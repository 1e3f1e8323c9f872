package dev.neardup.io.warc;

/**
 * A well-formed record that is not a document, to be counted by {@link Reason}: the WARC record
 * types other than {@code response}, {@code resource}, {@code conversion} and identical-payload
 * {@code revisit} (ISO 28500:2017, WARC 1.1, section 6), and payloads that are not text or not a
 * successful response.
 *
 * @param reason why
 * @param detail what was seen ({@code image/png}, {@code HTTP 404}, a profile URI), or null
 * @param recordType the {@code WARC-Type}
 * @param url the {@code WARC-Target-URI}, or null
 * @param file the file name
 * @param offset the record's byte offset
 */
public record WarcSkip(
        Reason reason, String detail, String recordType, String url, String file, long offset)
        implements WarcOutcome {

    /** Why a record is skipped. The names are stable: counters and logs use them. */
    public enum Reason {
        /** A {@code warcinfo} record: about the file, not a page. */
        WARCINFO_RECORD,
        /** A {@code request} record: what the crawler sent. */
        REQUEST_RECORD,
        /**
         * A {@code metadata} record, or a record about the crawl itself (a {@code metadata:} target
         * URI, as wget writes for its log).
         */
        METADATA_RECORD,
        /** A {@code continuation} record: a segment of a record split across files. */
        CONTINUATION_RECORD,
        /** A record type that WARC 1.1 does not define. */
        UNKNOWN_RECORD_TYPE,
        /**
         * A {@code revisit} whose profile is not identical-payload-digest (server-not-modified, an
         * unknown or missing profile): it names no payload to compare.
         */
        REVISIT_NOT_IDENTICAL,
        /**
         * A {@code response} whose block is not an HTTP response ({@code dns:} lookups, other
         * protocols).
         */
        NOT_HTTP,
        /** An HTTP status outside 2xx (redirects, errors, 304 not modified). */
        HTTP_STATUS,
        /** The payload's MIME type is not text (images, PDF, fonts, archives, octet-stream). */
        NOT_TEXT,
        /** An HTTP {@code Content-Encoding} that cannot be decoded (compress, zstd, several). */
        UNSUPPORTED_CONTENT_ENCODING,
        /** A payload of no bytes. */
        EMPTY_PAYLOAD
    }
}
