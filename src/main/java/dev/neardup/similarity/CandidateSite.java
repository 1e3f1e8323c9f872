package dev.neardup.similarity;

/**
 * Where a mode's candidate pairs are verified: what the mode declares, and the streaming job turns
 * into the strategy its operators hold. In the buckets when a member can keep the mode's sketch
 * (b-bit MinHash values, a SimHash fingerprint); through a per-document sample store after the
 * buckets when the sketch is too large to keep in every bucket of a document (a bottom-s sample).
 */
public enum CandidateSite {
    /** Members keep the packed sketch; a bucket verifies a candidate on the spot. */
    BUCKETS,
    /** Members keep ids; a per-document sample store verifies the candidates the buckets report. */
    SAMPLE_STORE
}
