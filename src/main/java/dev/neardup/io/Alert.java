package dev.neardup.io;

import com.fasterxml.jackson.annotation.JsonFilter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Set;

/**
 * Output on the alerts stream, of two kinds. An <b>alert</b> ({@link #event} null, and absent from
 * the JSON): one near-duplicate pair, emitted as soon as the newer document collides with the older
 * one and verification confirms it: as the newer one arrives if the watermark has passed the older
 * one ({@link #early}), else as the watermark passes the newer one. Each pair is reported once (per
 * version of the newer document), whichever bands it collided in. A <b>cluster merge</b> ({@link
 * #event} {@value #CLUSTER_MERGED}): the document {@link #docId} matched documents of two clusters,
 * and the cluster whose first document is {@link #mergedClusterId} is now part of the earlier one,
 * {@link #clusterId}. The JSON of each kind has only its own fields (see {@link Json}). JSON
 * schema, which describes each field: {@code src/main/resources/schemas/alert.schema.json}.
 */
@JsonFilter(Alert.JSON_FILTER)
public class Alert {
    public static final int SCHEMA_VERSION = 1;

    /** {@link #event} of a cluster merge. */
    public static final String CLUSTER_MERGED = "cluster-merged";

    /** {@link #direction}s in containment mode: which document is contained in which. */
    public static final String DOC_IN_DUPLICATE = "DOC_IN_DUPLICATE";

    public static final String DUPLICATE_IN_DOC = "DUPLICATE_IN_DOC";
    public static final String MUTUAL = "MUTUAL";

    /** The Jackson filter that writes each kind's own fields ({@link Json} registers it). */
    public static final String JSON_FILTER = "neardup-alert";

    public int schemaVersion = SCHEMA_VERSION;

    /** Null for an alert (left out of the JSON); {@link #CLUSTER_MERGED} for a cluster merge. */
    public String event;

    public String docId;
    public String url;
    public String duplicateOf;
    public String duplicateUrl;
    public double similarity;

    /** Cosine similarity only; null and left out of the JSON otherwise (as {@link #direction}). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public Integer hamming;

    /** Containment mode only. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public String direction;

    public int band;

    /**
     * True when the pair was alerted as the newer document arrived, before its verdict; false (and
     * left out of the JSON) when it was alerted as its verdict was being made.
     */
    @JsonInclude(JsonInclude.Include.NON_DEFAULT)
    public boolean early;

    public String clusterId;
    public String clusterEventTime;
    public String mergedClusterId;
    public String mergedClusterEventTime;
    public String eventTime;
    public String detectedAt;

    /** Whether this is a cluster merge rather than a pair. */
    @JsonIgnore
    public boolean isClusterMerge() {
        return CLUSTER_MERGED.equals(event);
    }

    /** Field names that only a pair has, and that only a cluster merge has. */
    static final Set<String> PAIR_FIELDS =
            Set.of(
                    "duplicateOf",
                    "duplicateUrl",
                    "similarity",
                    "hamming",
                    "direction",
                    "band",
                    "early");

    static final Set<String> MERGE_FIELDS =
            Set.of(
                    "event",
                    "clusterId",
                    "clusterEventTime",
                    "mergedClusterId",
                    "mergedClusterEventTime");
}
