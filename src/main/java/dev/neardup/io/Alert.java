package dev.neardup.io;

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

    /** Estimated Jaccard similarity of the two. */
    public double similarity;

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
