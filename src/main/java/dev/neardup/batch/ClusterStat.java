package dev.neardup.batch;

import java.io.Serializable;

/**
 * One cluster, for the summary's list of the largest: its id, size, the lowest estimated similarity
 * of a member to the cluster's earliest document, and the component it was cut from.
 */
public record ClusterStat(
        String clusterId, int size, double minSimilarity, String componentId, int componentSize)
        implements Serializable {}
