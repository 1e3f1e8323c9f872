package dev.neardup.batch;

/**
 * A verified pair: {@code a} earlier than {@code b} (keys), with the estimated similarity (1.0 for
 * exact copies: equal signatures). Also an edge of the similarity graph ({@code u}, {@code v}
 * without similarity) in the component rounds. A Flink POJO (a record).
 */
public record SimilarPair(String a, String b, double similarity) {

    /** The key of the pair of documents {@code a} and {@code b}, to key a step by pair. */
    static String key(String a, String b) {
        return a + '\n' + b;
    }

    /** The pair of keys {@code x} and {@code y}, the lower (earlier) key first. */
    static SimilarPair ordered(String x, String y, double similarity) {
        return x.compareTo(y) <= 0
                ? new SimilarPair(x, y, similarity)
                : new SimilarPair(y, x, similarity);
    }
}
