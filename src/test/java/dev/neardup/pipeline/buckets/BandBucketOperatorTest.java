package dev.neardup.pipeline.buckets;

import static dev.neardup.pipeline.HarnessFixtures.HOUR;
import static dev.neardup.pipeline.HarnessFixtures.MINUTE;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.bucketHarness;
import static dev.neardup.pipeline.HarnessFixtures.differingIn;
import static dev.neardup.pipeline.HarnessFixtures.expectedJaccard;
import static dev.neardup.pipeline.HarnessFixtures.inBucket;
import static dev.neardup.pipeline.HarnessFixtures.own;
import static dev.neardup.pipeline.HarnessFixtures.record;
import static dev.neardup.pipeline.HarnessFixtures.settings;
import static dev.neardup.pipeline.HarnessFixtures.signature;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.neardup.pipeline.BucketHarness;
import dev.neardup.pipeline.HarnessFixtures;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link BandBucketOperator} in Flink's keyed harness: what a bucket compares, in which direction
 * it reports a match, what it keeps (the earliest members, one per exact copy, the right version of
 * a re-crawl), and that its state stays bounded and is cleaned up.
 */
class BandBucketOperatorTest {

    private static final long BUCKET = 42L;

    private BucketHarness harness;

    private void open(int capacity) throws Exception {
        harness = bucketHarness(settings(capacity));
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    /** The step is exactly the document's own report: no candidates, no matches. */
    private static void assertReportsNothing(List<VerdictEvent> step, String docId) {
        assertThat(step).hasSize(1);
        VerdictEvent e = step.get(0);
        assertThat(e.docId).isEqualTo(docId);
        assertThat(e.kind).isEqualTo(VerdictEvent.MATCHES);
        assertThat(e.reports).isOne();
        assertThat(e.candidates).isZero();
        assertThat(e.matches.ids).isEmpty();
    }

    /** Every reported pair as "later>earlier". */
    private static List<String> pairs(List<VerdictEvent> step) {
        List<String> out = new ArrayList<>();
        for (VerdictEvent e : step) {
            for (String m : e.matches.ids) {
                out.add(e.docId + ">" + m);
            }
        }
        return out;
    }

    /** The members a new, unrelated document is compared with (its candidate count). */
    private int membersSeenBy(String probe, long t) throws Exception {
        VerdictEvent e = own(harness.feed(inBucket(BUCKET, probe, t)), probe);
        return e == null ? 0 : e.candidates;
    }

    @Test
    void theFirstMemberIsKeptAndReportsNoMatch() throws Exception {
        open(64);
        assertReportsNothing(harness.feed(inBucket(BUCKET, "a", T0)), "a");
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void aLaterNearCopyIsVerifiedOnTheSpotAndReportedAgainstTheEarlierMember() throws Exception {
        open(64);
        long[] a = signature(7);
        harness.feed(record(BUCKET, "a", T0, a));
        List<VerdictEvent> step = harness.feed(record(BUCKET, "b", T0 + 1000, differingIn(a, 1)));

        VerdictEvent b = own(step, "b");
        assertThat(b.kind).isEqualTo(VerdictEvent.MATCHES);
        assertThat(b.candidates).isEqualTo(1);
        assertThat(b.eventTime).isEqualTo(T0 + 1000);
        assertThat(b.matches.ids).containsExactly("a");
        assertThat(b.matches.urls).containsExactly("https://example.org/a");
        assertThat(b.matches.eventTimes).containsExactly(T0);
        assertThat(b.matches.similarities[0]).isCloseTo(expectedJaccard(7), within(1e-12));
        assertThat(step).hasSize(1);
    }

    /**
     * A member keeps the cluster its bucket found it in: b joins a's, so c, which matches b only (a
     * is too far from it), is reported with b in a's cluster; the stored member says so too.
     */
    @Test
    void aMemberCarriesTheClusterOfItsEarliestMatchToLaterDocuments() throws Exception {
        open(64);
        long[] a = signature(7);
        long[] b = differingIn(a, 1);
        long[] c = b.clone();
        c[1] += 5000; // one position from b, two from a: below the threshold
        harness.feed(record(BUCKET, "a", T0, a));
        VerdictEvent toB = own(harness.feed(record(BUCKET, "b", T0 + 1000, b)), "b");
        assertThat(toB.matches.ids).containsExactly("a");
        assertThat(toB.matches.clusterId(0)).isEqualTo("a");
        assertThat(toB.matches.clusterIds).containsOnlyNulls(); // a is its own cluster

        VerdictEvent toC = own(harness.feed(record(BUCKET, "c", T0 + 2000, c)), "c");
        assertThat(toC.matches.ids).containsExactly("b");
        assertThat(toC.matches.clusterId(0)).isEqualTo("a");
        assertThat(toC.matches.clusterTime(0)).isEqualTo(T0);

        // c was stored in a's cluster: d, which matches c only, hears of a through it.
        long[] d = c.clone();
        d[2] += 5000; // one position from c, two from b
        VerdictEvent toD = own(harness.feed(record(BUCKET, "d", T0 + 3000, d)), "d");
        assertThat(toD.matches.ids).containsExactly("c");
        assertThat(toD.matches.clusterId(0)).isEqualTo("a");
    }

    @Test
    void aCandidateBelowTheThresholdIsCountedButNotMatched() throws Exception {
        open(64);
        long[] a = signature(7);
        harness.feed(record(BUCKET, "a", T0, a));
        VerdictEvent b = own(harness.feed(record(BUCKET, "b", T0 + 1, differingIn(a, 2))), "b");
        assertThat(expectedJaccard(6)).isLessThan(HarnessFixtures.THRESHOLD);
        assertThat(b.candidates).isEqualTo(1);
        assertThat(b.matches.ids).isEmpty();
    }

    @Test
    void anEarlierDocumentArrivingLastMakesTheLaterMemberItsDuplicate() throws Exception {
        open(64);
        long[] a = signature(7);
        harness.feed(record(BUCKET, "b", T0 + 1000, differingIn(a, 1)));
        List<VerdictEvent> step = harness.feed(record(BUCKET, "a", T0, a));

        assertThat(pairs(step)).containsExactly("b>a");
        VerdictEvent toB = own(step, "b");
        assertThat(toB.eventTime).isEqualTo(T0 + 1000);
        assertThat(toB.candidates).isZero(); // b's own candidates were counted when b arrived
        assertThat(toB.reports).as("not b's bucket report, which b sent on arrival").isZero();
        assertThat(own(step, "a").reports).isOne();
        assertThat(toB.matches.eventTimes).containsExactly(T0);
        VerdictEvent toA = own(step, "a");
        assertThat(toA.candidates).isEqualTo(1);
        assertThat(toA.matches.ids).isEmpty();
    }

    @Test
    void equalEventTimesAreOrderedById() throws Exception {
        open(64);
        long[] s = signature(7);
        harness.feed(record(BUCKET, "y", T0, differingIn(s, 1)));
        assertThat(pairs(harness.feed(record(BUCKET, "x", T0, s)))).containsExactly("y>x");
    }

    @Test
    void documentsInDifferentBucketsAreNeverCompared() throws Exception {
        open(64);
        harness.feed(inBucket(1L, "a", T0));
        assertReportsNothing(harness.feed(inBucket(2L, "b", T0 + 1)), "b");
        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);
    }

    @Test
    void capacityKeepsTheEarliestMembersWhateverTheArrivalOrder() throws Exception {
        open(2);
        harness.feed(inBucket(BUCKET, "c", T0 + 2000));
        harness.feed(inBucket(BUCKET, "a", T0));
        harness.feed(inBucket(BUCKET, "b", T0 + 1000)); // evicts c, the latest
        List<VerdictEvent> step = harness.feed(inBucket(BUCKET, "d", T0 + 3000));
        assertThat(own(step, "d").candidates).isEqualTo(2);
        // d was compared with a and b, and not kept: a new document still sees exactly two.
        assertThat(membersSeenBy("e", T0 + 4000)).isEqualTo(2);
    }

    @Test
    void aHotBucketOfExactCopiesKeepsOneMemberAndEveryCopyNamesTheFirst() throws Exception {
        open(64);
        long[] page = signature(99);
        harness.feed(record(BUCKET, "copy-0", T0, page));
        for (int i = 1; i <= 500; i++) {
            List<VerdictEvent> step = harness.feed(record(BUCKET, "copy-" + i, T0 + i, page));
            VerdictEvent e = own(step, "copy-" + i);
            assertThat(e.candidates).isEqualTo(1);
            assertThat(e.matches.ids).containsExactly("copy-0");
            assertThat(e.matches.similarities).containsExactly(1.0);
        }
        assertThat(membersSeenBy("other", T0 + 1000)).isEqualTo(1);
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void anEarlierExactCopyArrivingLaterTakesThePlaceOfTheLaterOne() throws Exception {
        open(64);
        long[] page = signature(99);
        harness.feed(record(BUCKET, "late-copy", T0 + 5000, page));
        List<VerdictEvent> step = harness.feed(record(BUCKET, "first", T0, page));
        assertThat(pairs(step)).containsExactly("late-copy>first");
        List<VerdictEvent> next = harness.feed(record(BUCKET, "third", T0 + 9000, page));
        assertThat(own(next, "third").matches.ids).containsExactly("first");
        assertThat(own(next, "third").candidates).isEqualTo(1);
    }

    @Test
    void membersFartherApartThanTheRetentionAreNotCompared() throws Exception {
        open(64);
        long[] s = signature(5);
        harness.feed(record(BUCKET, "old", T0, s));
        assertReportsNothing(harness.feed(record(BUCKET, "new", T0 + HOUR + 1, s)), "new");
        harness.feed(record(BUCKET + 1, "old", T0 + HOUR + 2, s));
        assertThat(
                        own(harness.feed(record(BUCKET + 1, "edge", T0 + 2 * HOUR + 2, s)), "edge")
                                .matches
                                .ids)
                .as("exactly the retention apart")
                .containsExactly("old");
    }

    @Test
    void membersOlderThanANewcomerByMoreThanTheRetentionArePruned() throws Exception {
        open(64);
        harness.feed(inBucket(BUCKET, "a", T0));
        harness.feed(inBucket(BUCKET, "b", T0 + 30 * MINUTE));
        // a is beyond c's horizon (c's event time - 1 h) and leaves; b stays.
        assertThat(membersSeenBy("c", T0 + HOUR + 20 * MINUTE)).isEqualTo(1);
        harness.feed(inBucket(BUCKET, "d", T0 + 3 * HOUR + 1)); // prunes b and c
        assertThat(membersSeenBy("e", T0 + 3 * HOUR + 2)).isEqualTo(1); // only d
    }

    @Test
    void aRecrawlIsNeverComparedWithItselfAndNewContentReplacesTheOld() throws Exception {
        open(64);
        long[] v1 = signature(1);
        long[] v2 = differingIn(v1, 1);
        harness.feed(record(BUCKET, "page", T0, v1));
        assertReportsNothing(harness.feed(record(BUCKET, "page", T0 + 1000, v2)), "page");
        // One member, the new version: a copy of it matches it at 1.0.
        VerdictEvent copy = own(harness.feed(record(BUCKET, "copy", T0 + 2000, v2)), "copy");
        assertThat(copy.candidates).isEqualTo(1);
        assertThat(copy.matches.eventTimes).containsExactly(T0 + 1000);
        assertThat(copy.matches.similarities).containsExactly(1.0);
    }

    @Test
    void anUnchangedRecrawlKeepsTheFirstVersion() throws Exception {
        open(64);
        long[] v = signature(1);
        harness.feed(record(BUCKET, "page", T0, v));
        harness.feed(record(BUCKET, "page", T0 + 1000, v));
        VerdictEvent copy = own(harness.feed(record(BUCKET, "copy", T0 + 2000, v)), "copy");
        assertThat(copy.matches.eventTimes).containsExactly(T0);
    }

    @Test
    void anOlderVersionArrivingLateDoesNotReplaceNewerContent() throws Exception {
        open(64);
        long[] v1 = signature(1);
        long[] v2 = differingIn(v1, 3);
        harness.feed(record(BUCKET, "page", T0 + 1000, v2));
        harness.feed(record(BUCKET, "page", T0, v1));
        VerdictEvent copy = own(harness.feed(record(BUCKET, "copy", T0 + 2000, v2)), "copy");
        assertThat(copy.matches.eventTimes).containsExactly(T0 + 1000);
    }

    @Test
    void membersSurviveSnapshotAndRestore() throws Exception {
        open(3);
        harness.feed(inBucket(BUCKET, "a", T0));
        harness.feed(inBucket(BUCKET, "b", T0 + 1000));
        harness.feed(inBucket(7L, "other", T0));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = bucketHarness(settings(3));
        harness.initializeState(snapshot);
        harness.open();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);
        long[] copyOfA = signature("a".hashCode());
        assertThat(own(harness.feed(record(BUCKET, "c", T0 + 2000, copyOfA)), "c").matches.ids)
                .containsExactly("a");
        // c, an exact copy of a, is not kept; capacity still applies to the restored members.
        assertThat(membersSeenBy("d", T0 + 3000)).isEqualTo(2);
        assertThat(membersSeenBy("e", T0 + 4000)).isEqualTo(3);
        assertThat(membersSeenBy("f", T0 + 5000)).isEqualTo(3);
    }

    private long readsSkipped() {
        return ((BandBucketOperator) harness.getOperator()).readsSkipped();
    }

    @Test
    void aBucketThatCannotExistIsNotReadAndOneThatDoesIs() throws Exception {
        open(3);
        harness.feed(inBucket(1L, "a", T0));
        long skipped = readsSkipped();
        assertThat(skipped).isPositive();
        harness.feed(inBucket(2L, "b", T0 + 1));
        assertThat(readsSkipped()).isEqualTo(skipped + 1);
        assertThat(membersSeenBy("c", T0 + 2)).isZero();
        assertThat(readsSkipped()).isEqualTo(skipped + 2);
        assertThat(membersSeenBy("d", T0 + 3)).isOne(); // c's bucket exists now: read
        assertThat(readsSkipped()).isEqualTo(skipped + 2);
    }

    @Test
    void theKeyFilterIsRebuiltOnRestoreAndCanBeTurnedOff() throws Exception {
        open(3);
        harness.feed(inBucket(BUCKET, "a", T0));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        for (MemorySize filter : List.of(MemorySize.ofMebiBytes(1), MemorySize.ZERO)) {
            harness = bucketHarness(HarnessFixtures.settingsWithKeyFilter(3, filter));
            harness.initializeState(snapshot);
            harness.open();
            assertThat(membersSeenBy("b", T0 + 1)).as("filter %s", filter).isOne();
            assertThat(readsSkipped()).isZero();
            harness.feed(inBucket(7L, "c", T0 + 2));
            assertThat(readsSkipped()).isEqualTo(filter.getBytes() == 0 ? 0 : 1);
            harness.close();
        }
        harness = null;
    }

    @Test
    void keyedStateHoldsOneEntryPerNonEmptyBucket() throws Exception {
        open(3);
        assertThat(harness.numKeyedStateEntries()).isZero();
        harness.feed(inBucket(1L, "a", T0));
        harness.feed(inBucket(1L, "b", T0));
        harness.feed(inBucket(1L, "c", T0));
        harness.feed(inBucket(1L, "d", T0));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        harness.feed(inBucket(2L, "e", T0));
        harness.feed(inBucket(3L, "f", T0));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(3);
    }

    @Test
    void aBucketWhoseMembersAllAgeOutIsCleared() throws Exception {
        open(3);
        long[] s = signature(3);
        harness.feed(record(BUCKET, "a", T0, s));
        harness.processWatermark(new Watermark(T0 + 2 * HOUR));
        // The only member is pruned before b is compared: b is kept in its place.
        harness.feed(record(BUCKET, "b", T0 + 2 * HOUR + 1, s));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        assertThat(membersSeenBy("c", T0 + 2 * HOUR + 2)).isEqualTo(1);
    }

    @Test
    void aBucketNotWrittenForLongerThanRetentionExpiresByStateTtl() throws Exception {
        harness = bucketHarness(settings(3));
        harness.setStateTtlProcessingTime(0);
        harness.open();
        harness.feed(inBucket(BUCKET, "a", T0));

        harness.setStateTtlProcessingTime(HOUR - 1);
        assertThat(membersSeenBy("b", T0 + 1)).isEqualTo(1);

        // "b" wrote the bucket at HOUR - 1; a full retention later nothing is visible any more.
        harness.setStateTtlProcessingTime(2 * HOUR);
        assertThat(membersSeenBy("c", T0 + 2)).isZero();
    }

    /** Three copies of a page (and a fourth at the same time as the first) arrive backwards. */
    private void feedCopiesBackwards(long[] page, String... ids) throws Exception {
        long[] times = {T0 + 2000, T0 + 1000, T0, T0};
        String[] all = {"c", "b", "a", "a2"};
        for (int i = 0; i < all.length; i++) {
            if (List.of(ids).contains(all[i])) {
                harness.processElement(record(BUCKET, all[i], times[i], page), times[i]);
            }
        }
    }

    /** After all four copies: each later copy is reported against the earliest, "a". */
    private void assertTakenInOrder() throws Exception {
        harness.processWatermark(new Watermark(T0 + 1000));
        List<VerdictEvent> upToB = new ArrayList<>(harness.extractOutputValues());
        assertThat(pairs(upToB)).containsExactlyInAnyOrder("a2>a", "b>a");
        harness.processWatermark(new Watermark(T0 + 5000));
        assertThat(pairs(harness.extractOutputValues()))
                .containsExactlyInAnyOrder("a2>a", "b>a", "c>a");
        // Only the bucket is left: the waiting documents and their timers are gone.
        assertThat(harness.numEventTimeTimers()).isZero();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void documentsWaitForTheWatermarkAndAreTakenInEventTimeOrder() throws Exception {
        open(64);
        feedCopiesBackwards(signature(9), "c", "b", "a", "a2");
        // Nothing is decided yet, and the waiting documents are on the heap: no state, no timers.
        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(harness.numEventTimeTimers()).isZero();
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertTakenInOrder();
    }

    @Test
    void withoutHeapBudgetDocumentsWaitInStateWithATimerPerEventTime() throws Exception {
        harness = bucketHarness(settings(64, MemorySize.ZERO));
        harness.open();
        feedCopiesBackwards(signature(9), "c", "b", "a", "a2");
        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(harness.numEventTimeTimers()).isEqualTo(3);
        assertTakenInOrder();
    }

    @Test
    void aCheckpointLeavesTheWaitingDocumentsOnTheHeap() throws Exception {
        open(64);
        long[] page = signature(9);
        feedCopiesBackwards(page, "c", "b");
        harness.snapshot(1L, 1L);
        // Written to the checkpoint's raw keyed state, not moved into keyed state.
        assertThat(harness.numEventTimeTimers()).isZero();
        assertThat(harness.numKeyedStateEntries()).isZero();
        feedCopiesBackwards(page, "a", "a2");
        assertTakenInOrder();
    }

    @Test
    void theOrderHoldsAcrossDocumentsOnTheHeapAndInState() throws Exception {
        // A budget of about one record: "c" waits on the heap, the others in keyed state.
        harness = bucketHarness(settings(64, MemorySize.parse("200b")));
        harness.open();
        feedCopiesBackwards(signature(9), "c", "b", "a", "a2");
        assertThat(harness.numEventTimeTimers()).isEqualTo(2);
        assertTakenInOrder();
    }

    @Test
    void anEarlierDocumentOnTheHeapIsTakenInWithTheTimerOfALaterOneInState() throws Exception {
        // "a" fills the budget on the heap; "b" and "c", later, wait in keyed state. b's timer
        // must take "a" in first, or b would be the first of the page.
        harness = bucketHarness(settings(64, MemorySize.parse("200b")));
        harness.open();
        long[] page = signature(9);
        harness.processElement(record(BUCKET, "a", T0, page), T0);
        harness.processElement(record(BUCKET, "b", T0 + 1000, page), T0 + 1000);
        harness.processElement(record(BUCKET, "c", T0 + 2000, page), T0 + 2000);
        assertThat(harness.numEventTimeTimers()).isEqualTo(2);
        harness.processWatermark(new Watermark(T0 + 5000));
        assertThat(pairs(harness.extractOutputValues())).containsExactlyInAnyOrder("b>a", "c>a");
        assertThat(harness.numEventTimeTimers()).isZero();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void documentsWaitingAtACheckpointAreTakenInAfterARestore() throws Exception {
        open(64);
        long[] page = signature(9);
        feedCopiesBackwards(page, "c", "b");
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = bucketHarness(settings(64));
        harness.setup();
        harness.initializeState(snapshot);
        harness.open();
        feedCopiesBackwards(page, "a", "a2");
        assertTakenInOrder();
    }

    @Test
    void waitingDocumentsRestoreAtAnotherParallelismEachOnTheSubtaskOfItsBucket() throws Exception {
        int maxParallelism = 128;
        List<BandRecord> records = new ArrayList<>();
        for (int bucket = 0; bucket < 40; bucket++) {
            long[] page = signature(1000 + bucket);
            records.add(record(bucket, "first-" + bucket, T0 + bucket, page));
            records.add(record(bucket, "copy-" + bucket, T0 + 100 + bucket, page));
        }
        OperatorSubtaskState snapshot;
        try (var one = bucketHarness(settings(64), maxParallelism, 1, 0)) {
            one.open();
            for (BandRecord r : records) {
                one.processElement(r, r.eventTime);
            }
            snapshot = one.snapshot(1L, 1L);
        }
        List<String> found = new ArrayList<>();
        int reports = 0;
        for (int subtask = 0; subtask < 2; subtask++) {
            OperatorSubtaskState part =
                    AbstractStreamOperatorTestHarness.repartitionOperatorState(
                            snapshot, maxParallelism, 1, 2, subtask);
            try (var half = bucketHarness(settings(64), maxParallelism, 2, subtask)) {
                half.setup();
                half.initializeState(part);
                half.open();
                half.processWatermark(new Watermark(T0 + 1000));
                for (VerdictEvent e : half.extractOutputValues()) {
                    reports += e.reports;
                }
                found.addAll(pairs(half.extractOutputValues()));
            }
        }
        // Every waiting document came back exactly once, on the subtask of its bucket.
        assertThat(reports).isEqualTo(records.size());
        assertThat(found).hasSize(40).allMatch(p -> p.startsWith("copy-"));
    }

    @Test
    void aSubtaskSendsOneReportPerDocumentForAllItsBuckets() throws Exception {
        open(64);
        long[] page = signature(9);
        for (int band = 0; band < HarnessFixtures.BANDS; band++) {
            BandRecord first = record(100 + band, "a", T0, page);
            first.band = band;
            BandRecord copy = record(100 + band, "b", T0 + 1, page);
            copy.band = band;
            harness.processElement(first, T0);
            harness.processElement(copy, T0 + 1);
        }
        harness.processWatermark(new Watermark(T0 + 1));
        List<VerdictEvent> out = harness.extractOutputValues();
        assertThat(out).hasSize(2);
        VerdictEvent a = own(out, "a");
        VerdictEvent b = own(out, "b");
        assertThat(a.reports).isEqualTo(HarnessFixtures.BANDS);
        assertThat(a.matches.ids).isEmpty();
        assertThat(b.reports).isEqualTo(HarnessFixtures.BANDS);
        assertThat(b.candidates).isEqualTo(HarnessFixtures.BANDS);
        // The pair collided in every band and is reported once, with the band it was found in.
        assertThat(b.matches.ids).containsExactly("a");
        assertThat(b.matchBand(0)).isBetween(0, HarnessFixtures.BANDS - 1);
    }
}
