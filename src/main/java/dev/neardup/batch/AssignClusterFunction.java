package dev.neardup.batch;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Gives each document its component (keyed by document key): the centre of its star when the
 * converged component rounds left it an edge (leaf, centre), else itself (a centre, or a document
 * without a near-duplicate). Edges to two different centres show that the rounds did not converge:
 * the job fails ({@link DedupeJob#notConverged}).
 */
public class AssignClusterFunction
        extends KeyedCoProcessFunction<String, DedupeDoc, SimilarPair, DedupeDoc> {

    private static final long serialVersionUID = 1L;

    private final int rounds;
    private transient ValueState<DedupeDoc> doc;
    private transient ValueState<String> centre;

    /**
     * @param rounds the component rounds before this step (for the message when they did not
     *     converge)
     */
    public AssignClusterFunction(int rounds) {
        this.rounds = rounds;
    }

    @Override
    public void open(OpenContext openContext) {
        doc = KeyedStates.value(getRuntimeContext(), "doc", DedupeDoc.class);
        centre = KeyedStates.value(getRuntimeContext(), "centre", String.class);
    }

    @Override
    public void processElement1(DedupeDoc value, Context ctx, Collector<DedupeDoc> out)
            throws Exception {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        doc.update(value);
    }

    @Override
    public void processElement2(SimilarPair edge, Context ctx, Collector<DedupeDoc> out)
            throws Exception {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        String current = centre.value();
        if (current == null) {
            centre.update(edge.b());
        } else if (!current.equals(edge.b())) {
            throw DedupeJob.notConverged(
                    rounds,
                    VertexKeys.id(ctx.getCurrentKey())
                            + " still has two component edges, to "
                            + VertexKeys.id(current)
                            + " and "
                            + VertexKeys.id(edge.b()));
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<DedupeDoc> out)
            throws Exception {
        DedupeDoc d = doc.value();
        if (d == null) {
            throw new IllegalStateException(
                    "component edge for an unknown document " + ctx.getCurrentKey());
        }
        String c = centre.value();
        d.cluster = c == null ? d.key : c;
        out.collect(d);
    }
}
