package dev.neardup.pipeline;

import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.RoutedBands;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.util.Collector;

/**
 * How a document's band records reach the band buckets: the signature operator groups its band keys
 * by the bucket subtask that owns their key groups ({@link KeyGroupRangeAssignment}, the assignment
 * of a keyed exchange) and sends one {@link RoutedBands} per subtask it reaches ({@link #route});
 * the exchange delivers each to its subtask ({@link ToTarget}); there {@link Unpack} turns it back
 * into one {@link BandRecord} per band, in band order, for the keyed band-bucket operator. Each
 * bucket sees the band records it would see after a keyed exchange by band key, in the same order,
 * so state, key groups, rescaling and the order of a bucket's records are those of the keyed
 * design; the exchange carries a document's fields once per subtask instead of once per band.
 *
 * <p>It needs the signature operator and the band buckets at the same parallelism (the job never
 * sets them apart); a record that reaches another subtask than its key group's fails the job with a
 * message that says so, never silently. Design: docs/design/streaming-operators.md.
 */
final class BandRouting {

    private final int maxParallelism;
    private final int parallelism;

    /** Scratch: the subtask of each band key, and the keys per subtask. */
    private int[] targetOf = new int[0];

    private final int[] counts;

    /** Routing for {@code parallelism} bucket subtasks over {@code maxParallelism} key groups. */
    BandRouting(int maxParallelism, int parallelism) {
        this.maxParallelism = maxParallelism;
        this.parallelism = parallelism;
        this.counts = new int[parallelism];
    }

    /** The bucket subtask of band key {@code key}. */
    int subtaskOf(long key) {
        return KeyGroupRangeAssignment.assignKeyToParallelOperator(
                key, maxParallelism, parallelism);
    }

    /**
     * Emits the band records of a document with band keys {@code keys} (band j has key j) as one
     * {@link RoutedBands} per subtask they reach, in subtask order.
     */
    void route(
            long[] keys,
            String docId,
            String url,
            long eventTime,
            long fingerprint,
            byte[] signature,
            Collector<RoutedBands> out) {
        if (targetOf.length < keys.length) {
            targetOf = new int[keys.length];
        }
        java.util.Arrays.fill(counts, 0);
        for (int j = 0; j < keys.length; j++) {
            targetOf[j] = subtaskOf(keys[j]);
            counts[targetOf[j]]++;
        }
        for (int t = 0; t < parallelism; t++) {
            if (counts[t] == 0) {
                continue;
            }
            RoutedBands r = new RoutedBands();
            r.target = t;
            r.keys = new long[counts[t]];
            r.bands = new int[counts[t]];
            int n = 0;
            for (int j = 0; j < keys.length; j++) {
                if (targetOf[j] == t) {
                    r.keys[n] = keys[j];
                    r.bands[n++] = j;
                }
            }
            r.docId = docId;
            r.url = url;
            r.eventTime = eventTime;
            r.fingerprint = fingerprint;
            r.signature = signature;
            out.collect(r);
        }
    }

    /**
     * Emits one deletion copy per bucket subtask, each with a band key of a key group it owns
     * ({@code copies}), so every subtask keeps the deletion once.
     */
    void routeDeletion(
            DeletionCopies copies, String docId, long eventTime, Collector<RoutedBands> out) {
        for (int t = 0; t < parallelism; t++) {
            int group =
                    KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
                                    maxParallelism, parallelism, t)
                            .getStartKeyGroup();
            RoutedBands r = new RoutedBands();
            r.target = t;
            r.keys = new long[] {copies.keyOf(group)};
            r.bands = new int[] {DeletionCopies.BAND};
            r.docId = docId;
            r.eventTime = eventTime;
            out.collect(r);
        }
    }

    /** The exchange: each {@link RoutedBands} to the subtask it names. */
    static final class ToTarget implements Partitioner<Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public int partition(Integer target, int numPartitions) {
            if (target >= numPartitions) {
                throw new IllegalStateException(
                        mismatch(
                                "band records routed to band-bucket subtask %d, of %d subtasks"
                                        .formatted(target, numPartitions)));
            }
            return target;
        }
    }

    private static String mismatch(String what) {
        return what
                + ": the signature operator and the band buckets must run at the same parallelism"
                + " and max parallelism";
    }

    /**
     * On the bucket subtask: one {@link BandRecord} per band of each {@link RoutedBands}, checking
     * that its key groups are this subtask's.
     */
    static final class Unpack extends RichFlatMapFunction<RoutedBands, BandRecord> {
        private static final long serialVersionUID = 1L;

        private transient BandRouting routing;
        private transient int subtask;

        @Override
        public void open(OpenContext openContext) {
            var task = getRuntimeContext().getTaskInfo();
            routing =
                    new BandRouting(
                            task.getMaxNumberOfParallelSubtasks(),
                            task.getNumberOfParallelSubtasks());
            subtask = task.getIndexOfThisSubtask();
        }

        @Override
        public void flatMap(RoutedBands routed, Collector<BandRecord> out) {
            for (int i = 0; i < routed.size(); i++) {
                if (routing.subtaskOf(routed.keys[i]) != subtask) {
                    throw new IllegalStateException(
                            mismatch(
                                    ("band key %d, routed to band-bucket subtask %d, belongs to"
                                                    + " subtask %d of %d, not to this one")
                                            .formatted(
                                                    routed.keys[i],
                                                    routed.target,
                                                    routing.subtaskOf(routed.keys[i]),
                                                    routing.parallelism)));
                }
                out.collect(routed.band(i));
            }
        }
    }
}
