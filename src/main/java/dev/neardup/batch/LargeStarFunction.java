package dev.neardup.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * A Large-Star round ({@link StarRounds#largeStar}), keyed by node: its input holds every edge in
 * both directions, (node, neighbour). Counts the nodes not yet in their final shape under {@code
 * unstable-ROUND}; a round that counts none shows that the components have converged.
 */
public class LargeStarFunction extends KeyedProcessFunction<String, SimilarPair, SimilarPair> {

    private static final long serialVersionUID = 1L;

    private final int round;
    private transient ListState<String> neighbours;
    private transient LongCounter unstable;

    public LargeStarFunction(int round) {
        this.round = round;
    }

    @Override
    public void open(OpenContext openContext) {
        neighbours =
                getRuntimeContext()
                        .getListState(new ListStateDescriptor<>("neighbours", Types.STRING));
        unstable = DedupeCounters.counter(getRuntimeContext(), DedupeJob.unstable(round));
    }

    @Override
    public void processElement(SimilarPair edge, Context ctx, Collector<SimilarPair> out)
            throws Exception {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        neighbours.add(edge.b);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<SimilarPair> out)
            throws Exception {
        List<String> list = new ArrayList<>();
        for (String v : neighbours.get()) {
            list.add(v);
        }
        if (StarRounds.largeStar(
                ctx.getCurrentKey(), list, (u, v) -> out.collect(new SimilarPair(u, v, 0)))) {
            unstable.add(1);
        }
    }
}
