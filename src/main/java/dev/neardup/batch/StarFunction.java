package dev.neardup.batch;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * A round of {@link StarRounds}, keyed by node. Large-Star ({@link #large}): its input holds every
 * edge in both directions, (node, neighbour); it counts the nodes not yet in their final shape
 * under {@code unstable-ROUND}, and a round that counts none shows that the components have
 * converged. Small-Star ({@link #small}): keyed by the larger end of each edge, whose input edges
 * are (larger end, smaller end).
 */
public class StarFunction extends KeyedProcessFunction<String, SimilarPair, SimilarPair> {

    private static final long serialVersionUID = 1L;

    /** The Large-Star round's number; -1 for Small-Star. */
    private final int round;

    private transient ListState<String> ends;
    private transient LongCounter unstable;

    private StarFunction(int round) {
        this.round = round;
    }

    static StarFunction large(int round) {
        return new StarFunction(round);
    }

    static StarFunction small() {
        return new StarFunction(-1);
    }

    @Override
    public void open(OpenContext openContext) {
        ends =
                KeyedStates.list(
                        getRuntimeContext(), round < 0 ? "smaller" : "neighbours", String.class);
        if (round >= 0) {
            unstable = DedupeCounters.counter(getRuntimeContext(), DedupeJob.unstable(round));
        }
    }

    @Override
    public void processElement(SimilarPair edge, Context ctx, Collector<SimilarPair> out)
            throws Exception {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        ends.add(edge.b());
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<SimilarPair> out)
            throws Exception {
        List<String> list = new ArrayList<>();
        ends.get().forEach(list::add);
        BiConsumer<String, String> sink = (u, v) -> out.collect(new SimilarPair(u, v, 0));
        if (round < 0) {
            StarRounds.smallStar(ctx.getCurrentKey(), list, sink);
        } else if (StarRounds.largeStar(ctx.getCurrentKey(), list, sink)) {
            unstable.add(1);
        }
    }
}
