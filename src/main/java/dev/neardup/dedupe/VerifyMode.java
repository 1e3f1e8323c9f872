package dev.neardup.dedupe;

/**
 * How {@code neardup dedupe} verifies a candidate pair: the edges of the similarity graph whose
 * connected components are the clusters (seed 004, Broder's syntactic clustering).
 */
public enum VerifyMode {
    /**
     * Jaccard only (the default there): the exact Jaccard similarity of the two shingle sets, |A ∩
     * B| / |A ∪ B| (seed 003's resemblance), for every candidate whose MinHash estimate is within
     * four standard errors below the threshold; the clusters are then the components of the exact
     * similarity graph, up to pairs the LSH bands miss.
     */
    EXACT,
    /**
     * The estimate from the two full sketches, as the streaming job verifies: the share of agreeing
     * MinHash values, or with cosine the Hamming distance of the SimHash fingerprints (the only
     * verification of cosine). Pairs within a standard error of the threshold fall on either side.
     */
    SIGNATURE
}
