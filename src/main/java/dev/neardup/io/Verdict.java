package dev.neardup.io;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Output: exactly one per valid input document, once the event-time watermark has passed it (every
 * earlier document, in the order (event time, id), has then been compared with it): UNIQUE, or
 * DUPLICATE with its matches (best first) and {@link #duplicateOf}, the earliest-seen match, so a
 * crawl pipeline can drop or keep each page; and exactly one DELETED per valid deletion (a Kafka
 * tombstone or a {@code "deleted": true} record), once the watermark has passed it, without
 * matches. JSON schema: {@code src/main/resources/schemas/verdict.schema.json}.
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

    /**
     * Where the input record came from: file:line, or topic-partition@offset; null for a verdict
     * restored from state written before this field existed. Two records with the same id and event
     * time each get a verdict, told apart by it.
     */
    public String source;

    /**
     * {@link #UNIQUE}, {@link #DUPLICATE}, {@link #CONTAINED} (containment mode) or {@link
     * #DELETED}.
     */
    public String verdict;

    /**
     * The first document (by event time, then id) of the document's near-duplicate cluster, as its
     * matches know it: itself when UNIQUE; for a DUPLICATE, the earliest of its matches' clusters
     * (when those were several, the others are merged into it by cluster-merged events on the
     * alerts output); null for DELETED. A cluster can be merged into an earlier one after this
     * verdict: a consumer that unions each verdict's document with its cluster id, and each merge's
     * two clusters, in a union-find whose roots are the earliest documents, has every document's
     * cluster (the connected components of the reported pairs).
     */
    public String clusterId;

    /** The earliest-seen match (by event time, then id), or null when unique or deleted. */
    public String duplicateOf;

    public String duplicateUrl;

    /** Similarity to {@link #duplicateOf}, or null when unique or deleted. */
    public Double similarity;

    /**
     * With cosine similarity: the Hamming distance of the fingerprints of this document and {@link
     * #duplicateOf}; null (left out of the JSON) when unique or deleted, and with Jaccard
     * similarity.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Integer hamming;

    /**
     * In containment mode: which of this document and {@link #duplicateOf} is contained in the
     * other ({@link Alert#DOC_IN_DUPLICATE}, {@link Alert#DUPLICATE_IN_DOC}, {@link Alert#MUTUAL});
     * {@link #similarity} is the estimated containment that way. Null and left out otherwise.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public String direction;

    /** All matches at or above the threshold, most similar first. */
    public Match[] matches = new Match[0];

    /**
     * Members of its buckets the document was compared with when it reached them (the cost; depends
     * on arrival order); 0 for a deletion.
     */
    public int candidates;

    public String eventTime;
    public String detectedAt;

    public Verdict() {}

    /** One match of a verdict. */
    public static class Match {
        public String docId;
        public String url;
        public double similarity;

        /** With cosine similarity: the Hamming distance; null and left out with Jaccard. */
        @JsonInclude(JsonInclude.Include.NON_NULL)
        public Integer hamming;

        /** In containment mode: the direction, as {@link Verdict#direction}; else left out. */
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
