package dev.neardup.batch;

/**
 * One document's shingle set for exact verification: its key, its input order ({@link
 * DedupeDoc#order}: of two records with one key, the later line is the document) and its distinct
 * shingle hashes in ascending order (a {@link dev.neardup.sketch.ShingleSet}'s array). A Flink POJO
 * (a record).
 */
public record DocShingles(String key, long order, long[] shingles) {}
