package dev.neardup.batch;

import dev.neardup.config.KeepPolicy;
import dev.neardup.io.ClusterAssignment;
import dev.neardup.similarity.BatchSketches;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.flink.api.common.accumulators.Histogram;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.util.Collector;

/**
 * One connected component (keyed by its earliest document's key): its members in the order (event
 * time, id), each one's estimated similarity to the earliest, the chaining guard's cut when it is
 * on ({@link ClusterSplit}), and per cluster the document to keep ({@link KeepPolicy}). One {@link
 * ClusterAssignment} per member; sizes and the largest clusters go to accumulators for the summary.
 * A component whose key is not one of its members (its centre is itself a leaf of another star)
 * shows that the component rounds did not converge: the job fails ({@link DedupeJob#notConverged}).
 */
public class ClusterFunction extends KeyGroupFunction<String, DedupeDoc, ClusterAssignment> {

    private static final long serialVersionUID = 1L;

    private final DedupeSettings settings;
    private transient Histogram sizes;
    private transient TopClusters top;
    private transient LongCounter clusters;
    private transient LongCounter clustered;
    private transient LongCounter removed;
    private transient LongCounter cutComponents;
    private transient LongCounter chainedComponents;

    public ClusterFunction(DedupeSettings settings) {
        super(DedupeDoc.class);
        this.settings = settings;
    }

    @Override
    protected void setUp() {
        sizes = new Histogram();
        getRuntimeContext().addAccumulator(DedupeJob.CLUSTER_SIZES, sizes);
        top = new TopClusters();
        getRuntimeContext().addAccumulator(DedupeJob.TOP_CLUSTERS, top);
        clusters = DedupeCounters.counter(getRuntimeContext(), DedupeJob.CLUSTERS);
        clustered = DedupeCounters.counter(getRuntimeContext(), DedupeJob.CLUSTERED);
        removed = DedupeCounters.counter(getRuntimeContext(), DedupeJob.REMOVED);
        cutComponents = DedupeCounters.counter(getRuntimeContext(), DedupeJob.CUT_COMPONENTS);
        chainedComponents =
                DedupeCounters.counter(getRuntimeContext(), DedupeJob.CHAINED_COMPONENTS);
    }

    @Override
    protected void onKeyEnd(
            List<DedupeDoc> list, OnTimerContext ctx, Collector<ClusterAssignment> out) {
        list.sort(Comparator.comparing(d -> d.key));
        if (!list.get(0).key.equals(ctx.getCurrentKey())) {
            throw DedupeJob.notConverged(
                    settings.rounds(),
                    "the centre %s of %s's star is in another component"
                            .formatted(VertexKeys.id(ctx.getCurrentKey()), list.get(0).id));
        }
        for (ClusterAssignment a : assign(list, settings)) {
            out.collect(a);
        }
        clustered.add(list.size());
    }

    /** The assignments of one component's members (sorted by key), and the summary's counts. */
    List<ClusterAssignment> assign(List<DedupeDoc> component, DedupeSettings settings) {
        int n = component.size();
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
        BatchSketches batch = settings.batch();
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
        return result;
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
