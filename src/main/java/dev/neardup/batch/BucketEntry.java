package dev.neardup.batch;

import dev.neardup.similarity.MemberSketches;

/**
 * One document in one band bucket, or in one block pair of a bucket too large to compare at once. A
 * Flink POJO.
 */
public class BucketEntry {
    public long bandKey;
    public int band;

    /** Blocks compared: {@code blockA <= blockB}; both 0 for a bucket compared whole. */
    public int blockA;

    public int blockB;

    /** In a pair of two different blocks: 0 for a member of blockA, 1 for one of blockB. */
    public int side;

    public String key;

    /** The document's sketch as the bucket compares it ({@link MemberSketches#pack}). */
    public byte[] sketch;

    public BucketEntry() {}

    BucketEntry copy() {
        BucketEntry e = new BucketEntry();
        e.bandKey = bandKey;
        e.band = band;
        e.blockA = blockA;
        e.blockB = blockB;
        e.side = side;
        e.key = key;
        e.sketch = sketch;
        return e;
    }
}
