package dev.neardup.batch;

import java.util.ArrayList;
import java.util.Comparator;
import org.apache.flink.api.common.accumulators.Accumulator;

/**
 * A Flink accumulator of the {@link #LIMIT} largest clusters (ties: by cluster id), merged over all
 * subtasks: the summary's "largest clusters" without collecting every cluster.
 */
public class TopClusters implements Accumulator<ClusterStat, ArrayList<ClusterStat>> {

    private static final long serialVersionUID = 1L;

    public static final int LIMIT = 10;

    static final Comparator<ClusterStat> LARGEST_FIRST =
            Comparator.comparingInt((ClusterStat c) -> -c.size())
                    .thenComparing(ClusterStat::clusterId);

    private ArrayList<ClusterStat> top = new ArrayList<>();

    @Override
    public void add(ClusterStat value) {
        top.add(value);
        trim();
    }

    private void trim() {
        top.sort(LARGEST_FIRST);
        while (top.size() > LIMIT) {
            top.remove(top.size() - 1);
        }
    }

    @Override
    public ArrayList<ClusterStat> getLocalValue() {
        return new ArrayList<>(top);
    }

    @Override
    public void resetLocal() {
        top.clear();
    }

    @Override
    public void merge(Accumulator<ClusterStat, ArrayList<ClusterStat>> other) {
        top.addAll(other.getLocalValue());
        trim();
    }

    @Override
    public TopClusters clone() {
        TopClusters copy = new TopClusters();
        copy.top = new ArrayList<>(top);
        return copy;
    }
}
