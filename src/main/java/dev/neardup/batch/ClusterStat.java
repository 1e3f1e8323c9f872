package dev.neardup.batch;

import java.io.Serializable;

/**
 * One cluster, for the summary's list of the largest: its id, size, the lowest estimated similarity
 * of a member to the cluster's earliest document, and the component it was cut from.
 */
public class ClusterStat implements Serializable {

    private static final long serialVersionUID = 1L;

    public String clusterId;
    public int size;
    public double minSimilarity;
    public String componentId;
    public int componentSize;

    public ClusterStat() {}

    public ClusterStat(
            String clusterId,
            int size,
            double minSimilarity,
            String componentId,
            int componentSize) {
        this.clusterId = clusterId;
        this.size = size;
        this.minSimilarity = minSimilarity;
        this.componentId = componentId;
        this.componentSize = componentSize;
    }
}
