package dev.neardup.pipeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * One LSH band bucket (keyed by band key): seed 001's "candidate pairs end up in the same bucket",
 * as keyed state. When a document arrives, every current member of its bucket is a candidate: the
 * bucket sends a {@link SignatureEvent#CANDIDATE} per member to the signature store (keyed by the
 * member), registers the new document there, and tells the verdict operator how many candidates
 * this band produced ({@link #BAND_DONE}).
 *
 * <p>Bounds: a bucket keeps at most {@code neardup.bucket.capacity} members, the most recent by
 * event time; members older than the bucket's newest member by more than {@code neardup.retention}
 * are pruned when the bucket is next touched; a re-crawl (same document id) replaces its old entry
 * and never matches itself. Every member that leaves is released in the signature store. Work per
 * document is therefore O(capacity) per band, however hot the bucket.
 */
public class BandBucketFunction extends KeyedProcessFunction<Long, BandRecord, SignatureEvent> {

    private static final long serialVersionUID = 1L;

    /** Side output: one {@link VerdictEvent#BAND_DONE} per input record. */
    public static final OutputTag<VerdictEvent> BAND_DONE =
            new OutputTag<>("band-done", TypeInformation.of(VerdictEvent.class));

    private final int capacity;
    private final long retentionMillis;

    /**
     * The bucket's members (docId, record, event time), at most {@code neardup.bucket.capacity} of
     * them. Lives as long as the bucket has members: pruned by event-time retention and by capacity
     * whenever the bucket is touched, and removed by state TTL ({@code neardup.retention} of
     * processing time after the last write, cleaned in RocksDB compaction) when the bucket is never
     * touched again.
     */
    private transient ListState<BucketMember> members;

    private transient Counter candidates;
    private transient Counter evictedByCapacity;
    private transient Counter evictedByAge;
    private transient Histogram bucketSize;

    public BandBucketFunction(NearDupSettings settings) {
        this.capacity = settings.bucketCapacity();
        this.retentionMillis = settings.retentionMillis();
    }

    @Override
    public void open(OpenContext openContext) {
        ListStateDescriptor<BucketMember> descriptor =
                new ListStateDescriptor<>("bucket-members", BucketMember.class);
        descriptor.enableTimeToLive(
                StateTtlConfig.newBuilder(Duration.ofMillis(retentionMillis))
                        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                        .cleanupInRocksdbCompactFilter(1000)
                        .build());
        members = getRuntimeContext().getListState(descriptor);
        var metrics = getRuntimeContext().getMetricGroup();
        candidates = metrics.counter("candidates");
        evictedByCapacity = metrics.counter("evictedByCapacity");
        evictedByAge = metrics.counter("evictedByAge");
        bucketSize = metrics.histogram("bucketSize", new DescriptiveStatisticsHistogram(1000));
    }

    @Override
    public void processElement(BandRecord doc, Context ctx, Collector<SignatureEvent> out)
            throws Exception {
        List<BucketMember> current = new ArrayList<>();
        long newest = doc.eventTime;
        for (BucketMember m : members.get()) {
            current.add(m);
            newest = Math.max(newest, m.eventTime);
        }
        long horizon = newest - retentionMillis;
        List<BucketMember> kept = new ArrayList<>(current.size() + 1);
        boolean changed = false;
        int sent = 0;
        for (BucketMember m : current) {
            if (m.docId.equals(doc.docId) && doc.eventTime >= horizon) {
                out.collect(SignatureEvent.release(m.docId)); // a re-crawl replaces its entry
                changed = true;
            } else if (m.eventTime < horizon) {
                out.collect(SignatureEvent.release(m.docId));
                evictedByAge.inc();
                changed = true;
            } else if (m.docId.equals(doc.docId)) {
                kept.add(m); // a stale replay beyond the horizon leaves the live entry alone
            } else {
                out.collect(SignatureEvent.candidate(m.docId, doc));
                sent++;
                kept.add(m);
            }
        }
        if (doc.eventTime >= horizon) {
            kept.add(new BucketMember(doc.docId, doc.instance, doc.eventTime));
            out.collect(SignatureEvent.register(doc));
            changed = true;
            if (kept.size() > capacity) {
                // Keep the most recent by event time; among equal times, the later arrivals.
                kept.sort(Comparator.comparingLong(m -> m.eventTime));
                while (kept.size() > capacity) {
                    BucketMember evicted = kept.remove(0);
                    out.collect(SignatureEvent.release(evicted.docId));
                    evictedByCapacity.inc();
                }
            }
        }
        if (changed) {
            members.update(kept);
        }
        candidates.inc(sent);
        bucketSize.update(kept.size());

        VerdictEvent done = new VerdictEvent();
        done.kind = VerdictEvent.BAND_DONE;
        done.instance = doc.instance;
        done.docId = doc.docId;
        done.url = doc.url;
        done.eventTime = doc.eventTime;
        done.band = doc.band;
        done.candidates = sent;
        ctx.output(BAND_DONE, done);
    }
}
