package dev.neardup.config;

/** How {@code neardup dedupe} finds the candidate pairs it verifies. */
public enum CandidateMethod {
    /**
     * Shared bucket keys: the LSH bands (Jaccard) or the permuted-block tables (cosine), which find
     * every pair within the Hamming distance.
     */
    BLOCKS,
    /**
     * Cosine only: the sliding window over sorted, permuted fingerprints (Manku, Jain and Das Sarma
     * 2007; {@link dev.neardup.lsh.SortedWindow}).
     */
    WINDOW
}
