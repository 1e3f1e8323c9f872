package dev.neardup.pipeline.verdicts;

import dev.neardup.config.BucketSettings;
import dev.neardup.pipeline.CandidatePath;
import dev.neardup.pipeline.OlderPendingVerdicts;
import dev.neardup.pipeline.PendingVerdict;
import dev.neardup.pipeline.StateCompatibility;
import java.io.IOException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.types.StringValue;

/**
 * The verdicts a {@link VerdictOperator} subtask holds on the heap, and the raw keyed-state layout
 * they are written in at checkpoints ({@link #write}; {@link #read} also reads the older layouts,
 * through {@link OlderPendingVerdicts}).
 *
 * <p>Within {@code neardup.verdict.pending-buffer} verdicts wait on the heap, written to raw keyed
 * state per key group at each checkpoint (a restore at another parallelism gives each subtask its
 * own); beyond it the operator keeps them in keyed state ({@code pending-verdict}, as in state
 * layout 2) with a sweep timer each. A verdict still waiting after the retention is swept ({@link
 * #sweepTime}).
 */
final class WaitingVerdicts {

    /** The order in which waiting verdicts are swept: event time, then key. */
    private static final Comparator<Map.Entry<String, PendingVerdict>> SWEEP_ORDER =
            Comparator.<Map.Entry<String, PendingVerdict>>comparingLong(e -> e.getValue().eventTime)
                    .thenComparing(Map.Entry::getKey);

    private final long heapBudget;
    private final BucketSettings buckets;

    /** Where candidates are verified: the waiting verdicts' type and raw state marker. */
    private final CandidatePath path;

    private final TypeSerializer<PendingVerdict> serializer;
    private final SerializerConfig serializerConfig;

    /** Verdicts waiting on the heap, by key. */
    private final HashMap<String, PendingVerdict> waiting = new HashMap<>();

    /** {@link #waiting} in sweep order. */
    private final TreeSet<Map.Entry<String, PendingVerdict>> bySweepTime =
            new TreeSet<>(SWEEP_ORDER);

    /** Deletions waiting on the heap, by event time: due when the watermark passes it. */
    private final TreeSet<Map.Entry<String, PendingVerdict>> deletionsDue =
            new TreeSet<>(SWEEP_ORDER);

    private long heapBytes;

    WaitingVerdicts(
            long heapBudget,
            BucketSettings buckets,
            CandidatePath path,
            TypeSerializer<PendingVerdict> serializer,
            SerializerConfig serializerConfig) {
        this.heapBudget = heapBudget;
        this.buckets = buckets;
        this.path = path;
        this.serializer = serializer;
        this.serializerConfig = serializerConfig;
    }

    /** The verdict waiting on the heap under {@code key}, or null. */
    PendingVerdict get(String key) {
        return waiting.get(key);
    }

    /** Verdicts waiting on the heap. */
    int size() {
        return waiting.size();
    }

    /** Holds {@code p} if it fits in the budget; false when it does not (it is not held). */
    boolean offer(String key, PendingVerdict p) {
        if (heapBytes + heapBytes(p) > heapBudget) {
            return false;
        }
        hold(key, p);
        return true;
    }

    void hold(String key, PendingVerdict p) {
        waiting.put(key, p);
        (p.isDeletion() ? deletionsDue : bySweepTime).add(Map.entry(key, p));
        heapBytes += heapBytes(p);
    }

    void release(String key, PendingVerdict p) {
        waiting.remove(key);
        (p.isDeletion() ? deletionsDue : bySweepTime).remove(Map.entry(key, p));
        heapBytes -= heapBytes(p);
    }

    /**
     * Approximate heap bytes of a waiting verdict, from what does not change while it waits
     * (matches added later are not counted: the budget is a soft bound).
     */
    private static long heapBytes(PendingVerdict p) {
        return 400L + 4L * p.docId.length();
    }

    /**
     * When a verdict still waiting is swept: the retention after its event time (only if reports
     * were lost, which the design rules out; the sweep keeps state bounded anyway).
     */
    long sweepTime(long eventTime) {
        return buckets.expiry(eventTime);
    }

    /**
     * Hands the verdicts whose sweep time the watermark passed to {@code sweep}, then the deletions
     * it passed to {@code deletion}, and forgets them.
     */
    void releaseUpTo(
            long watermark, Consumer<PendingVerdict> sweep, Consumer<PendingVerdict> deletion) {
        while (!bySweepTime.isEmpty()
                && sweepTime(bySweepTime.first().getValue().eventTime) <= watermark) {
            Map.Entry<String, PendingVerdict> e = bySweepTime.first();
            release(e.getKey(), e.getValue());
            sweep.accept(e.getValue());
        }
        while (!deletionsDue.isEmpty() && deletionsDue.first().getValue().eventTime <= watermark) {
            Map.Entry<String, PendingVerdict> e = deletionsDue.first();
            release(e.getKey(), e.getValue());
            deletion.accept(e.getValue());
        }
    }

    /** The verdicts held, by key. */
    Iterable<Map.Entry<String, PendingVerdict>> entries() {
        return waiting.entrySet();
    }

    /**
     * One key group's waiting verdicts: the path's marker, the count, then key and verdict each; a
     * key as Flink writes strings ({@link StringValue#writeString}: a variable-length count of
     * chars, so no key is too long for it).
     */
    void write(List<Map.Entry<String, PendingVerdict>> entries, DataOutputView view)
            throws IOException {
        view.writeInt(path.rawStateMarker);
        view.writeInt(entries.size());
        for (Map.Entry<String, PendingVerdict> e : entries) {
            StringValue.writeString(e.getKey(), view);
            serializer.serialize(e.getValue(), view);
        }
    }

    /**
     * Holds the waiting verdicts of one key group, as {@link #write} or an older layout wrote them.
     */
    void read(DataInputView view) throws IOException {
        int first = view.readInt();
        // A group begins with its path's marker, then the count and the verdicts;
        // older layouts wrote other markers, or only the count (OlderPendingVerdicts).
        int layout = OlderPendingVerdicts.layout(first);
        CandidatePath written = OlderPendingVerdicts.path(first);
        int n = layout == 2 ? first : view.readInt();
        if (n > 0 && written != path) {
            throw new SuppressRestartsException(
                    new IllegalStateException(
                            ("%s: the waiting verdicts were assembled %s, and this job is %s"
                                            + " (%s). Restore with the old settings and version,"
                                            + " or start without the checkpoint or savepoint and"
                                            + " re-read the input.")
                                    .formatted(
                                            StateCompatibility.INCOMPATIBLE,
                                            written == null
                                                    ? "in an unknown layout"
                                                    : written.description,
                                            path.description,
                                            StateCompatibility.CONTAINMENT_SAMPLES)));
        }
        TypeSerializer<PendingVerdict> read =
                layout >= 5 || n == 0
                        ? serializer
                        : OlderPendingVerdicts.serializer(
                                layout, path.pendingType, serializerConfig);
        for (int i = 0; i < n; i++) {
            String key = layout >= 6 ? StringValue.readString(view) : view.readUTF();
            PendingVerdict p = path.upgrade(read.deserialize(view));
            hold(key, p);
        }
    }
}
