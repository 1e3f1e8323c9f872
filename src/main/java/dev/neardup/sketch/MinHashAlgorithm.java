package dev.neardup.sketch;

/**
 * The MinHash implementations. Both produce K-value signatures whose agreement rate estimates the
 * Jaccard similarity with the O(1/sqrt(K)) error of MinHash (Broder 1997); signatures from
 * different algorithms (or seeds, or K) are not comparable.
 */
public enum MinHashAlgorithm {
    /**
     * One-permutation hashing with optimal densification (Shrivastava, ICML 2017): one hash per
     * shingle, O(n + K) per document. The default: as accurate as {@link #CLASSIC} in our
     * statistical tests and several times faster (see docs/performance.md).
     */
    OPH,
    /**
     * K independent hash functions, one minimum each (Leskovec, Rajaraman and Ullman, Mining of
     * Massive Datasets, 2014, ch. 3). O(n * K) per document; the reference implementation.
     */
    CLASSIC;

    public static MinHashAlgorithm defaultAlgorithm() {
        return OPH;
    }
}
