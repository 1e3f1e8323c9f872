package dev.neardup.pipeline;

import dev.neardup.config.NearDupSettings;
import dev.neardup.pipeline.buckets.BandBucketOperator;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

/**
 * {@link BandBucketOperator} in Flink's keyed one-input harness, wired as {@link NearDupJob} wires
 * it: band records keyed by band key, and deletions as the signature operator sends them, one copy
 * per subtask ({@link DeletionCopies}). Its output is the bucket reports ({@link
 * #extractOutputValues}); the early matches sent as documents arrive are kept apart ({@link
 * #earlyEvents}).
 */
public final class BucketHarness
        extends KeyedOneInputStreamOperatorTestHarness<Long, BandRecord, VerdictEvent> {

    private final DeletionCopies copies;
    private final KeyGroupRange owned;
    private long watermark = Long.MIN_VALUE;
    private int seen;

    BucketHarness(NearDupSettings settings, int maxParallelism, int parallelism, int subtask)
            throws Exception {
        super(
                new BandBucketOperator(settings),
                r -> r.bandKey,
                Types.LONG,
                maxParallelism,
                parallelism,
                subtask);
        copies = new DeletionCopies(maxParallelism);
        owned =
                KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
                        maxParallelism, parallelism, subtask);
    }

    /** The reports to the verdict operator so far, without the {@link #earlyEvents}. */
    @Override
    public List<VerdictEvent> extractOutputValues() {
        return super.extractOutputValues().stream()
                .filter(e -> e.kind != VerdictEvent.EARLY)
                .toList();
    }

    /** Everything sent to the verdict operator so far, early matches and reports, in order. */
    public List<VerdictEvent> allOutput() {
        return super.extractOutputValues();
    }

    /** The {@link VerdictEvent#EARLY} events so far, in order. */
    public List<VerdictEvent> earlyEvents() {
        return super.extractOutputValues().stream()
                .filter(e -> e.kind == VerdictEvent.EARLY)
                .toList();
    }

    /** The deletion of {@code docId} at {@code time}: the copy for this subtask. */
    public void delete(String docId, long time) throws Exception {
        BandRecord copy = new BandRecord();
        copy.bandKey = copies.keyOf(owned.getStartKeyGroup());
        copy.band = DeletionCopies.BAND;
        copy.docId = docId;
        copy.eventTime = time;
        processElement(copy, time);
    }

    /**
     * Feeds one record, then moves the watermark to it if it is the latest so far (so the bucket
     * takes it in; an earlier record arrives late and is taken in at once), and returns the
     * messages it caused.
     */
    public List<VerdictEvent> feed(BandRecord r) throws Exception {
        return feedAll(List.of(r));
    }

    /** As {@link #feed}, for records that arrive before one watermark passes them all. */
    public List<VerdictEvent> feedAll(List<BandRecord> records) throws Exception {
        long latest = Long.MIN_VALUE;
        for (BandRecord r : records) {
            processElement(r, r.eventTime);
            latest = Math.max(latest, r.eventTime);
        }
        if (latest > watermark) {
            watermark = latest;
            processWatermark(new Watermark(watermark));
        }
        List<VerdictEvent> all = extractOutputValues();
        List<VerdictEvent> step = new ArrayList<>(all.subList(seen, all.size()));
        seen = all.size();
        return step;
    }
}
