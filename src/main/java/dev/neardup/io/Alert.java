package dev.neardup.io;

import com.fasterxml.jackson.annotation.JsonFilter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Output on the alerts stream, of two kinds. An <b>alert</b> ({@link #event} null, and absent from
 * the JSON): one near-duplicate pair, emitted as soon as the newer document collides with the older
 * one and verification confirms it. Each pair is reported once (per version of the newer document),
 * whichever bands it collided in. A <b>cluster merge</b> ({@link #event} {@value #CLUSTER_MERGED}):
 * the document {@link #docId} matched documents of two clusters, and the cluster whose first
 * document is {@link #mergedClusterId} is now part of the earlier one, {@link #clusterId}. The JSON
 * of each kind has only its own fields (see {@link Json}). JSON schema: {@code
 * src/main/resources/schemas/alert.schema.json}.
 */
@JsonFilter(Alert.JSON_FILTER)
public class Alert {
    public static final int SCHEMA_VERSION = 1;

    /** {@link #event} of a cluster merge. */
    public static final String CLUSTER_MERGED = "cluster-merged";

    /**
     * {@link #direction} in containment mode: the document {@link #docId} is contained in {@link
     * #duplicateOf} (e.g. an article found again inside an earlier digest).
     */
    public static final String DOC_IN_DUPLICATE = "DOC_IN_DUPLICATE";

    /**
     * {@link #direction}: the earlier document {@link #duplicateOf} is contained in {@link #docId}
     * (e.g. a digest quoting an earlier article).
     */
    public static final String DUPLICATE_IN_DOC = "DUPLICATE_IN_DOC";

    /** {@link #direction}: each is contained in the other at the threshold (near-copies). */
    public static final String MUTUAL = "MUTUAL";

    /** The Jackson filter that writes each kind's own fields ({@link Json} registers it). */
    public static final String JSON_FILTER = "neardup-alert";

    public int schemaVersion = SCHEMA_VERSION;

    /** Null for an alert (left out of the JSON); {@link #CLUSTER_MERGED} for a cluster merge. */
    public String event;

    /** The newer document (cluster merge: the document that matched both clusters). */
    public String docId;

    public String url;

    /** The earlier document it nearly duplicates. */
    public String duplicateOf;

    public String duplicateUrl;

    /** Estimated similarity of the two: Jaccard, or with cosine similarity cos(pi hamming / D). */
    public double similarity;

    /**
     * With cosine similarity: the Hamming distance of the two SimHash fingerprints, from which
     * {@link #similarity} is estimated. Null, and left out of the JSON, with Jaccard similarity (so
     * Jaccard alerts are as they were; added within schema version 1).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Integer hamming;

    /**
     * In containment mode ({@code --containment T}): which document is contained in which, {@link
     * #DOC_IN_DUPLICATE}, {@link #DUPLICATE_IN_DOC} or {@link #MUTUAL}; {@link #similarity} is then
     * the estimated containment in that direction (for MUTUAL the smaller of the two). Null, and
     * left out of the JSON, in the other modes (added within schema version 1).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public String direction;

    /**
     * The band of the bucket that first reported the pair (a pair can share buckets in several
     * bands; it is alerted once).
     */
    public int band;

    /** Cluster merge: the first document of the surviving (earlier) cluster. */
    public String clusterId;

    /** Cluster merge: the event time of {@link #clusterId}, ISO-8601. */
    public String clusterEventTime;

    /** Cluster merge: the first document of the cluster merged into {@link #clusterId}. */
    public String mergedClusterId;

    /** Cluster merge: the event time of {@link #mergedClusterId}, ISO-8601. */
    public String mergedClusterEventTime;

    /**
     * Event time of the newer document, ISO-8601 (cluster merge: of the document that joined the
     * clusters).
     */
    public String eventTime;

    /** When the job found the pair or the merge (processing time), ISO-8601. */
    public String detectedAt;

    public Alert() {}

    /** Whether this is a cluster merge rather than a pair. */
    @JsonIgnore
    public boolean isClusterMerge() {
        return CLUSTER_MERGED.equals(event);
    }

    /** Field names that only a pair has, and that only a cluster merge has. */
    static final java.util.Set<String> PAIR_FIELDS =
            java.util.Set.of(
                    "duplicateOf", "duplicateUrl", "similarity", "hamming", "direction", "band");

    static final java.util.Set<String> MERGE_FIELDS =
            java.util.Set.of(
                    "event",
                    "clusterId",
                    "clusterEventTime",
                    "mergedClusterId",
                    "mergedClusterEventTime");
}
