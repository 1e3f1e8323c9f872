package dev.neardup.config;

/**
 * How cosine mode judges a candidate pair ({@code neardup.simhash.verify}): on random-hyperplane
 * bits kept in the buckets, or exactly, on the documents' term-frequency vectors kept once per
 * document in a sample store.
 */
public enum CosineVerify {
    /**
     * The estimate cos(pi h / V) of the Hamming distance h of V Gaussian verification bits (or of
     * the fingerprints with {@code neardup.simhash.verify-bits} 0), kept with every bucket member.
     */
    BITS,
    /**
     * The exact cosine of the two term-frequency vectors, kept once per document (12 bytes per
     * distinct feature) by the sample store after the buckets; bucket members keep ids only.
     */
    EXACT
}
