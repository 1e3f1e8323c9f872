package dev.neardup.batch;

import dev.neardup.io.ClusterAssignment;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.util.Collector;

/**
 * One connected component (keyed by its earliest document's key): its members in the order (event
 * time, id), each one's estimated similarity to the earliest, the chaining guard's cut when it is
 * on ({@link ClusterSplit}), and per cluster the document to keep ({@link
 * dev.neardup.config.KeepPolicy}), by {@link ClusterAssigner}. A component whose key is not one of
 * its members (its centre is itself a leaf of another star) shows that the component rounds did not
 * converge: the job fails ({@link DedupeJob#notConverged}).
 */
public class ClusterFunction extends KeyGroupFunction<String, DedupeDoc, ClusterAssignment> {

    private static final long serialVersionUID = 1L;

    private final DedupeSettings settings;
    private transient ClusterAssigner assigner;

    public ClusterFunction(DedupeSettings settings) {
        super(DedupeDoc.class);
        this.settings = settings;
    }

    @Override
    protected void setUp() {
        assigner = new ClusterAssigner(settings, getRuntimeContext());
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
        for (ClusterAssignment a : assigner.assign(list)) {
            out.collect(a);
        }
    }
}
