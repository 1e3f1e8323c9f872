package dev.neardup.config;

/**
 * The similarity a job finds near-duplicates by ({@code neardup.similarity}): Jaccard (Broder 1997)
 * and cosine (Charikar 2002), and containment (Broder 1997), sharing the one band-bucket operator.
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
    COSINE,

    /**
     * Containment of shingle sets, |A ∩ B| / |A| (Broder 1997): MinHash signatures cut into
     * size-partitioned bands (LSH Ensemble), verified by the members' bottom-s samples; a match
     * says which document is contained in which.
     */
    CONTAINMENT
}
