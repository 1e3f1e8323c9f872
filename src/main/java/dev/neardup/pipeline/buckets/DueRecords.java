package dev.neardup.pipeline.buckets;

import dev.neardup.pipeline.records.BandRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * The band records that the watermark being processed passed, sorted once in the order the buckets
 * take them in: bucket by bucket in the order of the keys in the state backend (key group, then the
 * key's bytes, big-endian and compared unsigned), so that RocksDB inserts each bucket near the
 * previous one; within a bucket in {@link BandBucketOperator#ORDER}. A bucket's records up to a
 * time can be taken out first ({@link #takeUpTo}: a timer of a waiting entry of the bucket), the
 * rest go bucket by bucket ({@link #forEachBucket}).
 */
final class DueRecords {

    /**
     * A bucket's records, in order: the current key is {@code bandKey} while this runs; {@code
     * mayExist} is what the key filter said of the bucket before the first was taken.
     */
    interface Bucket {
        void take(long bandKey, List<BandRecord> ordered, boolean mayExist) throws Exception;
    }

    /**
     * A due record with its bucket's key group (and its key: sorting reads no record); taken once
     * {@link #takeUpTo} has handed it on.
     */
    static final class Entry {
        final int keyGroup;
        final long bandKey;
        final BandRecord record;
        boolean taken;

        Entry(BandRecord record, int maxParallelism) {
            this.keyGroup =
                    KeyGroupRangeAssignment.assignToKeyGroup(record.bandKey, maxParallelism);
            this.bandKey = record.bandKey;
            this.record = record;
        }
    }

    /** Key group, then band key (unsigned): the order of the buckets' keys in the state backend. */
    private static int compareBuckets(int keyGroup, long bandKey, Entry e) {
        int c = Integer.compare(keyGroup, e.keyGroup);
        return c != 0 ? c : Long.compareUnsigned(bandKey, e.bandKey);
    }

    /** The buckets in state order, each bucket's records in {@link BandBucketOperator#ORDER}. */
    static final Comparator<Entry> TAKE_ORDER =
            (a, b) -> {
                int c = compareBuckets(a.keyGroup, a.bandKey, b);
                return c != 0 ? c : BandBucketOperator.ORDER.compare(a.record, b.record);
            };

    private static final DueRecords NONE = new DueRecords(new Entry[0], 1);

    private final Entry[] entries;
    private final int maxParallelism;

    private DueRecords(Entry[] entries, int maxParallelism) {
        this.entries = entries;
        this.maxParallelism = maxParallelism;
    }

    /** {@code records} (in any order) sorted for their buckets; none when there are none. */
    static DueRecords of(List<BandRecord> records, int maxParallelism) {
        if (records.isEmpty()) {
            return NONE;
        }
        Entry[] entries = new Entry[records.size()];
        for (int i = 0; i < entries.length; i++) {
            entries[i] = new Entry(records.get(i), maxParallelism);
        }
        return new DueRecords(sorted(entries, maxParallelism), maxParallelism);
    }

    /** A bucket's records up to this many are put in order by insertion, more by a merge sort. */
    private static final int INSERTION_SORTED = 16;

    /**
     * {@code entries} in {@link #TAKE_ORDER}, stably. The buckets are put in order with sorts of
     * longs: the distinct band keys are ranked (unsigned), and each record's key group, bucket rank
     * and index go into one long; then each bucket's records, mostly one, by the job's order. A
     * sort of the objects with {@link #TAKE_ORDER} gives the same order, but its merge sort is the
     * one every sort of objects in the JVM shares, and a run recompiled it twenty to thirty times
     * as the arrays it was given changed type; the sorts of longs have code of their own.
     */
    static Entry[] sorted(Entry[] entries, int maxParallelism) {
        int n = entries.length;
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = entries[i].bandKey ^ Long.MIN_VALUE; // signed order = the key's unsigned
        }
        long[] distinct = keys.clone();
        Arrays.sort(distinct);
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (m == 0 || distinct[i] != distinct[m - 1]) {
                distinct[m++] = distinct[i];
            }
        }
        int indexBits = bitsFor(n - 1);
        int rankBits = bitsFor(m - 1);
        if (indexBits + rankBits + bitsFor(maxParallelism - 1) > 63) {
            Entry[] copy = entries.clone();
            Arrays.sort(copy, TAKE_ORDER);
            return copy;
        }
        long[] packed = new long[n];
        for (int i = 0; i < n; i++) {
            long rank = Arrays.binarySearch(distinct, 0, m, keys[i]);
            packed[i] =
                    ((long) entries[i].keyGroup << (rankBits + indexBits))
                            | (rank << indexBits)
                            | i;
        }
        Arrays.sort(packed);
        long index = (1L << indexBits) - 1;
        Entry[] out = new Entry[n];
        for (int k = 0; k < n; k++) {
            out[k] = entries[(int) (packed[k] & index)];
        }
        for (int start = 0, end; start < n; start = end) {
            end = start + 1;
            while (end < n && out[end].bandKey == out[start].bandKey) {
                end++;
            }
            if (end - start > INSERTION_SORTED) {
                Arrays.sort(out, start, end, TAKE_ORDER);
            } else {
                for (int i = start + 1; i < end; i++) {
                    Entry e = out[i];
                    int j = i - 1;
                    while (j >= start
                            && BandBucketOperator.ORDER.compare(out[j].record, e.record) > 0) {
                        out[j + 1] = out[j];
                        j--;
                    }
                    out[j + 1] = e;
                }
            }
        }
        return out;
    }

    /** Bits that hold {@code 0..max}: 0 for 0. */
    private static int bitsFor(long max) {
        return 64 - Long.numberOfLeadingZeros(max);
    }

    /** No records. */
    static DueRecords none() {
        return NONE;
    }

    /**
     * Adds to {@code into} the records of bucket {@code bandKey} at or before {@code time} that are
     * not taken yet, in order, and marks them taken.
     */
    void takeUpTo(long bandKey, long time, List<BandRecord> into) {
        if (entries.length == 0) {
            return;
        }
        int keyGroup = KeyGroupRangeAssignment.assignToKeyGroup(bandKey, maxParallelism);
        for (int i = firstOf(bandKey, keyGroup);
                i < entries.length && entries[i].bandKey == bandKey;
                i++) {
            Entry e = entries[i];
            if (e.record.eventTime > time) {
                return;
            }
            if (!e.taken) {
                e.taken = true;
                into.add(e.record);
            }
        }
    }

    /**
     * Hands each bucket its records not taken yet, in order, bucket by bucket in state order, with
     * what {@code mayExist} says of the bucket. {@code mayExist} is asked for all buckets first, in
     * one loop: its answers do not depend on each other, so their cache misses overlap (a key
     * filter far larger than the caches), where one answer per bucket between state accesses would
     * wait for each in turn. Taking in a bucket must not change what {@code mayExist} says of
     * another from true to false.
     */
    void forEachBucket(LongPredicate mayExist, Bucket bucket) throws Exception {
        int buckets = 0;
        int[] starts = new int[entries.length + 1];
        for (int i = 0; i < entries.length; i++) {
            if (i == 0 || entries[i].bandKey != entries[i - 1].bandKey) {
                starts[buckets++] = i;
            }
        }
        starts[buckets] = entries.length;
        boolean[] exists = new boolean[buckets];
        for (int b = 0; b < buckets; b++) {
            exists[b] = mayExist.test(entries[starts[b]].bandKey);
        }
        for (int b = 0; b < buckets; b++) {
            int i = starts[b];
            int end = starts[b + 1];
            List<BandRecord> ordered =
                    end - i == 1
                            ? (entries[i].taken ? List.of() : List.of(entries[i].record))
                            : untaken(i, end);
            if (!ordered.isEmpty()) {
                bucket.take(entries[i].bandKey, ordered, exists[b]);
            }
        }
    }

    private List<BandRecord> untaken(int from, int to) {
        List<BandRecord> out = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            if (!entries[i].taken) {
                out.add(entries[i].record);
            }
        }
        return out;
    }

    /** The index of the first record of bucket {@code bandKey}, or where it would be. */
    private int firstOf(long bandKey, int keyGroup) {
        int lo = 0;
        int hi = entries.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareBuckets(keyGroup, bandKey, entries[mid]) > 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
