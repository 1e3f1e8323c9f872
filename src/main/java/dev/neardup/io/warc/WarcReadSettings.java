package dev.neardup.io.warc;

/**
 * How {@link WarcRecordReader} turns records into documents.
 *
 * @param id which WARC field becomes a document's id
 * @param maxPayloadBytes the largest payload read, in bytes after the transfer and content codings
 *     are removed; a larger one is a {@link WarcError.Reason#TOO_LARGE} error. A record block
 *     larger than this plus {@link #HEADER_ALLOWANCE} is not read at all.
 */
public record WarcReadSettings(IdField id, long maxPayloadBytes) implements java.io.Serializable {

    /**
     * Room in a record block beyond the payload limit for the HTTP status line, headers and chunk
     * framing.
     */
    public static final long HEADER_ALLOWANCE = 64 * 1024;

    /** The default payload limit: 16 MiB, well above Common Crawl's 1 MiB truncation. */
    public static final long DEFAULT_MAX_PAYLOAD_BYTES = 16L * 1024 * 1024;

    /** The field a document's id comes from. */
    public enum IdField {
        /**
         * {@code WARC-Target-URI}, the URL: a re-crawl of a page keeps its id (the default). An ARC
         * record's URL.
         */
        TARGET_URI,
        /**
         * {@code WARC-Record-ID}, unique per record ({@code <urn:uuid:...>} as written, angle
         * brackets removed); an ARC record, which has none, falls back to its URL.
         */
        RECORD_ID
    }

    public WarcReadSettings {
        if (id == null) {
            throw new IllegalArgumentException("id field must be set");
        }
        if (maxPayloadBytes < 1 || maxPayloadBytes > Integer.MAX_VALUE - 2 * HEADER_ALLOWANCE) {
            throw new IllegalArgumentException(
                    "maxPayloadBytes must be in 1.."
                            + (Integer.MAX_VALUE - 2 * HEADER_ALLOWANCE)
                            + ", got "
                            + maxPayloadBytes);
        }
    }

    /** Ids from {@code WARC-Target-URI}, payloads up to {@link #DEFAULT_MAX_PAYLOAD_BYTES}. */
    public static WarcReadSettings defaults() {
        return new WarcReadSettings(IdField.TARGET_URI, DEFAULT_MAX_PAYLOAD_BYTES);
    }

    /** The largest record block read into memory. */
    long maxBlockBytes() {
        return maxPayloadBytes + HEADER_ALLOWANCE;
    }
}
