package dev.neardup.batch;

/**
 * One document's shingle set for exact verification: its key and its distinct shingle hashes in
 * ascending order (a {@link dev.neardup.sketch.ShingleSet}'s array). A Flink POJO (a record).
 */
public record DocShingles(String key, long[] shingles) {}
