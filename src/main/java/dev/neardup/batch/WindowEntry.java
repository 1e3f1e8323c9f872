package dev.neardup.batch;

/**
 * One document's fingerprint under one permutation of the sliding window, in one range partition of
 * that permutation's sorted order. A Flink POJO.
 */
public class WindowEntry {
    /** (permutation << 32) | partition: the key of the task that sorts and scans it. */
    public long partition;

    public String key;

    /** The permuted fingerprint ({@link dev.neardup.lsh.SortedWindow#permute}). */
    public long[] permuted;

    public WindowEntry() {}
}
