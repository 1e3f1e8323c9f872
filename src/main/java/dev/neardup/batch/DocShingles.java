package dev.neardup.batch;

/**
 * One document's shingle set for exact verification: its key, its input order ({@link
 * DedupeDoc#order}: of two records with one key, the later line is the document) and its distinct
 * shingle hashes ({@link dev.neardup.sketch.ShingleSet#distinct}: unordered, sorted by the
 * verification only for the documents of a candidate). A Flink POJO (a record).
 */
public record DocShingles(String key, long order, long[] shingles) {}
