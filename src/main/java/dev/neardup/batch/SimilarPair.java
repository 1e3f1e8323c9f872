package dev.neardup.batch;

/**
 * A verified pair: {@code a} earlier than {@code b} (keys), with the estimated similarity (1.0 for
 * exact copies: equal signatures). Also an edge of the similarity graph ({@code u}, {@code v}
 * without similarity) in the component rounds. A Flink POJO (a record).
 */
public record SimilarPair(String a, String b, double similarity) {}
