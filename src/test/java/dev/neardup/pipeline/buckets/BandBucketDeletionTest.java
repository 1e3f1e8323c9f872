package dev.neardup.pipeline.buckets;

import static dev.neardup.pipeline.HarnessFixtures.HOUR;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.bucketHarness;
import static dev.neardup.pipeline.HarnessFixtures.differingIn;
import static dev.neardup.pipeline.HarnessFixtures.inBucket;
import static dev.neardup.pipeline.HarnessFixtures.record;
import static dev.neardup.pipeline.HarnessFixtures.settings;
import static dev.neardup.pipeline.HarnessFixtures.signature;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.pipeline.BucketHarness;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Deletions in {@link BandBucketOperator} (issue 12, item 4): a member deleted at T is no longer
 * matched by a document later than T, still by one earlier than T whatever the arrival order; its
 * bucket entry is dropped when a later document touches the bucket; a re-crawl after the deletion
 * is a new document; the deletions survive a snapshot and a restore at another parallelism, and are
 * forgotten once the retention has passed them.
 */
class BandBucketDeletionTest {

    private static final long BUCKET = 42L;

    private BucketHarness harness;

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private void open() throws Exception {
        harness = bucketHarness(settings(64));
        harness.open();
    }

    /** Every reported pair as "later>earlier". */
    private static List<String> pairs(List<VerdictEvent> events) {
        List<String> out = new ArrayList<>();
        for (VerdictEvent e : events) {
            for (String m : e.matches.ids) {
                out.add(e.docId + ">" + m);
            }
        }
        return out;
    }

    /** The reports about {@code docId} (merged: one per subtask and watermark). */
    private static VerdictEvent own(List<VerdictEvent> events, String docId) {
        List<VerdictEvent> about = events.stream().filter(e -> e.docId.equals(docId)).toList();
        assertThat(about).as("reports about %s", docId).hasSize(1);
        return about.get(0);
    }

    /** Feeds {@code r} and moves the watermark to it; returns what that caused. */
    private List<VerdictEvent> feed(BandRecord r) throws Exception {
        int before = harness.extractOutputValues().size();
        harness.processElement(r, r.eventTime);
        harness.processWatermark(new Watermark(r.eventTime));
        List<VerdictEvent> all = harness.extractOutputValues();
        return new ArrayList<>(all.subList(before, all.size()));
    }

    @Test
    void aMemberDeletedAtTIsNotMatchedByALaterCopyAndItsEntryIsDroppedWhenTouched()
            throws Exception {
        open();
        long[] page = signature(7);
        feed(record(BUCKET, "a", T0, page));
        harness.delete("a", T0 + 1000);
        // Nothing touched the bucket yet: a is still stored.
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);

        VerdictEvent copy = own(feed(record(BUCKET, "b", T0 + 2000, page)), "b");
        assertThat(copy.matches.ids).as("b is judged against what remains").isEmpty();
        assertThat(copy.candidates).as("a was dropped, not compared").isZero();

        // The bucket now holds b alone: a new copy matches b, and is compared with nothing else.
        VerdictEvent next = own(feed(record(BUCKET, "c", T0 + 3000, page)), "c");
        assertThat(next.matches.ids).containsExactly("b");
        assertThat(next.candidates).isEqualTo(1);
    }

    @Test
    void withoutTheDeletionTheLaterCopyMatches() throws Exception {
        open();
        long[] page = signature(7);
        feed(record(BUCKET, "a", T0, page));
        harness.delete("other", T0 + 1000); // an unrelated deletion changes nothing
        VerdictEvent copy = own(feed(record(BUCKET, "b", T0 + 2000, page)), "b");
        assertThat(copy.matches.ids).containsExactly("a");
    }

    /**
     * One watermark batch, arriving backwards: the original a, a near copy c before the deletion of
     * a, an exact copy b after it, and another near copy e at exactly the deletion's time (not
     * similar enough to c). c and e are still compared with a (not later than the deletion); b no
     * longer is, but finds c and e, which remain.
     */
    @Test
    void anEarlierDocumentTakenInLaterInTheSameBatchStillMatchesTheDeletedMember()
            throws Exception {
        open();
        long[] page = signature(7);
        long deletedAt = T0 + 1000;
        harness.processElement(record(BUCKET, "b", T0 + 2000, page), T0 + 2000);
        long[] other = page.clone();
        other[other.length - 1] += 77; // 7 of 8 values agree with a and b, 6 with c
        harness.processElement(record(BUCKET, "e", deletedAt, other), deletedAt);
        harness.processElement(record(BUCKET, "c", T0 + 500, differingIn(page, 1)), T0 + 500);
        harness.processElement(record(BUCKET, "a", T0, page), T0);
        harness.delete("a", deletedAt);
        assertThat(harness.extractOutputValues()).as("all wait for the watermark").isEmpty();

        harness.processWatermark(new Watermark(T0 + 2000));
        List<VerdictEvent> out = harness.extractOutputValues();
        assertThat(own(out, "c").matches.ids).containsExactly("a");
        assertThat(own(out, "e").matches.ids).containsExactly("a");
        assertThat(own(out, "b").matches.ids).containsExactlyInAnyOrder("c", "e");
        assertThat(pairs(out)).doesNotContain("b>a");
    }

    @Test
    void aRecrawlAfterTheDeletionIsANewDocument() throws Exception {
        open();
        long[] page = signature(7);
        feed(record(BUCKET, "a", T0, page));
        harness.delete("a", T0 + 1000);
        // The same page again, unchanged: without the deletion the bucket would keep the first
        // version (T0); after it, the re-crawl is a new member.
        VerdictEvent again = own(feed(record(BUCKET, "a", T0 + 2000, page)), "a");
        assertThat(again.matches.ids).isEmpty();
        VerdictEvent copy = own(feed(record(BUCKET, "b", T0 + 3000, page)), "b");
        assertThat(copy.matches.ids).containsExactly("a");
        assertThat(copy.matches.eventTimes).containsExactly(T0 + 2000);
    }

    @Test
    void aDeletionAppliesInEveryBucketOfTheSubtask() throws Exception {
        open();
        for (long bucket = 1; bucket <= 5; bucket++) {
            feed(inBucket(bucket, "a", T0));
        }
        harness.delete("a", T0 + 1);
        for (long bucket = 1; bucket <= 5; bucket++) {
            VerdictEvent probe =
                    own(feed(inBucket(bucket, "p" + bucket, T0 + 10 + bucket)), "p" + bucket);
            assertThat(probe.candidates).as("bucket %d", bucket).isZero();
        }
    }

    /**
     * A deletion is kept as it arrives: a document later than it that waits for the watermark no
     * longer sees the deleted member when the watermark takes it in.
     */
    @Test
    void aDeletionBeforeTheWatermarkAppliesToDocumentsWaitingForIt() throws Exception {
        open();
        long[] page = signature(7);
        feed(record(BUCKET, "a", T0, page));
        harness.processElement(record(BUCKET, "b", T0 + 2000, page), T0 + 2000);
        harness.delete("a", T0 + 1000);
        assertThat(own(harness.extractOutputValues(), "a").matches.ids).isEmpty();
        harness.processWatermark(new Watermark(T0 + 2000));
        assertThat(own(harness.extractOutputValues(), "b").matches.ids).isEmpty();
        assertThat(pairs(harness.extractOutputValues())).isEmpty();
    }

    @Test
    void deletionsSurviveSnapshotAndRestore() throws Exception {
        open();
        long[] page = signature(7);
        feed(record(BUCKET, "a", T0, page));
        harness.delete("a", T0 + 1000);
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = bucketHarness(settings(64));
        harness.setup();
        harness.initializeState(snapshot);
        harness.open();
        assertThat(((BandBucketOperator) harness.getOperator()).deletionsKept())
                .isEqualTo(Map.of("a", List.of(T0 + 1000)));
        harness.processElement(record(BUCKET, "b", T0 + 2000, page), T0 + 2000);
        harness.processWatermark(new Watermark(T0 + 2000));
        assertThat(own(harness.extractOutputValues(), "b").matches.ids).isEmpty();
    }

    /**
     * 40 buckets, each with an original, at parallelism 1; the originals of the even buckets are
     * deleted; restored at parallelism 2 (and then back at 1), every subtask has every deletion:
     * the copies of the even originals are unique, those of the odd ones match, on whichever
     * subtask their bucket lands.
     */
    @Test
    void deletionsRestoreAtAnotherParallelismOnEverySubtask() throws Exception {
        int maxParallelism = 128;
        Map<String, List<Long>> expected = new HashMap<>();
        OperatorSubtaskState one;
        try (BucketHarness single = bucketHarness(settings(64), maxParallelism, 1, 0)) {
            single.open();
            for (int bucket = 0; bucket < 40; bucket++) {
                single.processElement(
                        record(bucket, "first-" + bucket, T0 + bucket, signature(1000 + bucket)),
                        T0 + bucket);
            }
            single.processWatermark(new Watermark(T0 + 100));
            for (int bucket = 0; bucket < 40; bucket += 2) {
                single.delete("first-" + bucket, T0 + 200);
                expected.put("first-" + bucket, List.of(T0 + 200L));
            }
            one = single.snapshot(1L, 1L);
        }

        Map<String, String> found = new HashMap<>();
        OperatorSubtaskState[] halves = new OperatorSubtaskState[2];
        for (int subtask = 0; subtask < 2; subtask++) {
            try (BucketHarness half = bucketHarness(settings(64), maxParallelism, 2, subtask)) {
                half.setup();
                half.initializeState(
                        AbstractStreamOperatorTestHarness.repartitionOperatorState(
                                one, maxParallelism, 1, 2, subtask));
                half.open();
                assertThat(((BandBucketOperator) half.getOperator()).deletionsKept())
                        .as("subtask %d of 2", subtask)
                        .isEqualTo(expected);
                int mine = 0;
                for (int bucket = 0; bucket < 20; bucket++) {
                    if (KeyGroupRangeAssignment.assignKeyToParallelOperator(
                                    (long) bucket, maxParallelism, 2)
                            == subtask) {
                        half.processElement(
                                record(
                                        bucket,
                                        "copy-" + bucket,
                                        T0 + 300 + bucket,
                                        signature(1000 + bucket)),
                                T0 + 300 + bucket);
                        mine++;
                    }
                }
                assertThat(mine).as("buckets on subtask %d", subtask).isPositive();
                half.processWatermark(new Watermark(T0 + 400));
                for (VerdictEvent e : half.extractOutputValues()) {
                    found.put(e.docId, String.join(",", e.matches.ids));
                }
                halves[subtask] = half.snapshot(2L, 2L);
            }
        }
        for (int bucket = 0; bucket < 20; bucket++) {
            assertThat(found.get("copy-" + bucket))
                    .as("copy-%d", bucket)
                    .isEqualTo(bucket % 2 == 0 ? "" : "first-" + bucket);
        }

        // And back to one subtask: the deletions, kept twice in the checkpoint, once here.
        OperatorSubtaskState merged =
                AbstractStreamOperatorTestHarness.repartitionOperatorState(
                        AbstractStreamOperatorTestHarness.repackageState(halves),
                        maxParallelism,
                        2,
                        1,
                        0);
        try (BucketHarness single = bucketHarness(settings(64), maxParallelism, 1, 0)) {
            single.setup();
            single.initializeState(merged);
            single.open();
            assertThat(((BandBucketOperator) single.getOperator()).deletionsKept())
                    .isEqualTo(expected);
            single.processElement(record(30, "late-copy-30", T0 + 500, signature(1030)), T0 + 500);
            single.processElement(record(31, "late-copy-31", T0 + 500, signature(1031)), T0 + 500);
            single.processWatermark(new Watermark(T0 + 500));
            assertThat(own(single.extractOutputValues(), "late-copy-30").matches.ids).isEmpty();
            assertThat(own(single.extractOutputValues(), "late-copy-31").matches.ids)
                    .containsExactly("first-31");
        }
    }

    @Test
    void deletionsOlderThanTheRetentionAreForgotten() throws Exception {
        open();
        BandBucketOperator op = (BandBucketOperator) harness.getOperator();
        harness.delete("old", T0);
        harness.delete("both", T0);
        harness.delete("both", T0 + 2 * HOUR);
        harness.delete("new", T0 + 2 * HOUR);
        harness.processWatermark(new Watermark(T0 + HOUR));
        assertThat(op.deletionsKept()).containsOnlyKeys("old", "both", "new");
        // The watermark is more than the retention (1 h) past T0.
        harness.processWatermark(new Watermark(T0 + 2 * HOUR));
        assertThat(op.deletionsKept())
                .isEqualTo(Map.of("both", List.of(T0 + 2 * HOUR), "new", List.of(T0 + 2 * HOUR)));
    }

    @Test
    void theSameDeletionTwiceIsKeptOnceAndTimesStayOrdered() throws Exception {
        open();
        harness.delete("a", T0 + 5);
        harness.delete("a", T0 + 1);
        harness.delete("a", T0 + 5);
        harness.delete("a", T0 + 3);
        assertThat(((BandBucketOperator) harness.getOperator()).deletionsKept())
                .isEqualTo(Map.of("a", List.of(T0 + 1, T0 + 3, T0 + 5)));
    }

    /**
     * Two deletions of one id with a re-crawl between them: a document between the first deletion
     * and the re-crawl no longer sees the first version; one after the re-crawl sees the re-crawl.
     */
    @Test
    void eachVersionIsDeletedByTheFirstDeletionAfterIt() throws Exception {
        open();
        long[] v1 = signature(7);
        long[] v2 = differingIn(v1, 1);
        harness.processElement(record(BUCKET, "a", T0, v1), T0);
        harness.delete("a", T0 + 100);
        harness.processElement(record(BUCKET, "x", T0 + 150, v1), T0 + 150);
        harness.processElement(record(BUCKET, "a", T0 + 200, v2), T0 + 200);
        harness.delete("a", T0 + 300);
        long[] nearV2 = v2.clone();
        nearV2[nearV2.length - 1] += 77; // like v2 (7 of 8), unlike v1 (6 of 8)
        harness.processElement(record(BUCKET, "y", T0 + 250, nearV2), T0 + 250);
        harness.processElement(record(BUCKET, "z", T0 + 350, v2), T0 + 350);
        harness.processWatermark(new Watermark(T0 + 400));
        List<VerdictEvent> out = harness.extractOutputValues();
        // x (after the first deletion) does not match the first version of a.
        assertThat(own(out, "x").matches.ids).isEmpty();
        // y (between the re-crawl and the second deletion) matches the re-crawl.
        assertThat(own(out, "y").matches.ids).containsExactly("a");
        assertThat(own(out, "y").matches.eventTimes).containsExactly(T0 + 200);
        // z (after both) matches what remains: x and y.
        assertThat(own(out, "z").matches.ids).containsExactlyInAnyOrder("x", "y");
    }
}
