package dev.neardup.config;

/**
 * How {@code neardup dedupe} verifies a candidate pair: the edges of the similarity graph whose
 * connected components are the clusters (the syntactic clustering of Broder, Glassman, Manasse and
 * Zweig 1997).
 */
public enum VerifyMode {
    /**
     * Jaccard only (the default there): the exact Jaccard similarity of the two shingle sets, |A ∩
     * B| / |A ∪ B| (Broder's 1997 resemblance), for every candidate whose MinHash estimate is
     * within four standard errors below the threshold; the clusters are then the components of the
     * exact similarity graph, up to pairs the LSH bands miss.
     */
    EXACT,
    /**
     * The estimate from the two full sketches, as the streaming job verifies: the share of agreeing
     * MinHash values, or with cosine the Hamming distance of the SimHash fingerprints (the only
     * verification of cosine). Pairs within a standard error of the threshold fall on either side.
     */
    SIGNATURE
}
