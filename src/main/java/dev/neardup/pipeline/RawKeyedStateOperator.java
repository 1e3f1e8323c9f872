package dev.neardup.pipeline;

import dev.neardup.pipeline.buckets.BandBucketOperator;
import dev.neardup.pipeline.verdicts.VerdictOperator;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.apache.flink.runtime.checkpoint.CheckpointType;
import org.apache.flink.runtime.state.AbstractKeyedStateBackend;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.KeyGroupStatePartitionStreamProvider;
import org.apache.flink.runtime.state.KeyedStateCheckpointOutputStream;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.util.function.BiConsumerWithException;
import org.apache.flink.util.function.ThrowingConsumer;

/**
 * An operator that holds entries on the heap until the watermark ({@link BandBucketOperator},
 * {@link VerdictOperator}) and writes them to raw keyed state per key group at each checkpoint, so
 * that a restore at any parallelism gives each subtask its own groups. Beyond the heap, entries
 * wait in keyed state with the event-time timers of {@link #timers} ({@code user-timers}, the timer
 * service of the functions these operators replaced). No processing-time timers.
 */
public abstract class RawKeyedStateOperator<K, IN, OUT> extends AbstractStreamOperator<OUT>
        implements OneInputStreamOperator<IN, OUT>, Triggerable<K, VoidNamespace> {

    private static final long serialVersionUID = 1L;

    protected transient InternalTimerService<VoidNamespace> timers;

    @Override
    protected boolean isUsingCustomRawKeyedState() {
        return true;
    }

    /**
     * Creates {@link #timers}, refusing heap timers on RocksDB, which Flink writes to the same raw
     * keyed state stream; {@code holder} says what the operator keeps there.
     */
    protected void openTimers(String holder) {
        timers = getInternalTimerService("user-timers", VoidNamespaceSerializer.INSTANCE, this);
        if (getKeyedStateBackend() instanceof AbstractKeyedStateBackend<?> backend
                && backend.requiresLegacySynchronousTimerSnapshots(CheckpointType.CHECKPOINT)) {
            throw new IllegalStateException(
                    ("%s in raw keyed state, which Flink cannot combine with heap timers on"
                         + " RocksDB: remove state.backend.rocksdb.timer-service.factory: HEAP (the"
                         + " default, ROCKSDB, works)")
                            .formatted(holder));
        }
    }

    /** On restore: hands each key group of this subtask to {@code reader}. */
    protected static void readKeyGroups(
            StateInitializationContext context, ThrowingConsumer<DataInputView, IOException> reader)
            throws Exception {
        for (KeyGroupStatePartitionStreamProvider group : context.getRawKeyedStateInputs()) {
            try (InputStream in = group.getStream()) {
                reader.accept(new DataInputViewStreamWrapper(in));
            }
        }
    }

    /** At a checkpoint: writes {@code entries} into every key group of this subtask, by key. */
    protected <T> void writeKeyGroups(
            StateSnapshotContext context,
            Iterable<T> entries,
            Function<T, Object> key,
            BiConsumerWithException<List<T>, DataOutputView, IOException> writer)
            throws Exception {
        int maxParallelism = getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
        Map<Integer, List<T>> byGroup = new HashMap<>();
        for (T e : entries) {
            byGroup.computeIfAbsent(
                            KeyGroupRangeAssignment.assignToKeyGroup(key.apply(e), maxParallelism),
                            g -> new ArrayList<>())
                    .add(e);
        }
        KeyedStateCheckpointOutputStream out = context.getRawKeyedOperatorStateOutput();
        try {
            DataOutputViewStreamWrapper view = new DataOutputViewStreamWrapper(out);
            for (int group : out.getKeyGroupList()) {
                out.startNewKeyGroup(group);
                writer.accept(byGroup.getOrDefault(group, List.of()), view);
            }
        } finally {
            out.close();
        }
    }

    @Override
    public void onProcessingTime(InternalTimer<K, VoidNamespace> timer) {}
}
