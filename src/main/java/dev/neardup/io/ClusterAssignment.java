package dev.neardup.io;

/**
 * Output of {@code neardup dedupe}: one document's cluster (the clusters output, one line per valid
 * document; the keep output, one line per cluster, its kept document). The cluster id is the id of
 * the cluster's earliest document by (fetchedAt, id). A Flink POJO.
 */
public class ClusterAssignment {
    public static final int SCHEMA_VERSION = 1;

    public int schemaVersion = SCHEMA_VERSION;
    public String docId;
    public String url;

    /** Where the document's record was read: file:line. */
    public String source;

    /** The id of the cluster's earliest document (the document's own id for a singleton). */
    public String clusterId;

    public int clusterSize;

    /**
     * Estimated Jaccard similarity to the document named by {@link #clusterId} (1.0 for that
     * document itself and its exact copies).
     */
    public double similarity;

    /** Whether this document is the one the keep list names for its cluster. */
    public boolean keep;

    /**
     * The connected component the cluster was cut from by the chaining guard (its earliest
     * document's id), and its size; equal to the cluster's when the guard cut nothing.
     */
    public String componentId;

    public int componentSize;

    public ClusterAssignment() {}
}
