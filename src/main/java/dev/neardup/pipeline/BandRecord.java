package dev.neardup.pipeline;

/**
 * One band of one document's sketch, routed by {@link #bandKey} to its band bucket. Every band
 * record of a document carries the document's compact signature and all its band keys, so a bucket
 * can register the document with the signature store and send it along with candidate queries.
 */
public class BandRecord {
    /** The 64-bit key of band {@link #band} (the bucket). */
    public long bandKey;

    /** Band index j, 0-based. */
    public int band;

    public String docId;
    public String instance;
    public String url;
    public long eventTime;

    /** Compact signature (see {@link CompactSignature}). */
    public short[] signature;

    /** All b band keys of the document (to find the lowest band two documents share). */
    public long[] bandKeys;

    public BandRecord() {}
}
