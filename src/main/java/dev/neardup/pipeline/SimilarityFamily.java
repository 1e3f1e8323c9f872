package dev.neardup.pipeline;

/**
 * The similarity a job finds near-duplicates by ({@code neardup.similarity}): the two families of
 * seed 002, sharing the one band-bucket operator.
 */
public enum SimilarityFamily {
    /**
     * Jaccard similarity of shingle sets: MinHash signatures, LSH banding, verified by the estimate
     * from the members' b-bit signatures (the default).
     */
    JACCARD,

    /**
     * Cosine similarity of term-frequency vectors: SimHash fingerprints, permuted-block tables,
     * verified by the Hamming distance of the members' fingerprints.
     */
    COSINE
}
