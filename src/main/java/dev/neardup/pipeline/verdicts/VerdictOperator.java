package dev.neardup.pipeline.verdicts;

import dev.neardup.config.NearDupSettings;
import dev.neardup.io.Alert;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.CandidatePath;
import dev.neardup.pipeline.PendingContainmentVerdict;
import dev.neardup.pipeline.PendingVerdict;
import dev.neardup.pipeline.RawKeyedStateOperator;
import dev.neardup.pipeline.buckets.BandBucketOperator;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.similarity.SimilarityMode;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * Assembles the verdicts (keyed by document version: id and event time, {@link VerdictEvent#key}).
 * It collects the announcement of the document (one per input record) and the report of each of its
 * band buckets, and emits the verdict, one per input record, as soon as all of them have reported.
 * Bucket reports are final (see {@link BandBucketOperator}), so the verdict is final and does not
 * depend on arrival order. It also emits the {@link #ALERTS}: one per matched pair, as soon as the
 * first bucket reports it, always from the later document to the earlier one. A bucket's {@link
 * VerdictEvent#EARLY} matches (found as the document arrived, with members the watermark had
 * passed) are alerted at once and noted apart ({@link PendingVerdict#earlyAlerted}): the verdict is
 * made from the reports alone, and a pair alerted early is not alerted again. An EARLY event may
 * come before the document's announcement (another path), never after its subtask's last report
 * (the same channel), so never after the verdict.
 *
 * <p>Verdicts wait on the heap within {@code neardup.verdict.pending-buffer} ({@link
 * WaitingVerdicts}), beyond it in keyed state ({@code pending-verdict}) with a sweep timer each. A
 * deletion at T ({@link VerdictEvent#DELETE}) becomes a {@code DELETED} verdict when the watermark
 * passes T, after the verdicts of the documents up to T; it waits as verdicts do, under its own key
 * ({@link VerdictEvent#deletionKey}), marked by {@link PendingVerdict#candidates} {@code -1}.
 *
 * <p>Through a sample store ({@link CandidatePath#throughSampleStore()}), a verdict also waits for
 * one {@link VerdictEvent#RESULT} per candidate the bucket reports said were sent ({@link
 * VerdictEvent#forwarded}); its waiting verdicts are {@link PendingContainmentVerdict}s, spilled to
 * {@code pending-containment-verdict} and marked by their own first int in the raw keyed state;
 * each path refuses the other's.
 *
 * <p>It keeps the uid, state name and timers of the {@code KeyedProcessFunction} it replaced.
 * Design: docs/design/streaming-operators.md.
 */
public class VerdictOperator extends RawKeyedStateOperator<String, VerdictEvent, Verdict> {

    private static final long serialVersionUID = 1L;

    /** Side output: near-duplicate alerts, one per (document version, matched document). */
    public static final OutputTag<Alert> ALERTS =
            new OutputTag<>("alerts", TypeInformation.of(Alert.class));

    private final NearDupSettings settings;
    private final int bands;

    /** Where candidates are verified: the type and state of the waiting verdicts. */
    private final CandidatePath path;

    /** Verdicts beyond the heap budget (and those of state layout 2), with a sweep timer each. */
    private transient ValueState<PendingVerdict> spilled;

    /** How many verdicts wait in {@link #spilled}: while none do, a heap miss is a new verdict. */
    private transient long spilledCount;

    /** Verdicts and deletions waiting on the heap, within the budget. */
    private transient WaitingVerdicts waiting;

    private transient Counter spills;

    /** What is emitted: alerts, verdicts, deletions. */
    private transient VerdictAssembly assembly;

    public VerdictOperator(NearDupSettings settings) {
        this.settings = settings;
        this.bands = settings.similarity().bandKeys();
        this.path = CandidatePath.of(SimilarityMode.of(settings));
    }

    /** The type of the waiting verdicts. */
    @SuppressWarnings("unchecked")
    private TypeInformation<PendingVerdict> pendingType() {
        return (TypeInformation<PendingVerdict>) TypeInformation.of(path.pendingType);
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        SerializerConfig config = getExecutionConfig().getSerializerConfig();
        waiting =
                new WaitingVerdicts(
                        settings.verdicts().pendingBufferBytes(),
                        settings.buckets(),
                        path,
                        pendingType().createSerializer(config),
                        config);
        if (context.isRestored()) {
            readKeyGroups(context, waiting::read);
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        spilled =
                getRuntimeContext()
                        .getState(new ValueStateDescriptor<>(path.pendingStateName, pendingType()));
        openTimers("the verdict operator keeps waiting verdicts");
        var metrics = getMetricGroup();
        assembly =
                new VerdictAssembly(
                        bands,
                        SimilarityMode.of(settings).verification(),
                        output,
                        getProcessingTimeService(),
                        metrics);
        spills = metrics.counter("pendingVerdictsSpilled");
        // Verdicts in keyed state (spilled, or state layout 2): counted, so that lookups go there.
        try (var keys =
                getKeyedStateBackend()
                        .<VoidNamespace>getKeys(path.pendingStateName, VoidNamespace.INSTANCE)) {
            spilledCount = keys.count();
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        writeKeyGroups(context, waiting.entries(), Map.Entry::getKey, waiting::write);
    }

    @Override
    public void processElement(StreamRecord<VerdictEvent> element) throws Exception {
        VerdictEvent e = element.getValue();
        String key = (String) getCurrentKey();
        PendingVerdict p = waiting.get(key);
        boolean onHeap = p != null;
        if (!onHeap && spilledCount > 0) {
            p = path.upgrade(spilled.value());
        }
        boolean isNew = p == null;
        if (isNew) {
            p = path.newPending();
            p.docId = e.docId;
            p.url = e.url;
            p.eventTime = e.eventTime;
            p.reports = 0;
        }
        if (e.kind == VerdictEvent.DELETE) {
            // A deletion (current key: VerdictEvent.deletionKey) waits for the watermark to pass
            // its time: on the heap within the budget, else spilled with a timer at that time.
            if (isNew) {
                p.candidates = PendingVerdict.DELETION;
            }
            p.records++;
            p.addSource(e.source);
            if (e.url != null) {
                p.url = e.url;
            }
            keepWaiting(key, p, onHeap, isNew, p.eventTime);
            return;
        }
        if (e.kind == VerdictEvent.ANNOUNCE) {
            p.records++;
            p.addSource(e.source);
            p.url = e.url;
        } else {
            p.candidates += e.candidates;
            if (p.reports >= 0) {
                p.reports += e.reports;
            }
            p.countForwarded(e);
            assembly.addMatches(p, e);
        }
        if (p.complete(bands)) {
            // Every bucket of every record has reported (and in containment mode the sample store
            // has verified every candidate they sent): the verdict is final.
            if (onHeap) {
                waiting.release(key, p);
            } else if (!isNew) {
                timers.deleteEventTimeTimer(VoidNamespace.INSTANCE, waiting.sweepTime(p.eventTime));
                spilled.clear();
                spilledCount--;
            }
            assembly.emit(p);
            return;
        }
        keepWaiting(key, p, onHeap, isNew, waiting.sweepTime(p.eventTime));
    }

    /**
     * Keeps {@code p} (the current key's) waiting after a change: a new one on the heap within the
     * budget, else in {@link #spilled} with a timer at {@code timerTime}.
     */
    private void keepWaiting(
            String key, PendingVerdict p, boolean onHeap, boolean isNew, long timerTime)
            throws Exception {
        if (onHeap) {
            return;
        }
        if (isNew && waiting.offer(key, p)) {
            return;
        }
        if (isNew) {
            timers.registerEventTimeTimer(VoidNamespace.INSTANCE, timerTime);
            spilledCount++;
            spills.inc();
        }
        spilled.update(p);
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        waiting.releaseUpTo(mark.getTimestamp(), assembly::sweep, assembly::emit);
        super.processWatermark(mark); // fires the timers of the spilled verdicts and deletions
    }

    @Override
    public void onEventTime(InternalTimer<String, VoidNamespace> timer) throws Exception {
        PendingVerdict p = path.upgrade(spilled.value());
        if (p == null) {
            return;
        }
        spilled.clear();
        spilledCount--;
        if (p.isDeletion()) {
            assembly.emit(p);
        } else {
            assembly.sweep(p);
        }
    }

    /** Verdicts waiting on the heap (for tests). */
    int waitingOnHeap() {
        return waiting.size();
    }
}
