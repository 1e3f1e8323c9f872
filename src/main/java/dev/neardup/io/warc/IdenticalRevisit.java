package dev.neardup.io.warc;

/**
 * A {@code revisit} record with the identical-payload-digest profile (ISO 28500:2017, WARC 1.1,
 * sections 6.7 and 6.7.2; the WARC 1.0 and 1.1 profile URIs): the crawler fetched the page again
 * and got the same payload as in the record it refers to, so it wrote no payload. The page,
 * captured again at {@link #fetchedAt}.
 *
 * @param id the document id, chosen as for a {@link WarcDocument}
 * @param url the {@code WARC-Target-URI}
 * @param fetchedAt the {@code WARC-Date} of the revisit, in epoch milliseconds
 * @param refersToUrl the {@code WARC-Refers-To-Target-URI}: the URL of the original capture, or
 *     null
 * @param refersToDate the {@code WARC-Refers-To-Date} in epoch milliseconds, or null when absent or
 *     not a date
 * @param refersTo the {@code WARC-Refers-To} record id of the original ({@code urn:uuid:...}), or
 *     null
 * @param payloadDigest the {@code WARC-Payload-Digest} both share ({@code sha1:...}), or null
 * @param profile the {@code WARC-Profile} URI
 * @param recordId the revisit's own {@code WARC-Record-ID}, or null
 * @param file the file name
 * @param offset the record's byte offset
 */
public record IdenticalRevisit(
        String id,
        String url,
        long fetchedAt,
        String refersToUrl,
        Long refersToDate,
        String refersTo,
        String payloadDigest,
        String profile,
        String recordId,
        String file,
        long offset)
        implements WarcOutcome {}
