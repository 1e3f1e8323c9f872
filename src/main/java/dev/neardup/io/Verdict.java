package dev.neardup.io;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Output: exactly one per valid input document, once the event-time watermark has passed it (every
 * earlier document, in the order (event time, id), has then been compared with it): UNIQUE, or
 * DUPLICATE with its matches (best first) and {@link #duplicateOf}, the earliest-seen match, so a
 * crawl pipeline can drop or keep each page; and exactly one DELETED per valid deletion (a Kafka
 * tombstone or a {@code "deleted": true} record), once the watermark has passed it, without
 * matches. JSON schema, which describes each field: {@code
 * src/main/resources/schemas/verdict.schema.json}.
 */
public class Verdict {
    public static final int SCHEMA_VERSION = 1;
    public static final String UNIQUE = "UNIQUE";
    public static final String DUPLICATE = "DUPLICATE";

    /**
     * Containment mode only: the document contains, or is contained in, an earlier one at the
     * threshold, but is not a near-copy of any (no match is {@link Alert#MUTUAL}); {@link
     * #direction} says which way for {@link #duplicateOf}, each match's for itself. A digest
     * quoting an earlier article is CONTAINED (DUPLICATE_IN_DOC): new content, which a consumer
     * dropping DUPLICATEs keeps; an article found again inside an earlier digest is CONTAINED
     * (DOC_IN_DUPLICATE).
     */
    public static final String CONTAINED = "CONTAINED";

    /**
     * The document was deleted at {@link #eventTime}: later documents are no longer compared with
     * its versions up to then.
     */
    public static final String DELETED = "DELETED";

    public int schemaVersion = SCHEMA_VERSION;
    public String docId;
    public String url;

    /** Null for a verdict restored from state written before this field existed. */
    public String source;

    /**
     * {@link #UNIQUE}, {@link #DUPLICATE}, {@link #CONTAINED} (containment mode) or {@link
     * #DELETED}.
     */
    public String verdict;

    /**
     * The first document (by event time, then id) of the document's near-duplicate cluster, as its
     * matches know it; it can be merged into an earlier one after this verdict (a cluster-merged
     * alert), so a consumer unions verdicts and merges in a union-find whose roots are the earliest
     * documents.
     */
    public String clusterId;

    public String duplicateOf;
    public String duplicateUrl;
    public Double similarity;

    /** Cosine similarity only; null and left out of the JSON otherwise (as {@link #direction}). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Integer hamming;

    /** Containment mode only: an {@link Alert#direction}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public String direction;

    /** All matches at or above the threshold, most similar first. */
    public Match[] matches = new Match[0];

    public int candidates;
    public String eventTime;
    public String detectedAt;

    /** One match of a verdict. */
    public static class Match {
        public String docId;
        public String url;
        public double similarity;

        /** As {@link Verdict#hamming} and {@link Verdict#direction}. */
        @JsonInclude(JsonInclude.Include.NON_NULL)
        public Integer hamming;

        @JsonInclude(JsonInclude.Include.NON_NULL)
        public String direction;

        public String eventTime;

        public Match() {}

        public Match(String docId, String url, double similarity, String eventTime) {
            this.docId = docId;
            this.url = url;
            this.similarity = similarity;
            this.eventTime = eventTime;
        }
    }
}
