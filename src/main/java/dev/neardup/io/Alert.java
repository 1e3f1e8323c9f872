package dev.neardup.io;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Output: one near-duplicate pair, emitted as soon as the newer document collides with the older
 * one and verification confirms it. Each pair is reported once (per version of the newer document),
 * whichever bands it collided in. JSON schema: {@code
 * src/main/resources/schemas/alert.schema.json}.
 */
public class Alert {
    public static final int SCHEMA_VERSION = 1;

    public int schemaVersion = SCHEMA_VERSION;

    /** The newer document. */
    public String docId;

    public String url;

    /** The earlier document it nearly duplicates. */
    public String duplicateOf;

    public String duplicateUrl;

    /** Estimated similarity of the two: Jaccard, or with cosine similarity cos(pi hamming / D). */
    public double similarity;

    /**
     * With cosine similarity: the Hamming distance of the two SimHash fingerprints, from which
     * {@link #similarity} is estimated. Null, and left out of the JSON, with Jaccard similarity (so
     * Jaccard alerts are as they were; added within schema version 1).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Integer hamming;

    /**
     * The band of the bucket that first reported the pair (a pair can share buckets in several
     * bands; it is alerted once).
     */
    public int band;

    /** Event time of the newer document, ISO-8601. */
    public String eventTime;

    /** When the job found the pair (processing time), ISO-8601. */
    public String detectedAt;

    public Alert() {}
}
