package dev.neardup.io;

/**
 * Output of {@code neardup dedupe}: one document's cluster (the clusters output, one line per valid
 * document; the keep output, one line per cluster, its kept document). The cluster id is the id of
 * the cluster's earliest document by (fetchedAt, id). A Flink POJO. JSON schema, which describes
 * each field: {@code src/main/resources/schemas/cluster.schema.json}.
 */
public class ClusterAssignment {
    public static final int SCHEMA_VERSION = 1;

    public int schemaVersion = SCHEMA_VERSION;
    public String docId;
    public String url;
    public String source;
    public String clusterId;
    public int clusterSize;
    public double similarity;
    public boolean keep;
    public String componentId;
    public int componentSize;
}
