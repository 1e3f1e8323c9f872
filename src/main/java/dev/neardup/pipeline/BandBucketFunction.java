package dev.neardup.pipeline;

import dev.neardup.pipeline.BucketMembers.Member;
import dev.neardup.sketch.BbitMinHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * One LSH band bucket (keyed by band key): seed 001's "candidate pairs end up in the same bucket",
 * as keyed state. The bucket keeps, per member, what it needs to verify a candidate on the spot:
 * id, URL, event time, the b-bit signature and the fingerprint of the full signature ({@link
 * BucketMembers}, one packed state value per bucket). A document reaching the bucket is compared
 * with every member within {@code neardup.retention} of it; a pair whose estimated Jaccard
 * similarity reaches the threshold is a match, and the later of the two in the order (event time,
 * id) is the duplicate, whichever arrived first. Per document the bucket reads and writes its state
 * once and sends the {@link VerdictFunction} one message (only when it had members to compare
 * with), plus one per later member found to duplicate the document.
 *
 * <p>Bounds. A bucket keeps at most {@code neardup.bucket.capacity} members, the earliest in the
 * order (a later document still gets compared with them, but is not kept), so the first copy of a
 * page stays the one that later copies are reported against. Exact copies (equal fingerprints,
 * hence equal signatures) are kept once, as the earliest of them: 100,000 copies of one page cost
 * one member and one comparison each. A re-crawl (same id) is never compared with its own earlier
 * version; the bucket keeps the version with the latest content (or the earliest, when the content
 * did not change). Members older than the watermark by more than the retention are pruned when the
 * bucket is touched, and state TTL removes buckets never touched again.
 */
public class BandBucketFunction extends KeyedProcessFunction<Long, BandRecord, VerdictEvent>
        implements CheckpointedFunction {

    private static final long serialVersionUID = 1L;

    private final int capacity;
    private final long retentionMillis;
    private final double threshold;
    private final int numHashes;
    private final int bits;
    private final NearDupSettings settings;

    /**
     * The state-shaping settings ({@link StateCompatibility}) the buckets were built with, one copy
     * per subtask in union operator state, checked against the current settings on restore.
     */
    private transient ListState<String> shape;

    /**
     * The bucket's members ({@link BucketMembers}). Lives as long as the bucket has members: pruned
     * by the watermark minus the retention whenever the bucket is touched, and removed by state TTL
     * ({@code neardup.retention} of processing time after the last write, cleaned in RocksDB
     * compaction) when the bucket is never touched again.
     */
    private transient ValueState<byte[]> bucket;

    private transient int signatureBytes;
    private transient Counter candidates;
    private transient Counter matches;
    private transient Counter exactCopies;
    private transient Counter evictedByCapacity;
    private transient Counter evictedByAge;
    private transient Histogram bucketSize;

    public BandBucketFunction(NearDupSettings settings) {
        this.capacity = settings.bucketCapacity();
        this.retentionMillis = settings.retentionMillis();
        this.threshold = settings.threshold();
        this.numHashes = settings.numHashes();
        this.bits = settings.signatureBits();
        this.settings = settings;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        shape =
                context.getOperatorStateStore()
                        .getUnionListState(new ListStateDescriptor<>("state-shape", Types.STRING));
        if (context.isRestored()) {
            StateCompatibility.check(shape.get(), settings);
        }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        shape.update(List.of(StateCompatibility.encode(StateCompatibility.shape(settings))));
    }

    /** The state descriptor of the bucket: one packed value, with state TTL as a backstop. */
    private static ValueStateDescriptor<byte[]> descriptor(long retentionMillis) {
        ValueStateDescriptor<byte[]> descriptor =
                new ValueStateDescriptor<>(
                        "bucket", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
        descriptor.enableTimeToLive(
                StateTtlConfig.newBuilder(Duration.ofMillis(retentionMillis))
                        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                        .cleanupInRocksdbCompactFilter(1000)
                        .build());
        return descriptor;
    }

    @Override
    public void open(OpenContext openContext) {
        bucket = getRuntimeContext().getState(descriptor(retentionMillis));
        signatureBytes = BbitMinHash.packedBytes(numHashes, bits);
        var metrics = getRuntimeContext().getMetricGroup();
        candidates = metrics.counter("candidatesVerified");
        matches = metrics.counter("matches");
        exactCopies = metrics.counter("exactCopies");
        evictedByCapacity = metrics.counter("evictedByCapacity");
        evictedByAge = metrics.counter("evictedByAge");
        bucketSize = metrics.histogram("bucketSize", new DescriptiveStatisticsHistogram(1000));
    }

    @Override
    public void processElement(BandRecord doc, Context ctx, Collector<VerdictEvent> out)
            throws Exception {
        List<Member> members = BucketMembers.decode(bucket.value(), signatureBytes);
        long watermark = ctx.timerService().currentWatermark();
        long horizon = watermark == Long.MIN_VALUE ? Long.MIN_VALUE : watermark - retentionMillis;
        List<Member> kept = new ArrayList<>(members.size() + 1);
        boolean changed = false;
        boolean keepDoc = true;
        VerdictEvent found = null;
        int compared = 0;
        for (Member m : members) {
            if (m.eventTime() < horizon) {
                evictedByAge.inc();
                changed = true;
                continue;
            }
            boolean memberFirst = m.isBefore(doc.eventTime, doc.docId);
            if (m.id().equals(doc.docId)) {
                // The same page again: never compared with itself. Keep the version with the
                // latest content, or the earliest when the content did not change.
                boolean sameContent = m.fingerprint() == doc.fingerprint;
                boolean docWins = m.eventTime() != doc.eventTime && (sameContent != memberFirst);
                if (docWins) {
                    changed = true;
                    continue;
                }
                keepDoc = false;
                kept.add(m);
                continue;
            }
            if (Math.abs(m.eventTime() - doc.eventTime) > retentionMillis) {
                kept.add(m); // too far apart in time to be compared
                continue;
            }
            compared++;
            boolean exact = m.fingerprint() == doc.fingerprint;
            double similarity =
                    exact
                            ? 1.0
                            : BbitMinHash.estimateJaccard(
                                    m.signature(), doc.signature, numHashes, bits);
            if (similarity >= threshold) {
                matches.inc();
                if (memberFirst) {
                    if (found == null) {
                        found = VerdictEvent.matches(doc.docId, doc.url, doc.eventTime, doc.band);
                    }
                    found.addMatch(m.id(), m.url(), m.eventTime(), similarity);
                    if (exact) {
                        keepDoc = false; // an earlier exact copy already stands for it
                        exactCopies.inc();
                    }
                } else {
                    VerdictEvent later =
                            VerdictEvent.matches(m.id(), m.url(), m.eventTime(), doc.band);
                    later.addMatch(doc.docId, doc.url, doc.eventTime, similarity);
                    out.collect(later);
                    if (exact) {
                        exactCopies.inc();
                        changed = true; // the document stands for its later exact copy
                        continue;
                    }
                }
            }
            kept.add(m);
        }
        if (keepDoc) {
            int at = 0;
            while (at < kept.size() && kept.get(at).isBefore(doc.eventTime, doc.docId)) {
                at++;
            }
            if (at < capacity) {
                kept.add(
                        at,
                        new Member(
                                doc.eventTime, doc.fingerprint, doc.signature, doc.docId, doc.url));
                changed = true;
            }
        }
        while (kept.size() > capacity) {
            kept.remove(kept.size() - 1); // the latest member makes room
            evictedByCapacity.inc();
            changed = true;
        }
        if (changed) {
            if (kept.isEmpty()) {
                bucket.clear();
            } else {
                bucket.update(BucketMembers.encode(kept));
            }
        }
        candidates.inc(compared);
        bucketSize.update(kept.size());
        if (compared > 0) {
            if (found == null) {
                found = VerdictEvent.matches(doc.docId, doc.url, doc.eventTime, doc.band);
            }
            found.candidates = compared;
        }
        if (found != null) {
            out.collect(found);
        }
    }
}
