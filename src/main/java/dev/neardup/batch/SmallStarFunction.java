package dev.neardup.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * A Small-Star round ({@link StarRounds#smallStar}), keyed by the larger end of each edge, whose
 * input edges are (larger end, smaller end).
 */
public class SmallStarFunction extends KeyedProcessFunction<String, SimilarPair, SimilarPair> {

    private static final long serialVersionUID = 1L;

    private transient ListState<String> smaller;

    @Override
    public void open(OpenContext openContext) {
        smaller =
                getRuntimeContext()
                        .getListState(new ListStateDescriptor<>("smaller", Types.STRING));
    }

    @Override
    public void processElement(SimilarPair edge, Context ctx, Collector<SimilarPair> out)
            throws Exception {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        smaller.add(edge.b);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<SimilarPair> out)
            throws Exception {
        List<String> list = new ArrayList<>();
        for (String v : smaller.get()) {
            list.add(v);
        }
        StarRounds.smallStar(
                ctx.getCurrentKey(), list, (u, v) -> out.collect(new SimilarPair(u, v, 0)));
    }
}
