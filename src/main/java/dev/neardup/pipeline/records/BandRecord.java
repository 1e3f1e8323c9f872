package dev.neardup.pipeline.records;

/**
 * One band of one document's sketch, routed by {@link #bandKey} to its band bucket. It carries what
 * the bucket keeps of a member: the document's id, URL and event time, its b-bit signature (to
 * verify candidates on the spot) and the fingerprint of its full signature (to recognise exact
 * copies). Serialized by {@link RecordSerializers.BandRecordSerializer}.
 */
public class BandRecord {
    /** The 64-bit key of band {@link #band} (the bucket; cosine: of permuted-block table). */
    public long bandKey;

    /** Band index j, 0-based. */
    public int band;

    public String docId;
    public String url;

    /** Event time in epoch ms: with {@link #docId}, the document's place in the order. */
    public long eventTime;

    /**
     * {@link dev.neardup.sketch.BbitMinHash#fingerprint} of the full signature; cosine: {@link
     * dev.neardup.lsh.SimHashSketcher#identity} of the word multiset. Equal for exact copies.
     */
    public long fingerprint;

    /**
     * The b-bit signature ({@link dev.neardup.sketch.BbitMinHash#pack}); cosine: the SimHash
     * fingerprint's words as little-endian longs ({@link
     * dev.neardup.similarity.Verification#pack}).
     */
    public byte[] signature;

    public BandRecord() {}
}
