package dev.neardup.batch;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * One document per id (keyed by id, BATCH mode: all records of an id, then the end of the key): a
 * page crawled several times is deduplicated as its latest version (largest fetchedAt, then the
 * later record in input order); a deletion line ({@code "deleted": true}) at time T removes the
 * versions up to T, as in the streaming job, so a page deleted after its last fetch is left out.
 */
public class LatestVersionFunction extends KeyedProcessFunction<String, DedupeDoc, DedupeDoc> {

    private static final long serialVersionUID = 1L;

    private transient ValueState<DedupeDoc> latest;
    private transient ValueState<Long> deletedAt;
    private transient LongCounter superseded;
    private transient LongCounter deleted;

    @Override
    public void open(OpenContext openContext) {
        latest = KeyedStates.value(getRuntimeContext(), "latest", DedupeDoc.class);
        deletedAt = KeyedStates.value(getRuntimeContext(), "deleted", Long.class);
        superseded = DedupeCounters.counter(getRuntimeContext(), DedupeJob.SUPERSEDED);
        deleted = DedupeCounters.counter(getRuntimeContext(), DedupeJob.DELETED);
    }

    @Override
    public void processElement(DedupeDoc doc, Context ctx, Collector<DedupeDoc> out)
            throws Exception {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        if (doc.deleted) {
            Long at = deletedAt.value();
            if (at == null || doc.eventTime > at) {
                deletedAt.update(doc.eventTime);
            }
            return;
        }
        DedupeDoc current = latest.value();
        if (current == null) {
            latest.update(doc);
            return;
        }
        superseded.add(1);
        if (doc.eventTime > current.eventTime
                || (doc.eventTime == current.eventTime && doc.order > current.order)) {
            latest.update(doc);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<DedupeDoc> out)
            throws Exception {
        DedupeDoc doc = latest.value();
        if (doc == null) {
            return;
        }
        Long at = deletedAt.value();
        if (at != null && at >= doc.eventTime) {
            deleted.add(1);
            return;
        }
        out.collect(doc);
    }
}
