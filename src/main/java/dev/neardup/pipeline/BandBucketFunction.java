package dev.neardup.pipeline;

import dev.neardup.pipeline.BucketMembers.Member;
import dev.neardup.sketch.BbitMinHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
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
 * BucketMembers}, one packed state value per bucket). A pair whose estimated Jaccard similarity
 * reaches the threshold is a match, and the later of the two in the order (event time, id) is the
 * duplicate.
 *
 * <p>Order. A document waits in the bucket until the event-time watermark passes it; the bucket
 * then takes in the waiting documents in the order (event time, id), compares each with the members
 * within {@code neardup.retention} before it, and keeps it. So what a bucket holds and reports
 * depends on that order only, not on which partition, split or subtask delivered first (in file
 * mode the watermark passes everything at the end of the input, so the buckets work then). Per
 * document the bucket writes the waiting entry and its timer, then reads and writes the bucket
 * once, and sends the {@link VerdictFunction} one report (with the matches, if any): the verdict
 * operator knows a document is decided when all its buckets have reported.
 *
 * <p>Bounds. A bucket keeps at most {@code neardup.bucket.capacity} members, the earliest in the
 * order (a later document still gets compared with them, but is not kept), so the first copy of a
 * page stays the one that later copies are reported against. Exact copies (equal fingerprints,
 * hence equal signatures) are kept once, as the earliest of them: 100,000 copies of one page cost
 * one member and one comparison each. A re-crawl (same id) is never compared with its own earlier
 * version; the bucket keeps the version with the latest content (or the earliest, when the content
 * did not change). Members older than the document being taken in by more than the retention are
 * pruned then, and state TTL removes buckets never touched again.
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

    /**
     * Documents that reached the bucket before the watermark passed them, by event time ({@link
     * BucketMembers#appendRecord}); each entry has an event-time timer and is removed when it
     * fires.
     */
    private transient MapState<Long, byte[]> pending;

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
        pending =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "waiting",
                                        Types.LONG,
                                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        signatureBytes = BbitMinHash.packedBytes(numHashes, bits);
        var metrics = getRuntimeContext().getMetricGroup();
        candidates = metrics.counter("candidatesVerified");
        matches = metrics.counter("matches");
        exactCopies = metrics.counter("exactCopies");
        evictedByCapacity = metrics.counter("evictedByCapacity");
        evictedByAge = metrics.counter("evictedByAge");
        bucketSize = metrics.histogram("bucketSize", new DescriptiveStatisticsHistogram(1000));
    }

    /**
     * A document waits here until the watermark passes it, then the bucket takes in everything that
     * waits, in the order (event time, id): the bucket's members and matches do not depend on the
     * order in which documents arrived (partitions, splits and subtasks race), only on that order.
     * A document that arrives behind this operator's watermark is taken in at once, compared with
     * the members in both directions. The signature operator moves documents that are late there
     * just after its own watermark, so this happens only when the buckets' watermark ran ahead of
     * it: a partition that was idle (so did not hold the watermark back) resuming with older
     * documents; matches then reported to a later document whose verdict is out are counted as
     * {@code orphanMatches}.
     */
    @Override
    public void processElement(BandRecord doc, Context ctx, Collector<VerdictEvent> out)
            throws Exception {
        if (doc.eventTime <= ctx.timerService().currentWatermark()) {
            take(doc, out);
            return;
        }
        pending.put(doc.eventTime, BucketMembers.appendRecord(pending.get(doc.eventTime), doc));
        ctx.timerService().registerEventTimeTimer(doc.eventTime);
    }

    /** Same event time: by id, then by fingerprint (two versions of a page at the same time). */
    private static final Comparator<BandRecord> SAME_TIME_ORDER =
            Comparator.<BandRecord, String>comparing(r -> r.docId)
                    .thenComparingLong(r -> r.fingerprint);

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<VerdictEvent> out)
            throws Exception {
        List<BandRecord> waiting =
                BucketMembers.decodeRecords(
                        pending.get(timestamp), ctx.getCurrentKey(), signatureBytes);
        pending.remove(timestamp);
        waiting.sort(SAME_TIME_ORDER);
        for (BandRecord doc : waiting) {
            take(doc, out);
        }
    }

    /**
     * Compares {@code doc} with the members and updates them. Members are earlier than the
     * document, except when it arrived late: then a match is reported to the later of the two.
     */
    private void take(BandRecord doc, Collector<VerdictEvent> out) throws Exception {
        List<Member> members = BucketMembers.decode(bucket.value(), signatureBytes);
        long horizon =
                doc.eventTime < Long.MIN_VALUE + retentionMillis
                        ? Long.MIN_VALUE
                        : doc.eventTime - retentionMillis;
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
        if (found == null) {
            found = VerdictEvent.matches(doc.docId, doc.url, doc.eventTime, doc.band);
        }
        found.candidates = compared;
        found.reports = 1;
        out.collect(found);
    }
}
