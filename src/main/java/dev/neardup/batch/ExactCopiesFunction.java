package dev.neardup.batch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Exact copies first (keyed by the signature's 64-bit fingerprint): of documents with equal
 * signatures only the earliest, by (event time, id), goes on to the band buckets (main output); the
 * others get one edge each to it ({@link #PAIRS}, similarity 1.0). Every document leaves as a
 * vertex ({@link #VERTICES}); a copy carries the earliest one's key instead of its signature, which
 * is held once per group. With exact verification the group is the documents with equal shingle
 * sets.
 */
public class ExactCopiesFunction extends KeyedProcessFunction<Long, DedupeDoc, DedupeDoc> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<DedupeDoc> VERTICES =
            new OutputTag<>("vertices", DedupeSerializers.DEDUPE_DOC);

    public static final OutputTag<SimilarPair> PAIRS =
            new OutputTag<>("copy-pairs", DedupeSerializers.SIMILAR_PAIR);

    private transient ListState<DedupeDoc> members;
    private transient ValueState<long[]> signature;
    private transient LongCounter copies;

    @Override
    public void open(OpenContext openContext) {
        members = KeyedStates.list(getRuntimeContext(), "members", DedupeDoc.class);
        signature = KeyedStates.value(getRuntimeContext(), "signature", long[].class);
        copies = DedupeCounters.counter(getRuntimeContext(), DedupeJob.COPIES);
    }

    @Override
    public void processElement(DedupeDoc doc, Context ctx, Collector<DedupeDoc> out)
            throws Exception {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        if (signature.value() == null) {
            signature.update(doc.signature);
        }
        doc.signature = null;
        members.add(doc);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<DedupeDoc> out)
            throws Exception {
        List<DedupeDoc> group = new ArrayList<>();
        members.get().forEach(group::add);
        group.sort(Comparator.comparing(d -> d.key));
        DedupeDoc first = group.get(0);
        first.signature = signature.value();
        ctx.output(VERTICES, first);
        out.collect(first);
        for (int i = 1; i < group.size(); i++) {
            DedupeDoc copy = group.get(i);
            copy.copyOf = first.key;
            ctx.output(VERTICES, copy);
            ctx.output(PAIRS, new SimilarPair(first.key, copy.key, 1.0));
        }
        copies.add(group.size() - 1);
    }
}
