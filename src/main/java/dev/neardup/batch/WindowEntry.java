package dev.neardup.batch;

/**
 * One document's fingerprint under one permutation of the sliding window, in one range partition of
 * that permutation's sorted order. A Flink POJO (a record).
 *
 * @param partition (permutation << 32) | partition: the key of the task that sorts and scans it
 * @param permuted the permuted fingerprint ({@link dev.neardup.lsh.SortedWindow#permute})
 */
public record WindowEntry(long partition, String key, long[] permuted) {}
