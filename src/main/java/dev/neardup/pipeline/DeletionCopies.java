package dev.neardup.pipeline;

import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * How a deletion reaches every band-bucket subtask through the same keyed exchange as the band
 * records: one {@link BandRecord} per key group, each with a band key that Flink assigns to that
 * key group, so each subtask receives at least one copy at any parallelism (and ignores the rest).
 * Design: docs/design/streaming-operators.md.
 */
final class DeletionCopies {

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

    /** The number of copies of a deletion: one per key group. */
    int count() {
        return keys.length;
    }

    /** The copy of the deletion of {@code docId} at {@code eventTime} for key group {@code g}. */
    BandRecord copy(int g, String docId, long eventTime) {
        BandRecord r = new BandRecord();
        r.bandKey = keys[g];
        r.band = BAND;
        r.docId = docId;
        r.eventTime = eventTime;
        return r;
    }

    /** True when {@code r} is a deletion copy rather than a band of a document. */
    static boolean isDeletion(BandRecord r) {
        return r.band == BAND;
    }
}
