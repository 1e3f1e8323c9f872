package dev.neardup.batch;

/**
 * A verified pair: {@code a} earlier than {@code b} (keys), with the estimated similarity (1.0 for
 * exact copies: equal signatures). Also an edge of the similarity graph ({@code u}, {@code v}
 * without similarity) in the component rounds. A Flink POJO, and the JSON of the working files.
 */
public class SimilarPair {
    public String a;
    public String b;
    public double similarity;

    public SimilarPair() {}

    public SimilarPair(String a, String b, double similarity) {
        this.a = a;
        this.b = b;
        this.similarity = similarity;
    }
}
