package dev.neardup.batch;

import java.util.List;
import java.util.function.BiConsumer;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.util.Collector;

/**
 * A round of {@link StarRounds}, keyed by node. Large-Star ({@link #large}): its input holds every
 * edge in both directions, (node, neighbour); it counts the nodes not yet in their final shape
 * under {@code unstable-ROUND}, and a round that counts none shows that the components have
 * converged. Small-Star ({@link #small}): keyed by the larger end of each edge, whose input edges
 * are (larger end, smaller end).
 */
public class StarFunction extends KeyGroupFunction<String, SimilarPair, SimilarPair> {

    private static final long serialVersionUID = 1L;

    /** The Large-Star round's number; -1 for Small-Star. */
    private final int round;

    private transient LongCounter unstable;

    private StarFunction(int round) {
        super(SimilarPair.class);
        this.round = round;
    }

    static StarFunction large(int round) {
        return new StarFunction(round);
    }

    static StarFunction small() {
        return new StarFunction(-1);
    }

    @Override
    protected void setUp() {
        if (round >= 0) {
            unstable = DedupeCounters.counter(getRuntimeContext(), DedupeJob.unstable(round));
        }
    }

    @Override
    protected void onKeyEnd(
            List<SimilarPair> edges, OnTimerContext ctx, Collector<SimilarPair> out) {
        List<String> ends = edges.stream().map(SimilarPair::b).toList();
        BiConsumer<String, String> sink = (u, v) -> out.collect(new SimilarPair(u, v, 0));
        if (round < 0) {
            StarRounds.smallStar(ctx.getCurrentKey(), ends, sink);
        } else if (StarRounds.largeStar(ctx.getCurrentKey(), ends, sink)) {
            unstable.add(1);
        }
    }
}
