package dev.neardup.io.warc;

/**
 * A {@code response}, {@code resource} or {@code conversion} record (ISO 28500:2017, WARC 1.1,
 * sections 6.3, 6.4 and 6.7) whose payload is text: the page, decoded.
 *
 * @param id the document id: the {@code WARC-Target-URI}, or the {@code WARC-Record-ID} when the
 *     settings say so ({@link WarcReadSettings.IdField})
 * @param url the {@code WARC-Target-URI} (angle brackets, as some WARC 1.0 writers add, removed)
 * @param fetchedAt the {@code WARC-Date} in epoch milliseconds
 * @param content the payload as text: HTML stays HTML
 * @param contentType the payload's MIME type without parameters ({@code text/html}): the HTTP
 *     {@code Content-Type} of a response, the record's {@code Content-Type} of a resource or a
 *     conversion; the {@code WARC-Identified-Payload-Type} when that one is not text; null when
 *     neither names one
 * @param charset the charset the payload was decoded with ({@code windows-1252}, {@code UTF-8})
 * @param recordType {@code response}, {@code resource} or {@code conversion}
 * @param recordId the {@code WARC-Record-ID} ({@code urn:uuid:...}), or null (ARC)
 * @param truncated the {@code WARC-Truncated} value ({@code length}, {@code time}, {@code
 *     disconnect}, {@code unspecified}) when the crawler cut the payload, else null; a truncated
 *     payload is decoded as far as it goes
 * @param file the file name
 * @param offset the record's byte offset
 */
public record WarcDocument(
        String id,
        String url,
        long fetchedAt,
        String content,
        String contentType,
        String charset,
        String recordType,
        String recordId,
        String truncated,
        String file,
        long offset)
        implements WarcOutcome {

    /** True when the crawler cut the payload ({@code WARC-Truncated}). */
    public boolean isTruncated() {
        return truncated != null;
    }
}
