package dev.neardup.io;

import java.io.Serializable;
import java.util.Locale;

/**
 * The size limits of an input record and of its fields, in UTF-8 bytes, checked where records enter
 * ({@link DocumentParser}): a record or a field over its limit is a dead letter {@code TOO_LARGE}
 * whose message names the field, its size and the limit, and never reaches an operator. The content
 * is bounded by the record; an id or a url is carried by every bucket member, pending verdict and
 * output record that names the document, so each has a limit of its own, far above what a crawl
 * holds (web servers refuse request lines over 8 KB) and far below what would strain the state or
 * an output record (a verdict names up to one id and url per match).
 *
 * @param recordBytes the largest record (the whole JSON line or Kafka record value)
 * @param idBytes the largest id (for a Kafka tombstone, its key)
 * @param urlBytes the largest url
 */
public record FieldLimits(int recordBytes, int idBytes, int urlBytes) implements Serializable {

    /** The default limit of an id: 16 KiB. */
    public static final int DEFAULT_ID_BYTES = 16 * 1024;

    /** The default limit of a url: 16 KiB. */
    public static final int DEFAULT_URL_BYTES = 16 * 1024;

    /** The largest id or url limit that can be set: 64 KiB. */
    public static final int MAX_FIELD_LIMIT_BYTES = 64 * 1024;

    /**
     * The limit of a contentType, fixed: 1 KiB (a MIME type has at most 255 characters, RFC 6838,
     * its parameters a few more).
     */
    public static final int CONTENT_TYPE_BYTES = 1024;

    public FieldLimits {
        if (recordBytes <= 0 || idBytes <= 0 || urlBytes <= 0) {
            throw new IllegalArgumentException(
                    "size limits must be positive: record %d, id %d, url %d bytes"
                            .formatted(recordBytes, idBytes, urlBytes));
        }
    }

    /** Records of at most {@code recordBytes}, ids and urls within the default limits. */
    public static FieldLimits ofRecord(int recordBytes) {
        return new FieldLimits(recordBytes, DEFAULT_ID_BYTES, DEFAULT_URL_BYTES);
    }

    /**
     * The message of a dead letter {@code TOO_LARGE} when {@code value} of {@code field} is longer
     * than {@code limit} UTF-8 bytes (named by {@code setting}, or null for a fixed limit), else
     * null. Never builds the encoded bytes.
     */
    static String overLimit(String field, String value, int limit, String setting) {
        // At most 3 bytes a char (a surrogate pair is 2 chars for 4 bytes): a short value is in.
        if (value == null || (long) value.length() * 3 <= limit) {
            return null;
        }
        long bytes = Utf8.encodedLength(value);
        if (bytes <= limit) {
            return null;
        }
        return String.format(
                Locale.ROOT,
                "field '%s' is %,d bytes, more than its limit of %,d bytes%s",
                field,
                bytes,
                limit,
                setting == null ? "" : " (" + setting + ")");
    }
}
