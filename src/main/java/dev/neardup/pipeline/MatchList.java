package dev.neardup.pipeline;

import dev.neardup.pipeline.buckets.BucketMembers;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.similarity.Estimate;
import java.util.Arrays;

/**
 * Matches of one document: earlier documents (id, URL, event time), the estimated similarity to
 * each and, in containment mode, its direction ({@link Estimate}), and the cluster each belongs to
 * as its bucket knew it (the id and event time of the cluster's first document; null for a match
 * that is its cluster's first document), as parallel arrays so that it stays a plain Flink POJO
 * with no generic collections. Used by the buckets' reports ({@link VerdictEvent}) and the verdicts
 * being assembled ({@link PendingVerdict}).
 */
public class MatchList {
    public String[] ids = new String[0];
    public String[] urls = new String[0];
    public long[] eventTimes = new long[0];
    public double[] similarities = new double[0];

    /**
     * The direction of each estimate about (document, match), null in the symmetric modes (empty
     * when restored from state layout 3, which packed it into {@link #similarities}: {@link
     * OlderPendingVerdicts} decodes it).
     */
    public Estimate.Direction[] directions = new Estimate.Direction[0];

    /**
     * The cluster of each match, null when the match is its cluster's first document (shorter than
     * {@link #ids} when restored from state written before clusters: the rest are null).
     */
    public String[] clusterIds = new String[0];

    /** The event time of each non-null {@link #clusterIds} entry. */
    public long[] clusterTimes = new long[0];

    public MatchList() {}

    /** The id of the first document of match {@code i}'s cluster. */
    public String clusterId(int i) {
        return i < clusterIds.length && clusterIds[i] != null ? clusterIds[i] : ids[i];
    }

    /** The event time of {@link #clusterId(int)}. */
    public long clusterTime(int i) {
        return i < clusterIds.length && clusterIds[i] != null ? clusterTimes[i] : eventTimes[i];
    }

    public Estimate estimate(int i) {
        return new Estimate(similarities[i], i < directions.length ? directions[i] : null);
    }

    public int size() {
        return ids.length;
    }

    /**
     * Appends a match, unless {@code id} is a match already: then it keeps the earlier of the two
     * clusters (event time, then id), so that the result does not depend on the order of reports.
     *
     * @param clusterId the first document of the match's cluster, or null for the match itself
     * @param clusterTime its event time (ignored when {@code clusterId} is null)
     * @return true when {@code id} was not a match yet
     */
    public boolean add(
            String id,
            String url,
            long eventTime,
            Estimate estimate,
            String clusterId,
            long clusterTime) {
        int i = Arrays.asList(ids).indexOf(id);
        if (i >= 0) {
            String cluster = clusterId == null ? ids[i] : clusterId;
            long time = clusterId == null ? eventTimes[i] : clusterTime;
            if (BucketMembers.isBefore(time, cluster, clusterTime(i), clusterId(i))) {
                if (clusterIds.length < ids.length) {
                    clusterIds = Arrays.copyOf(clusterIds, ids.length);
                    clusterTimes = Arrays.copyOf(clusterTimes, ids.length);
                }
                boolean own = cluster.equals(ids[i]);
                clusterIds[i] = own ? null : cluster;
                clusterTimes[i] = own ? 0 : time;
            }
            return false;
        }
        int n = ids.length;
        ids = Arrays.copyOf(ids, n + 1);
        urls = Arrays.copyOf(urls, n + 1);
        eventTimes = Arrays.copyOf(eventTimes, n + 1);
        similarities = Arrays.copyOf(similarities, n + 1);
        directions = Arrays.copyOf(directions, n + 1);
        clusterIds = Arrays.copyOf(clusterIds, n + 1);
        clusterTimes = Arrays.copyOf(clusterTimes, n + 1);
        ids[n] = id;
        urls[n] = url;
        eventTimes[n] = eventTime;
        similarities[n] = estimate.similarity();
        directions[n] = estimate.direction();
        boolean own = clusterId == null || clusterId.equals(id);
        clusterIds[n] = own ? null : clusterId;
        clusterTimes[n] = own ? 0 : clusterTime;
        return true;
    }
}
