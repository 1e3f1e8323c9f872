package dev.neardup.batch;

import dev.neardup.config.KeepPolicy;
import dev.neardup.io.ClusterAssignment;
import dev.neardup.similarity.BatchSketches;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.flink.api.common.accumulators.Histogram;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.RuntimeContext;

/**
 * The clusters of one connected component: the chaining guard's cut when it is on ({@link
 * ClusterSplit}), each member's estimated similarity to its cluster's earliest document, and per
 * cluster the document to keep ({@link KeepPolicy}): one {@link ClusterAssignment} per member.
 * Sizes and the largest clusters go to the task's accumulators for the summary.
 */
final class ClusterAssigner {

    private final DedupeSettings settings;
    private final BatchSketches batch;
    private final Histogram sizes;
    private final TopClusters top;
    private final LongCounter clusters;
    private final LongCounter clustered;
    private final LongCounter removed;
    private final LongCounter cutComponents;
    private final LongCounter chainedComponents;

    /** Registers the accumulators in {@code context}'s task (once per task). */
    ClusterAssigner(DedupeSettings settings, RuntimeContext context) {
        this.settings = settings;
        this.batch = settings.batch();
        sizes = new Histogram();
        context.addAccumulator(DedupeJob.CLUSTER_SIZES, sizes);
        top = new TopClusters();
        context.addAccumulator(DedupeJob.TOP_CLUSTERS, top);
        clusters = DedupeCounters.counter(context, DedupeJob.CLUSTERS);
        clustered = DedupeCounters.counter(context, DedupeJob.CLUSTERED);
        removed = DedupeCounters.counter(context, DedupeJob.REMOVED);
        cutComponents = DedupeCounters.counter(context, DedupeJob.CUT_COMPONENTS);
        chainedComponents = DedupeCounters.counter(context, DedupeJob.CHAINED_COMPONENTS);
    }

    /** The assignments of one component's members (sorted by key), and the summary's counts. */
    List<ClusterAssignment> assign(List<DedupeDoc> component) {
        int n = component.size();
        if (n == 1 && component.get(0).signature != null) {
            return List.of(alone(component.get(0)));
        }
        Map<String, long[]> signatures = new HashMap<>();
        for (DedupeDoc d : component) {
            if (d.signature != null) {
                signatures.put(d.key, d.signature);
            }
        }
        long[][] sig = new long[n][];
        for (int i = 0; i < n; i++) {
            DedupeDoc d = component.get(i);
            sig[i] = d.signature != null ? d.signature : signatures.get(d.copyOf);
            if (sig[i] == null) {
                throw new IllegalStateException(
                        "exact copy " + d.id + " without its original in its component");
            }
        }
        double threshold = settings.job().similarity().threshold();
        if (IntStream.range(1, n).anyMatch(i -> batch.estimate(sig[0], sig[i]) < threshold)) {
            chainedComponents.add(1);
        }
        int[] leader =
                settings.guarded() && n > 1
                        ? ClusterSplit.leaders(
                                n, settings.splitBelow(), (a, b) -> batch.estimate(sig[a], sig[b]))
                        : new int[n];
        Map<Integer, List<Integer>> groups = new java.util.LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            groups.computeIfAbsent(leader[i], k -> new ArrayList<>()).add(i);
        }
        if (groups.size() > 1) {
            cutComponents.add(1);
        }
        String componentId = component.get(0).id;
        List<ClusterAssignment> result = new ArrayList<>(n);
        for (Map.Entry<Integer, List<Integer>> group : groups.entrySet()) {
            int lead = group.getKey();
            List<Integer> indices = group.getValue();
            int kept = keep(component, indices, settings.keepPolicy());
            double min = 1.0;
            for (int i : indices) {
                DedupeDoc d = component.get(i);
                ClusterAssignment a = new ClusterAssignment();
                a.docId = d.id;
                a.url = d.url;
                a.source = d.source;
                a.clusterId = component.get(lead).id;
                a.clusterSize = indices.size();
                a.similarity = i == lead ? 1.0 : batch.estimate(sig[lead], sig[i]);
                a.keep = i == kept;
                a.componentId = componentId;
                a.componentSize = n;
                min = Math.min(min, a.similarity);
                result.add(a);
            }
            sizes.add(indices.size());
            clusters.add(1);
            removed.add(indices.size() - 1);
            top.add(new ClusterStat(component.get(lead).id, indices.size(), min, componentId, n));
        }
        clustered.add(n);
        return result;
    }

    /**
     * The cluster of a document with no near-duplicate, as {@link #assign} makes it for a component
     * of one: its own, kept, at similarity 1.
     */
    ClusterAssignment alone(DedupeDoc d) {
        ClusterAssignment a = new ClusterAssignment();
        a.docId = d.id;
        a.url = d.url;
        a.source = d.source;
        a.clusterId = d.id;
        a.clusterSize = 1;
        a.similarity = 1.0;
        a.keep = true;
        a.componentId = d.id;
        a.componentSize = 1;
        sizes.add(1);
        clusters.add(1);
        top.add(new ClusterStat(d.id, 1, 1.0, d.id, 1));
        clustered.add(1);
        return a;
    }

    /**
     * The index of the member to keep among {@code indices} (ascending, so the first is earliest).
     */
    static int keep(List<DedupeDoc> component, List<Integer> indices, KeepPolicy policy) {
        int best = indices.get(0);
        for (int i : indices) {
            DedupeDoc d = component.get(i);
            DedupeDoc b = component.get(best);
            boolean better =
                    switch (policy) {
                        case LONGEST -> d.length > b.length;
                        case FIRST -> d.order < b.order;
                        case EARLIEST -> false;
                    };
            if (better) {
                best = i;
            }
        }
        return best;
    }
}
