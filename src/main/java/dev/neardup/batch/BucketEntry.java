package dev.neardup.batch;

import dev.neardup.similarity.MemberSketches;

/**
 * One document in one band bucket, or in one block pair of a bucket too large to compare at once. A
 * Flink POJO (a record).
 *
 * @param blockA the blocks compared, {@code blockA <= blockB}; both 0 for a bucket compared whole
 * @param side in a pair of two different blocks: 0 for a member of blockA, 1 for one of blockB
 * @param sketch the document's sketch as the bucket compares it ({@link MemberSketches#pack})
 */
public record BucketEntry(
        long bandKey, int band, int blockA, int blockB, int side, String key, byte[] sketch) {}
