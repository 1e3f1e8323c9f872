package dev.neardup.pipeline;

import static dev.neardup.pipeline.HarnessFixtures.HOUR;
import static dev.neardup.pipeline.HarnessFixtures.MINUTE;
import static dev.neardup.pipeline.HarnessFixtures.bucketHarness;
import static dev.neardup.pipeline.HarnessFixtures.inBucket;
import static dev.neardup.pipeline.HarnessFixtures.netReferences;
import static dev.neardup.pipeline.HarnessFixtures.ofKind;
import static dev.neardup.pipeline.HarnessFixtures.settings;
import static dev.neardup.pipeline.HarnessFixtures.sideValues;
import static dev.neardup.pipeline.HarnessFixtures.targets;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.text.ContentType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link BandBucketFunction} in Flink's keyed operator harness: candidates, registrations, releases
 * and BAND_DONE counts as its Javadoc describes, and the capacity, retention and re-crawl bounds.
 */
class BandBucketFunctionTest {

    private static final long BUCKET = 42L;
    private static final long T0 = 1_700_000_000_000L;

    private KeyedOneInputStreamOperatorTestHarness<Long, BandRecord, SignatureEvent> harness;

    /** Every main-output event so far (the harness keeps them; steps read only the new ones). */
    private final List<SignatureEvent> allEvents = new ArrayList<>();

    private int seenEvents;
    private int seenBandDone;

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

    /** The result of one input record: its main-output events and its BAND_DONE messages. */
    private record Step(List<SignatureEvent> events, List<VerdictEvent> bandDone) {
        List<SignatureEvent> kind(int kind) {
            return ofKind(events, kind);
        }

        List<String> targets(int kind) {
            return HarnessFixtures.targets(events, kind);
        }

        VerdictEvent done() {
            assertThat(bandDone).hasSize(1);
            return bandDone.get(0);
        }
    }

    private Step feed(BandRecord r) throws Exception {
        harness.processElement(r, r.eventTime);
        List<SignatureEvent> values = harness.extractOutputValues();
        List<SignatureEvent> fresh = new ArrayList<>(values.subList(seenEvents, values.size()));
        seenEvents = values.size();
        allEvents.addAll(fresh);
        List<VerdictEvent> done = sideValues(harness, BandBucketFunction.BAND_DONE);
        List<VerdictEvent> freshDone = new ArrayList<>(done.subList(seenBandDone, done.size()));
        seenBandDone = done.size();
        // Whatever else happens, BAND_DONE must announce exactly the candidates sent.
        assertThat(freshDone).hasSize(1);
        assertThat(freshDone.get(0).candidates)
                .as("BAND_DONE.candidates equals the CANDIDATE events sent for %s", r.docId)
                .isEqualTo(ofKind(fresh, SignatureEvent.CANDIDATE).size());
        return new Step(fresh, freshDone);
    }

    /** The members of the bucket, seen through a probe document that collides with all of them. */
    private List<String> membersSeenBy(String probeId, long eventTime) throws Exception {
        return feed(inBucket(BUCKET, probeId, eventTime)).targets(SignatureEvent.CANDIDATE);
    }

    @Test
    void firstMemberIsRegisteredAndProducesNoCandidate() throws Exception {
        open(3);
        BandRecord a =
                HarnessFixtures.record(
                        "a",
                        "f:1",
                        T0,
                        2,
                        HarnessFixtures.signature(5),
                        HarnessFixtures.bandKeys(1, 2, 3, 4));

        Step step = feed(a);

        assertThat(step.events()).hasSize(1);
        SignatureEvent reg = step.events().get(0);
        assertThat(reg.kind).isEqualTo(SignatureEvent.REGISTER);
        assertThat(reg.target).isEqualTo("a");
        assertThat(reg.docId).isEqualTo("a");
        assertThat(reg.instance).isEqualTo("f:1");
        assertThat(reg.url).isEqualTo(a.url);
        assertThat(reg.eventTime).isEqualTo(T0);
        assertThat(reg.signature).containsExactly(a.signature);
        assertThat(reg.bandKeys).containsExactly(a.bandKeys);

        VerdictEvent done = step.done();
        assertThat(done.kind).isEqualTo(VerdictEvent.BAND_DONE);
        assertThat(done.instance).isEqualTo("f:1");
        assertThat(done.docId).isEqualTo("a");
        assertThat(done.url).isEqualTo(a.url);
        assertThat(done.eventTime).isEqualTo(T0);
        assertThat(done.band).isEqualTo(2);
        assertThat(done.candidates).isZero();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void secondDocumentInTheBucketIsACandidateOfTheFirst() throws Exception {
        open(3);
        long[] keysA = HarnessFixtures.bandKeys(1, 2, 3, 4);
        long[] keysB = HarnessFixtures.bandKeys(9, 2, 9, 9); // shares band 1 only
        BandRecord a =
                HarnessFixtures.record("a", "f:1", T0, 1, HarnessFixtures.signature(5), keysA);
        BandRecord b =
                HarnessFixtures.record(
                        "b", "f:2", T0 + 1000, 1, HarnessFixtures.signature(6), keysB);
        feed(a);

        Step step = feed(b);

        assertThat(step.kind(SignatureEvent.CANDIDATE)).hasSize(1);
        SignatureEvent c = step.kind(SignatureEvent.CANDIDATE).get(0);
        assertThat(c.target).isEqualTo("a");
        assertThat(c.docId).isEqualTo("b");
        assertThat(c.instance).isEqualTo("f:2");
        assertThat(c.url).isEqualTo(b.url);
        assertThat(c.eventTime).isEqualTo(T0 + 1000);
        assertThat(c.band).isEqualTo(1);
        assertThat(c.signature).containsExactly(b.signature);
        assertThat(c.bandKeys).containsExactly(keysB);

        assertThat(step.kind(SignatureEvent.REGISTER)).hasSize(1);
        SignatureEvent reg = step.kind(SignatureEvent.REGISTER).get(0);
        assertThat(reg.target).isEqualTo("b");
        assertThat(reg.signature).containsExactly(b.signature);
        assertThat(step.kind(SignatureEvent.RELEASE)).isEmpty();
        assertThat(step.events()).hasSize(2);

        assertThat(step.done().candidates).isEqualTo(1);
        assertThat(step.done().docId).isEqualTo("b");
        assertThat(step.done().instance).isEqualTo("f:2");
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void documentsInDifferentBucketsAreNotCandidates() throws Exception {
        open(3);
        feed(inBucket(1L, "a", T0));
        Step step = feed(inBucket(2L, "b", T0));
        assertThat(step.kind(SignatureEvent.CANDIDATE)).isEmpty();
        assertThat(step.done().candidates).isZero();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);
    }

    @Test
    void capacityKeepsTheMostRecentByEventTimeAndReleasesTheOldest() throws Exception {
        open(3);
        for (int i = 1; i <= 3; i++) {
            Step step = feed(inBucket(BUCKET, "d" + i, T0 + i * 1000));
            assertThat(step.kind(SignatureEvent.RELEASE)).isEmpty();
            assertThat(step.done().candidates).isEqualTo(i - 1);
        }

        Step fourth = feed(inBucket(BUCKET, "d4", T0 + 4000));
        assertThat(fourth.targets(SignatureEvent.CANDIDATE))
                .containsExactlyInAnyOrder("d1", "d2", "d3");
        assertThat(fourth.targets(SignatureEvent.REGISTER)).containsExactly("d4");
        assertThat(fourth.targets(SignatureEvent.RELEASE)).containsExactly("d1");

        Step fifth = feed(inBucket(BUCKET, "d5", T0 + 5000));
        assertThat(fifth.targets(SignatureEvent.CANDIDATE))
                .containsExactlyInAnyOrder("d2", "d3", "d4");
        assertThat(fifth.targets(SignatureEvent.RELEASE)).containsExactly("d2");

        // Exactly 3 members left, the 3 most recent, and each held once.
        assertThat(netReferences(allEvents)).containsOnlyKeys("d3", "d4", "d5");
        assertThat(netReferences(allEvents).values()).containsOnly(1);
        assertThat(membersSeenBy("probe", T0 + 6000)).containsExactlyInAnyOrder("d3", "d4", "d5");
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void capacityEvictsByEventTimeNotByArrival() throws Exception {
        open(3);
        feed(inBucket(BUCKET, "late", T0 + 3000));
        feed(inBucket(BUCKET, "early", T0 + 1000)); // arrives second, oldest by event time
        feed(inBucket(BUCKET, "middle", T0 + 2000));

        Step step = feed(inBucket(BUCKET, "newest", T0 + 4000));

        assertThat(step.targets(SignatureEvent.RELEASE)).containsExactly("early");
        assertThat(netReferences(allEvents)).containsOnlyKeys("late", "middle", "newest");
    }

    @Test
    void aDocumentOlderThanAFullBucketIsNotKept() throws Exception {
        open(3);
        feed(inBucket(BUCKET, "d2", T0 + 2000));
        feed(inBucket(BUCKET, "d3", T0 + 3000));
        feed(inBucket(BUCKET, "d4", T0 + 4000));

        Step old = feed(inBucket(BUCKET, "d1", T0 + 1000)); // within retention, but the oldest
        assertThat(old.targets(SignatureEvent.CANDIDATE))
                .containsExactlyInAnyOrder("d2", "d3", "d4");

        // Net effect: the bucket still holds d2, d3, d4, and d1 holds no reference.
        assertThat(netReferences(allEvents)).containsOnlyKeys("d2", "d3", "d4");
        assertThat(membersSeenBy("probe", T0 + 5000)).containsExactlyInAnyOrder("d2", "d3", "d4");
    }

    @Test
    void amongEqualEventTimesTheLaterArrivalsAreKept() throws Exception {
        open(3);
        for (String id : new String[] {"first", "second", "third", "fourth"}) {
            feed(inBucket(BUCKET, id, T0));
        }
        assertThat(netReferences(allEvents)).containsOnlyKeys("second", "third", "fourth");
    }

    @Test
    void laterDocumentsGetAtMostCapacityCandidates() throws Exception {
        open(3);
        for (int i = 0; i < 20; i++) {
            Step step = feed(inBucket(BUCKET, "d" + i, T0 + i));
            assertThat(step.kind(SignatureEvent.CANDIDATE)).hasSize(Math.min(i, 3));
        }
    }

    @Test
    void aMemberOlderThanTheNewestByMoreThanRetentionIsReleasedAndNotACandidate() throws Exception {
        open(10);
        feed(inBucket(BUCKET, "old", T0));
        feed(inBucket(BUCKET, "mid", T0 + 30 * MINUTE));

        Step step = feed(inBucket(BUCKET, "new", T0 + HOUR + MINUTE));

        assertThat(step.targets(SignatureEvent.RELEASE)).containsExactly("old");
        assertThat(step.targets(SignatureEvent.CANDIDATE)).containsExactly("mid");
        assertThat(step.targets(SignatureEvent.REGISTER)).containsExactly("new");
        assertThat(netReferences(allEvents)).containsOnlyKeys("mid", "new");
    }

    @Test
    void aMemberExactlyRetentionOlderIsStillACandidate() throws Exception {
        open(10);
        feed(inBucket(BUCKET, "old", T0));

        Step step = feed(inBucket(BUCKET, "new", T0 + HOUR)); // not older by MORE than retention

        assertThat(step.targets(SignatureEvent.CANDIDATE)).containsExactly("old");
        assertThat(step.kind(SignatureEvent.RELEASE)).isEmpty();
    }

    @Test
    void retentionIsMeasuredFromTheNewestMemberNotFromTheArrivingDocument() throws Exception {
        open(10);
        feed(inBucket(BUCKET, "old", T0));
        feed(inBucket(BUCKET, "newest", T0 + 2 * HOUR)); // prunes "old"
        assertThat(netReferences(allEvents)).containsOnlyKeys("newest");

        // An out-of-order arrival within retention of the newest member is kept.
        Step step = feed(inBucket(BUCKET, "late", T0 + HOUR + 30 * MINUTE));
        assertThat(step.targets(SignatureEvent.CANDIDATE)).containsExactly("newest");
        assertThat(step.targets(SignatureEvent.REGISTER)).containsExactly("late");
        assertThat(netReferences(allEvents)).containsOnlyKeys("newest", "late");
    }

    @Test
    void anOutOfOrderArrivalBeyondTheHorizonIsNeitherStoredNorRegistered() throws Exception {
        open(10);
        feed(inBucket(BUCKET, "a", T0 + 10 * HOUR));
        feed(inBucket(BUCKET, "b", T0 + 10 * HOUR + MINUTE));

        Step stale = feed(inBucket(BUCKET, "stale", T0 + 8 * HOUR));

        assertThat(stale.kind(SignatureEvent.REGISTER)).isEmpty();
        assertThat(stale.kind(SignatureEvent.RELEASE)).isEmpty();
        assertThat(netReferences(allEvents)).containsOnlyKeys("a", "b");
        assertThat(membersSeenBy("probe", T0 + 10 * HOUR + 2 * MINUTE))
                .containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void aRecrawlReplacesItsEntryAndNeverMatchesItself() throws Exception {
        open(3);
        BandRecord v1 = inBucket(BUCKET, "page", T0);
        v1.instance = "f:1";
        feed(v1);
        BandRecord v2 = inBucket(BUCKET, "page", T0 + 1000);
        v2.instance = "f:2";

        Step step = feed(v2);

        assertThat(step.kind(SignatureEvent.CANDIDATE)).isEmpty();
        assertThat(step.targets(SignatureEvent.RELEASE)).containsExactly("page");
        assertThat(step.kind(SignatureEvent.REGISTER)).hasSize(1);
        assertThat(step.kind(SignatureEvent.REGISTER).get(0).instance).isEqualTo("f:2");
        assertThat(step.done().candidates).isZero();
        assertThat(netReferences(allEvents)).containsExactlyEntriesOf(Map.of("page", 1));
        assertThat(membersSeenBy("probe", T0 + 2000)).containsExactly("page");
    }

    @Test
    void aRecrawlInAFullBucketDoesNotEvictAnotherMember() throws Exception {
        open(3);
        feed(inBucket(BUCKET, "a", T0));
        feed(inBucket(BUCKET, "b", T0 + 1000));
        feed(inBucket(BUCKET, "c", T0 + 2000));

        Step step = feed(inBucket(BUCKET, "a", T0 + 3000));

        assertThat(step.targets(SignatureEvent.CANDIDATE)).containsExactlyInAnyOrder("b", "c");
        assertThat(step.targets(SignatureEvent.RELEASE)).containsExactly("a");
        assertThat(netReferences(allEvents)).containsOnlyKeys("a", "b", "c");
    }

    /**
     * A stale replay of a document, older than the bucket's horizon, is not stored (documented); it
     * must not take the document's live, newer entry out of the bucket with it: the only ways out
     * are retention, capacity and replacement by a re-crawl, and nothing replaces it here.
     */
    @Test
    void aStaleReplayBeyondTheHorizonDoesNotRemoveTheLiveEntryOfTheSameDocument() throws Exception {
        open(3);
        feed(inBucket(BUCKET, "page", T0 + 10 * HOUR));

        feed(inBucket(BUCKET, "page", T0)); // 10 h older than the live entry, beyond the horizon

        assertThat(netReferences(allEvents)).containsExactlyEntriesOf(Map.of("page", 1));
        assertThat(membersSeenBy("probe", T0 + 10 * HOUR + 1000)).containsExactly("page");
    }

    @Test
    void aHotBucketOfIdenticalDocumentsStaysWithinCapacity() throws Exception {
        int capacity = 3;
        NearDupSettings settings = settings(capacity);
        harness = bucketHarness(settings);
        harness.open();
        DocumentSketcher sketcher = settings.newSketcher();
        DocumentSketcher.Sketch sketch =
                sketcher.sketch(
                        "Cookie notice: this site uses cookies to improve your experience."
                                + " Accept all cookies or manage your preferences.",
                        ContentType.TEXT);
        short[] compact = CompactSignature.of(sketch.signature());
        long[] keys = sketch.bandKeys();

        Map<String, Integer> maxCandidates = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            BandRecord r = HarnessFixtures.record("doc" + i, "f:" + i, T0 + i, 0, compact, keys);
            Step step = feed(r);
            assertThat(step.done().candidates).isLessThanOrEqualTo(capacity);
            maxCandidates.put(r.docId, step.kind(SignatureEvent.CANDIDATE).size());
        }

        assertThat(maxCandidates.values()).allMatch(n -> n <= capacity);
        assertThat(maxCandidates.get("doc999")).isEqualTo(capacity);
        Map<String, Integer> live = netReferences(allEvents);
        assertThat(live).containsOnlyKeys("doc997", "doc998", "doc999");
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void membersSurviveSnapshotAndRestore() throws Exception {
        open(3);
        feed(inBucket(BUCKET, "a", T0));
        feed(inBucket(BUCKET, "b", T0 + 1000));
        feed(inBucket(7L, "other", T0));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = bucketHarness(settings(3));
        seenEvents = 0;
        seenBandDone = 0;
        harness.initializeState(snapshot);
        harness.open();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);

        Step step = feed(inBucket(BUCKET, "c", T0 + 2000));
        assertThat(step.targets(SignatureEvent.CANDIDATE)).containsExactlyInAnyOrder("a", "b");
        assertThat(step.done().candidates).isEqualTo(2);

        // Capacity still applies to the restored members.
        Step d = feed(inBucket(BUCKET, "d", T0 + 3000));
        assertThat(d.targets(SignatureEvent.RELEASE)).containsExactly("a");
    }

    @Test
    void keyedStateHoldsOneEntryPerNonEmptyBucket() throws Exception {
        open(3);
        assertThat(harness.numKeyedStateEntries()).isZero();
        feed(inBucket(1L, "a", T0));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        feed(inBucket(1L, "b", T0));
        feed(inBucket(1L, "c", T0));
        feed(inBucket(1L, "d", T0));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        feed(inBucket(2L, "e", T0));
        feed(inBucket(3L, "f", T0));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(3);
    }

    @Test
    void aBucketNotWrittenForLongerThanRetentionExpiresByStateTtl() throws Exception {
        harness = bucketHarness(settings(3));
        harness.setStateTtlProcessingTime(0);
        harness.open();
        feed(inBucket(BUCKET, "a", T0));

        harness.setStateTtlProcessingTime(HOUR - 1);
        assertThat(membersSeenBy("b", T0 + 1)).containsExactly("a");

        // "b" wrote the bucket at HOUR - 1; a full retention later nothing is visible any more.
        harness.setStateTtlProcessingTime(2 * HOUR);
        assertThat(membersSeenBy("c", T0 + 2)).isEmpty();
    }

    @Test
    void releasesAndRegistrationsBalanceOverAMixedStream() throws Exception {
        open(3);
        // Interleaved buckets, re-crawls, out-of-order times and age evictions.
        long[][] plan = {
            {1, 0, 0},
            {1, 1, 10},
            {2, 2, 5},
            {1, 3, 20},
            {1, 0, 30},
            {1, 4, 40},
            {2, 5, 2 * HOUR},
            {1, 6, 3 * HOUR},
            {1, 7, 3 * HOUR - 1},
            {2, 2, 2 * HOUR + 1}
        };
        Map<Long, List<String>> expectedMembersAfter = new HashMap<>();
        for (long[] p : plan) {
            feed(inBucket(p[0], "d" + p[1], T0 + p[2]));
        }
        expectedMembersAfter.put(1L, List.of("d6", "d7"));
        expectedMembersAfter.put(2L, List.of("d5", "d2"));
        Map<String, Integer> live = netReferences(allEvents);
        assertThat(live).containsOnlyKeys("d6", "d7", "d5", "d2");
        assertThat(live.values()).containsOnly(1);
        assertThat(
                        targets(
                                feed(inBucket(1L, "p1", T0 + 3 * HOUR)).events(),
                                SignatureEvent.CANDIDATE))
                .containsExactlyInAnyOrderElementsOf(expectedMembersAfter.get(1L));
        assertThat(
                        targets(
                                feed(inBucket(2L, "p2", T0 + 2 * HOUR + 2)).events(),
                                SignatureEvent.CANDIDATE))
                .containsExactlyInAnyOrderElementsOf(expectedMembersAfter.get(2L));
    }
}
