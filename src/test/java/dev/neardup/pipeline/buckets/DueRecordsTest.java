package dev.neardup.pipeline.buckets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.pipeline.records.BandRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The records a watermark passed reach their buckets as the straightforward way would hand them
 * over: grouped by bucket, each bucket's in the job's order, the records a timer took out first
 * left out; buckets in state order ({@link BucketStateOrderTest} checks that order against the
 * RocksDB keys).
 */
class DueRecordsTest {

    private static final int MAX_PARALLELISM = 128;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void bucketsGetTheirRecordsInOrderLessWhatTimersTook(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        long[] keys = random.longs(40).toArray();
        List<BandRecord> drained = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            // Few buckets, times and ids: records share buckets, event times and ids.
            drained.add(
                    record(
                            keys[random.nextInt(keys.length)],
                            random.nextInt(20),
                            "d" + random.nextInt(30),
                            random.nextLong(3)));
        }
        drained.sort(Comparator.comparingLong(r -> r.eventTime)); // as WaitingRecords drains
        Map<Long, List<BandRecord>> model = new LinkedHashMap<>();
        for (BandRecord r : drained) {
            model.computeIfAbsent(r.bandKey, k -> new ArrayList<>()).add(r);
        }
        model.values().forEach(l -> l.sort(BandBucketOperator.ORDER));
        DueRecords due = DueRecords.of(drained, MAX_PARALLELISM);

        for (int t = 0; t < 60; t++) {
            // A timer of one bucket (or of one without due records) at some time.
            long key = random.nextInt(5) == 0 ? random.nextLong() : keys[random.nextInt(40)];
            long time = random.nextInt(22) - 1;
            List<BandRecord> expected = new ArrayList<>();
            List<BandRecord> left = model.getOrDefault(key, new ArrayList<>());
            while (!left.isEmpty() && left.get(0).eventTime <= time) {
                expected.add(left.remove(0));
            }
            List<BandRecord> took = new ArrayList<>();
            due.takeUpTo(key, time, took);
            assertThat(took).containsExactlyElementsOf(expected);
        }

        Map<Long, List<BandRecord>> handed = new LinkedHashMap<>();
        due.forEachBucket(
                k -> true, (key, ordered, mayExist) -> handed.put(key, List.copyOf(ordered)));
        model.values().removeIf(List::isEmpty);
        assertThat(handed).containsExactlyInAnyOrderEntriesOf(model);
        assertThat(new ArrayList<>(handed.keySet()))
                .isSortedAccordingTo(
                        Comparator.<Long>comparingInt(
                                        k ->
                                                KeyGroupRangeAssignment.assignToKeyGroup(
                                                        k, MAX_PARALLELISM))
                                .thenComparing(Long::compareUnsigned));
    }

    /**
     * The sort of longs gives the order of a stable sort with the comparator, for key groups of any
     * maximum parallelism, band keys that are negative as longs, buckets of one record and of many
     * (insertion and merge sort), and records equal in the job's order (kept as they came).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 128, 32_768})
    void bucketsAreSortedAsTheComparatorSortsThem(int maxParallelism) {
        SplittableRandom random = new SplittableRandom(maxParallelism);
        for (int round = 0; round < 200; round++) {
            int n = 1 + random.nextInt(round < 100 ? 8 : 400);
            long[] keys = random.longs(1 + random.nextInt(n)).toArray();
            DueRecords.Entry[] entries = new DueRecords.Entry[n];
            for (int i = 0; i < n; i++) {
                entries[i] =
                        new DueRecords.Entry(
                                record(
                                        keys[random.nextInt(keys.length)],
                                        random.nextInt(4),
                                        "d" + random.nextInt(3),
                                        random.nextLong(2)),
                                maxParallelism);
            }
            DueRecords.Entry[] expected = entries.clone();
            java.util.Arrays.sort(expected, DueRecords.TAKE_ORDER);

            assertThat(DueRecords.sorted(entries, maxParallelism))
                    .as("round %d", round)
                    .containsExactly(expected);
        }
    }

    @Test
    void recordsOfOneTimeKeepTheJobsOrderByIdThenFingerprint() throws Exception {
        List<BandRecord> drained =
                List.of(record(7, 5, "b", 1), record(7, 5, "a", 2), record(7, 5, "a", -3));
        List<List<BandRecord>> handed = new ArrayList<>();
        DueRecords.of(drained, MAX_PARALLELISM)
                .forEachBucket(k -> true, (k, ordered, mayExist) -> handed.add(ordered));
        assertThat(handed).hasSize(1);
        assertThat(handed.get(0))
                .extracting(r -> r.docId + r.fingerprint)
                .containsExactly("a-3", "a2", "b1");
    }

    @Test
    void eachBucketGetsTheAnswerForItsKeyAskedOnce() throws Exception {
        DueRecords due =
                DueRecords.of(
                        List.of(
                                record(7, 1, "a", 0),
                                record(8, 1, "a", 0),
                                record(7, 2, "b", 0),
                                record(9, 3, "c", 0)),
                        MAX_PARALLELISM);
        List<Long> asked = new ArrayList<>();
        Map<Long, Boolean> answers = new LinkedHashMap<>();
        due.forEachBucket(
                k -> {
                    asked.add(k);
                    return k % 2 == 0;
                },
                (k, ordered, mayExist) -> answers.put(k, mayExist));
        assertThat(asked).containsExactlyInAnyOrder(7L, 8L, 9L);
        assertThat(answers)
                .containsOnly(Map.entry(7L, false), Map.entry(8L, true), Map.entry(9L, false));
    }

    @Test
    void noRecordsHandNothingOn() throws Exception {
        DueRecords due = DueRecords.of(List.of(), MAX_PARALLELISM);
        List<BandRecord> took = new ArrayList<>();
        due.takeUpTo(7, Long.MAX_VALUE, took);
        due.forEachBucket(k -> true, (k, ordered, mayExist) -> took.addAll(ordered));
        assertThat(took).isEmpty();
    }

    @Test
    void aBucketWhoseRecordsTimersTookIsNotHandedOn() throws Exception {
        DueRecords due =
                DueRecords.of(
                        List.of(record(7, 1, "a", 0), record(7, 2, "b", 0), record(9, 1, "c", 0)),
                        MAX_PARALLELISM);
        List<BandRecord> took = new ArrayList<>();
        due.takeUpTo(7, 2, took);
        List<Long> buckets = new ArrayList<>();
        due.forEachBucket(k -> true, (k, ordered, mayExist) -> buckets.add(k));
        assertThat(took).extracting(r -> r.docId).containsExactly("a", "b");
        assertThat(buckets).containsExactly(9L);
    }

    private static BandRecord record(long bandKey, long eventTime, String id, long fingerprint) {
        BandRecord r = new BandRecord();
        r.bandKey = bandKey;
        r.eventTime = eventTime;
        r.docId = id;
        r.fingerprint = fingerprint;
        return r;
    }
}
