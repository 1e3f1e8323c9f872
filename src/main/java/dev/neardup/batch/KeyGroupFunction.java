package dev.neardup.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The shape of the dedupe job's keyed steps (a MapReduce reducer's shape: all object ids with the
 * same key arrive together): in BATCH mode, collect all elements of a key, then handle them
 * together when the input of the key ends (an event-time timer at the end of time, which BATCH mode
 * fires after the key's last element).
 *
 * @param <K> the key
 * @param <IN> the elements of a key
 * @param <OUT> the output
 */
public abstract class KeyGroupFunction<K, IN, OUT> extends KeyedProcessFunction<K, IN, OUT> {

    private static final long serialVersionUID = 1L;

    private final Class<IN> type;
    private transient ListState<IN> members;

    protected KeyGroupFunction(Class<IN> type) {
        this.type = type;
    }

    @Override
    public final void open(OpenContext openContext) throws Exception {
        members = KeyedStates.list(getRuntimeContext(), "members", type);
        setUp();
    }

    /** Counters, accumulators and helpers of the task. */
    protected abstract void setUp() throws Exception;

    @Override
    public final void processElement(IN element, Context ctx, Collector<OUT> out) throws Exception {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        members.add(element);
    }

    @Override
    public final void onTimer(long timestamp, OnTimerContext ctx, Collector<OUT> out)
            throws Exception {
        List<IN> group = new ArrayList<>();
        members.get().forEach(group::add);
        onKeyEnd(group, ctx, out);
    }

    /** All elements of the key, in arrival order. */
    protected abstract void onKeyEnd(List<IN> group, OnTimerContext ctx, Collector<OUT> out)
            throws Exception;
}
