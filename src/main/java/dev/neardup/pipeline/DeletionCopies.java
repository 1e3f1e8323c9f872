package dev.neardup.pipeline;

import dev.neardup.pipeline.records.BandRecord;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * How a deletion reaches every band-bucket subtask through the same exchange as the band records:
 * one copy per subtask ({@link BandRouting#routeDeletion}), a band record whose band key is in a
 * key group that subtask owns ({@link #keyOf}) and whose band is {@link #BAND}. Design:
 * docs/design/streaming-operators.md.
 */
public final class DeletionCopies {

    /** {@link BandRecord#band} of a deletion copy (a band index is never negative). */
    static final int BAND = -1;

    /** {@code keys[g]}: a band key in key group g. */
    private final long[] keys;

    /** The keys for {@code maxParallelism} key groups (the job's max parallelism). */
    DeletionCopies(int maxParallelism) {
        keys = new long[maxParallelism];
        boolean[] found = new boolean[maxParallelism];
        int missing = maxParallelism;
        // Keys are hashed (murmur) onto key groups: counting up fills all groups within about
        // maxParallelism * ln(maxParallelism) tries (coupon collector).
        for (long key = 0; missing > 0; key++) {
            int group = KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism);
            if (!found[group]) {
                found[group] = true;
                keys[group] = key;
                missing--;
            }
        }
    }

    /** A band key in key group {@code group}. */
    long keyOf(int group) {
        return keys[group];
    }

    /** True when {@code r} is a deletion copy rather than a band of a document. */
    public static boolean isDeletion(BandRecord r) {
        return r.band == BAND;
    }
}
