package dev.neardup.pipeline.buckets;

import dev.neardup.config.NearDupSettings;
import dev.neardup.lsh.BucketKeyFilter;
import dev.neardup.pipeline.CandidatePath;
import dev.neardup.pipeline.DeletionCopies;
import dev.neardup.pipeline.RawKeyedStateOperator;
import dev.neardup.pipeline.StateCompatibility;
import dev.neardup.pipeline.buckets.BucketMembers.Member;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.verdicts.VerdictOperator;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.similarity.Verification;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.InternalTimeServiceManager;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One LSH band bucket (keyed by band key): where candidate pairs end up together (Leskovec,
 * Rajaraman and Ullman, Mining of Massive Datasets, 2014, ch. 3), as keyed state: its members, with
 * what verifying a candidate on the spot needs ({@link BucketMembers}, one packed state value per
 * bucket). A pair whose estimate reaches the threshold ({@link Verification}) is a match, and the
 * later of the two in the order (event time, id) is the duplicate.
 *
 * <p>A document waits until the event-time watermark passes it: on the heap within {@code
 * neardup.bucket.order-buffer} per subtask ({@link WaitingRecords}), beyond it in keyed state
 * ({@code waiting}, by event time) with an event-time timer each. The bucket then takes the waiting
 * documents in, in the order (event time, id) ({@link BucketLogic}: retention, capacity, exact
 * copies, re-crawls), so what it holds and reports depends on that order only. After a watermark,
 * the subtask sends the {@link VerdictOperator} one report per document for all of its band records
 * taken in here ({@link VerdictEvent#reports}). Deletions reach every subtask ({@link
 * DeletionCopies}) and are kept as they arrive ({@link BucketDeletions}). The mode's {@link
 * CandidatePath} decides what band records and members carry and what happens to a candidate and to
 * the reports (through a sample store: {@link #SAMPLE_STORE}). A bucket that the subtask's {@link
 * BucketKeyFilter} knows not to exist is not read (most of a new document's buckets); the filter is
 * rebuilt from the state's keys on restore.
 *
 * <p>It keeps the state names, timers and uid of the {@code KeyedProcessFunction} it replaced
 * (state layout 2 restores as it was; the deletions are operator state of their own, empty in older
 * savepoints). Design: docs/design/streaming-operators.md.
 */
public class BandBucketOperator extends RawKeyedStateOperator<Long, BandRecord, VerdictEvent> {

    private static final long serialVersionUID = 2L;

    private static final Logger LOG = LoggerFactory.getLogger(BandBucketOperator.class);

    /**
     * Reports held back at most (documents): a watermark that passes a whole input file sends its
     * reports in rounds of this many, so they never need memory in proportion to the input.
     */
    static final int MAX_HELD_REPORTS = 10_000;

    /** The order of the job within a bucket: event time, id, then fingerprint (two versions). */
    static final Comparator<BandRecord> ORDER =
            Comparator.<BandRecord>comparingLong(r -> r.eventTime)
                    .thenComparing(r -> r.docId)
                    .thenComparingLong(r -> r.fingerprint);

    /**
     * How far ahead of the watermark (event time) a document must at least be for an early
     * comparison: one that the watermark passes sooner is taken in about as soon, and an early
     * comparison costs a read of its bucket. On a live stream the watermark trails by the
     * out-of-orderness, so early alerts come whenever that is more than this.
     */
    static final long EARLY_MIN_WAIT_MILLIS = 1000;

    /** Side output, containment mode: the reports with their candidate pairs, to the intake. */
    public static final OutputTag<SampleStoreRecord> SAMPLE_STORE =
            new OutputTag<>("sample-store", TypeInformation.of(SampleStoreRecord.class));

    private final NearDupSettings settings;

    /** Where candidates are verified (here, or by a sample store after the buckets). */
    private final CandidatePath path;

    /** The {@link StateCompatibility} shape, one copy per subtask in union operator state. */
    private transient ListState<String> shape;

    /** The deletions, the same on every subtask. */
    private transient BucketDeletions deletions;

    /** Waiting documents read from raw keyed state on restore, put back by {@link #open}. */
    private transient List<BandRecord> restoredWaiting;

    /**
     * The bucket's members ({@link BucketMembers}): pruned by the retention when touched, removed
     * by state TTL ({@code neardup.retention} after the last write) when never touched again.
     */
    private transient ValueState<byte[]> bucket;

    /** The keys that may have a bucket: the others are not looked up. */
    private transient BucketKeyFilter keys;

    private transient Counter readsSkipped;

    /** Documents waiting beyond the heap budget, by event time, each with an event-time timer. */
    private transient MapState<Long, byte[]> waiting;

    /** Documents waiting on the heap (all later than the watermark). */
    private transient WaitingRecords buffered;

    /** The heap's documents the watermark being processed passed, sorted for their buckets. */
    private transient DueRecords due;

    /** What the bucket does with a document it takes in, and the reports it holds back. */
    private transient BucketLogic logic;

    private transient int signatureBytes;

    /** Whether a document that waits is first compared with the settled members (early alerts). */
    private transient boolean earlyAlerts;

    /** The number of key groups: the state backend orders keys by key group first. */
    private transient int maxParallelism;

    private transient Counter spilled;
    private transient Histogram bucketSize;

    public BandBucketOperator(NearDupSettings settings) {
        this.settings = settings;
        this.path = CandidatePath.of(SimilarityMode.of(settings));
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        shape =
                context.getOperatorStateStore()
                        .getUnionListState(new ListStateDescriptor<>("state-shape", Types.STRING));
        deletions = new BucketDeletions(context.getOperatorStateStore(), settings.buckets());
        signatureBytes = path.signatureBytes(SimilarityMode.of(settings).verification());
        restoredWaiting = new ArrayList<>();
        if (context.isRestored()) {
            StateCompatibility.check(shape.get(), settings);
            readKeyGroups(
                    context, in -> restoredWaiting.addAll(WaitingRecords.read(in, signatureBytes)));
        }
    }

    /** The state descriptor of the bucket: one packed value, with state TTL as a backstop. */
    private static ValueStateDescriptor<byte[]> descriptor(long retentionMillis) {
        ValueStateDescriptor<byte[]> descriptor = BucketMembers.packedState("bucket");
        descriptor.enableTimeToLive(
                StateTtlConfig.newBuilder(Duration.ofMillis(retentionMillis))
                        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                        .cleanupInRocksdbCompactFilter(1000)
                        .build());
        return descriptor;
    }

    @Override
    public void open() throws Exception {
        super.open();
        bucket = getRuntimeContext().getState(descriptor(settings.buckets().retentionMillis()));
        keys =
                new BucketKeyFilter(
                        settings.buckets().keyFilterBytes(), settings.buckets().retentionMillis());
        if (keys.enabled()) {
            rebuildKeyFilter();
        }
        waiting =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "waiting",
                                        Types.LONG,
                                        PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        openTimers("the band buckets keep documents waiting for the watermark");
        buffered = new WaitingRecords(settings.buckets().orderBufferBytes());
        due = DueRecords.none();
        maxParallelism = getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
        var metrics = getMetricGroup();
        logic =
                new BucketLogic(
                        settings.buckets(),
                        SimilarityMode.of(settings).verification(),
                        path,
                        deletions,
                        output,
                        metrics);
        earlyAlerts = settings.verdicts().earlyAlerts() && signatureBytes > 0;
        spilled = metrics.counter("waitingSpilled");
        metrics.gauge("deletionsKept", (Gauge<Integer>) deletions::ids);
        bucketSize = metrics.histogram("bucketSize", new DescriptiveStatisticsHistogram(1000));
        readsSkipped = metrics.counter("bucketReadsSkipped");
        metrics.gauge("bucketKeyFilterBytes", (Gauge<Long>) keys::bytes);
        for (BandRecord r : restoredWaiting) {
            setCurrentKey(r.bandKey);
            await(r);
        }
        restoredWaiting = null;
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        shape.update(List.of(StateCompatibility.encode(StateCompatibility.shape(settings))));
        writeKeyGroups(context, buffered.records(), r -> r.bandKey, WaitingRecords::write);
    }

    /**
     * A document waits here until the watermark passes it; with early alerts, its matches with the
     * members, all of which the watermark has passed, are sent at once ({@link
     * BucketLogic#sendEarly}). One behind this operator's watermark (it ran ahead of the signature
     * operator's: an idle partition resuming with older documents) is taken in at once, compared
     * with the members in both directions; matches then reported to a later document whose verdict
     * is out are counted as {@code orphanMatches}.
     */
    @Override
    public void processElement(StreamRecord<BandRecord> element) throws Exception {
        BandRecord r = element.getValue();
        if (DeletionCopies.isDeletion(r)) {
            deletions.keep(r);
            return;
        }
        if (r.eventTime <= timers.currentWatermark()) {
            takeAll(List.of(r));
            logic.sendReports();
            return;
        }
        if (earlyAlerts
                && Math.max(r.eventTime, Long.MIN_VALUE + EARLY_MIN_WAIT_MILLIS)
                                - EARLY_MIN_WAIT_MILLIS
                        >= timers.currentWatermark()) {
            logic.sendEarly(BucketMembers.decode(read(), signatureBytes), r);
        }
        await(r);
    }

    /** Bucket reads left out because the key filter knew the bucket did not exist, for tests. */
    long readsSkipped() {
        return readsSkipped.getCount();
    }

    /** Deletions kept: ids and their deletion times, for tests. */
    Map<String, List<Long>> deletionsKept() throws Exception {
        return deletions.kept();
    }

    /** {@code r} waits for the watermark: on the heap, else in {@code waiting} (its bucket). */
    private void await(BandRecord r) throws Exception {
        if (!buffered.offer(r)) {
            waiting.put(r.eventTime, BucketMembers.appendRecord(waiting.get(r.eventTime), r));
            timers.registerEventTimeTimer(VoidNamespace.INSTANCE, r.eventTime);
            spilled.inc();
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        due = DueRecords.of(buffered.drainUpTo(mark.getTimestamp()), maxParallelism);
        // Timers of waiting entries fire in event-time order; each takes in its entry together
        // with the due documents of its bucket up to that time (onEventTime).
        InternalTimeServiceManager<?> timeServices = getTimeServiceManager().orElseThrow();
        timeServices.advanceWatermark(mark);
        // The rest in the order of the keys in the state backend: RocksDB then inserts into its
        // memtable near the previous insert (half the cost of inserting at random, with 60,000
        // documents).
        // A bucket taken in before another adds only its own key to the filter.
        due.forEachBucket(
                keys::mightContain,
                (bandKey, ordered, mayExist) -> {
                    setCurrentKey(bandKey);
                    takeAll(ordered, mayExist);
                });
        due = DueRecords.none();
        logic.sendReports();
        if (deletions.any()) {
            deletions.prune(mark.getTimestamp());
        }
        keys.expire(System.currentTimeMillis());
        output.emitWatermark(mark);
    }

    @Override
    public void onEventTime(InternalTimer<Long, VoidNamespace> timer) throws Exception {
        long time = timer.getTimestamp();
        List<BandRecord> batch =
                BucketMembers.decodeRecords(waiting.get(time), timer.getKey(), signatureBytes);
        waiting.remove(time);
        due.takeUpTo(timer.getKey(), time, batch);
        batch.sort(ORDER);
        takeAll(batch);
    }

    /** The current bucket's packed members, null if it has none (or may be known to have none). */
    private byte[] read() throws Exception {
        return read(keys.mightContain((Long) getCurrentKey()));
    }

    /** As {@link #read()}, with what the key filter says of the current bucket. */
    private byte[] read(boolean mayExist) throws Exception {
        if (mayExist) {
            return bucket.value();
        }
        readsSkipped.inc();
        return null;
    }

    /**
     * Puts the keys of the buckets in the state backend into the key filter (restored, they are
     * those of this subtask's key groups). Their last writes are not known: they count as written
     * now.
     */
    private void rebuildKeyFilter() throws Exception {
        long start = System.nanoTime();
        long now = System.currentTimeMillis();
        try (Stream<Object> stored =
                getKeyedStateBackend().<VoidNamespace>getKeys("bucket", VoidNamespace.INSTANCE)) {
            stored.forEach(k -> keys.add((Long) k, now));
        }
        if (keys.keys() > 0) {
            LOG.info(
                    "Band bucket key filter rebuilt from {} stored buckets in {} ms ({} bytes)",
                    keys.keys(),
                    (System.nanoTime() - start) / 1_000_000,
                    keys.bytes());
        }
    }

    /** Takes in {@code ordered} (of the current bucket): one read and at most one write. */
    private void takeAll(List<BandRecord> ordered) throws Exception {
        if (!ordered.isEmpty()) {
            takeAll(ordered, keys.mightContain((Long) getCurrentKey()));
        }
    }

    /** As {@link #takeAll(List)}, with what the key filter says of the current bucket. */
    private void takeAll(List<BandRecord> ordered, boolean mayExist) throws Exception {
        List<Member> members =
                new ArrayList<>(BucketMembers.decode(read(mayExist), signatureBytes));
        boolean changed = false;
        for (BandRecord r : ordered) {
            changed |= logic.take(members, r);
        }
        if (changed) {
            if (members.isEmpty()) {
                bucket.clear();
            } else {
                bucket.update(path.encode(members, signatureBytes));
                keys.add((Long) getCurrentKey(), System.currentTimeMillis());
            }
        }
        bucketSize.update(members.size());
    }
}
