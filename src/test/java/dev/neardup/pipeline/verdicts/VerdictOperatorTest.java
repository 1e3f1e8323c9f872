package dev.neardup.pipeline.verdicts;

import static dev.neardup.pipeline.HarnessFixtures.BANDS;
import static dev.neardup.pipeline.HarnessFixtures.RETENTION;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.announce;
import static dev.neardup.pipeline.HarnessFixtures.lateMatch;
import static dev.neardup.pipeline.HarnessFixtures.matches;
import static dev.neardup.pipeline.HarnessFixtures.report;
import static dev.neardup.pipeline.HarnessFixtures.settingsWithPendingBuffer;
import static dev.neardup.pipeline.HarnessFixtures.sideValues;
import static dev.neardup.pipeline.HarnessFixtures.verdictHarness;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.Alert;
import dev.neardup.io.Json;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.similarity.Estimate;
import java.util.List;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link VerdictOperator} in Flink's keyed harness, with waiting verdicts on the heap (this class)
 * and in keyed state ({@link VerdictOperatorSpilledTest}, the same tests with no heap budget): one
 * verdict per input record, emitted when all of the document's buckets have reported and not
 * before; alerts at once, once per pair; state and timers cleaned up after the verdict, and swept
 * after the retention if reports never complete.
 */
class VerdictOperatorTest {

    protected KeyedOneInputStreamOperatorTestHarness<String, VerdictEvent, Verdict> harness;

    /** The heap budget for waiting verdicts under test. */
    protected MemorySize pendingBuffer() {
        return MemorySize.parse("32mb");
    }

    /** Event-time timers per waiting verdict: none on the heap, one (its sweep) when spilled. */
    protected int timersPerWaitingVerdict() {
        return 0;
    }

    protected KeyedOneInputStreamOperatorTestHarness<String, VerdictEvent, Verdict> newHarness()
            throws Exception {
        return verdictHarness(settingsWithPendingBuffer(64, pendingBuffer()));
    }

    @BeforeEach
    void open() throws Exception {
        harness = newHarness();
        harness.open();
    }

    /** Verdicts waiting, on the heap or in keyed state. */
    protected int waitingVerdicts() {
        return ((VerdictOperator) harness.getOneInputOperator()).waitingOnHeap()
                + harness.numKeyedStateEntries();
    }

    /** Nothing waits: no verdict on the heap, no state entry, no timer. */
    protected void assertNothingWaits() {
        assertThat(waitingVerdicts()).isZero();
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private void send(VerdictEvent e) throws Exception {
        harness.processElement(e, e.eventTime);
    }

    private List<Verdict> verdicts() {
        return harness.extractOutputValues();
    }

    private List<Alert> alerts() {
        return sideValues(harness, VerdictOperator.ALERTS);
    }

    /** Empty reports from the bands not given, so that all BANDS buckets have reported. */
    private void reportRest(String docId, long eventTime, int... reported) throws Exception {
        outer:
        for (int band = 0; band < BANDS; band++) {
            for (int r : reported) {
                if (r == band) {
                    continue outer;
                }
            }
            send(report(docId, eventTime, band));
        }
    }

    @Test
    void aDocumentIsUniqueOnceAllItsBucketsReportedNoMatch() throws Exception {
        send(announce("a", T0));
        for (int band = 0; band < BANDS - 1; band++) {
            send(report("a", T0, band));
        }
        harness.processWatermark(new Watermark(T0 + 1));
        assertThat(verdicts()).as("the watermark alone decides nothing").isEmpty();

        send(report("a", T0, BANDS - 1));
        assertThat(verdicts()).hasSize(1);
        Verdict v = verdicts().get(0);
        assertThat(v.docId).isEqualTo("a");
        assertThat(v.verdict).isEqualTo(Verdict.UNIQUE);
        assertThat(v.url).isEqualTo("https://example.org/a");
        assertThat(v.eventTime).isEqualTo(Json.isoTime(T0));
        assertThat(v.duplicateOf).isNull();
        assertThat(v.matches).isEmpty();
        assertNothingWaits();
    }

    @Test
    void aUniqueDocumentIsItsOwnClusterAndADuplicateTakesItsMatchesEarliestCluster()
            throws Exception {
        send(announce("a", T0));
        reportRest("a", T0);
        assertThat(verdicts().get(0).clusterId).isEqualTo("a");

        // d matches b (whose bucket knew it in cluster "root", from T0 - 1) and c (its own).
        send(announce("d", T0 + 5000));
        VerdictEvent e = report("d", T0 + 5000, 0);
        e.addMatch("b", null, T0 + 2000, Estimate.of(0.95), 0, "root", T0 - 1);
        e.addMatch("c", null, T0 + 1000, Estimate.of(0.9), 0, null, 0);
        send(e);
        reportRest("d", T0 + 5000, 0);
        Verdict v = verdicts().get(1);
        assertThat(v.duplicateOf).as("the earliest match").isEqualTo("c");
        assertThat(v.clusterId)
                .as("the earliest cluster, not the earliest match")
                .isEqualTo("root");
        // d joined c's cluster to root's: one merge, after the pair alerts.
        List<Alert> merges = alerts().stream().filter(Alert::isClusterMerge).toList();
        assertThat(merges).hasSize(1);
        Alert m = merges.get(0);
        assertThat(m.docId).isEqualTo("d");
        assertThat(m.clusterId).isEqualTo("root");
        assertThat(m.clusterEventTime).isEqualTo(Json.isoTime(T0 - 1));
        assertThat(m.mergedClusterId).isEqualTo("c");
        assertThat(m.mergedClusterEventTime).isEqualTo(Json.isoTime(T0 + 1000));
        assertThat(m.eventTime).isEqualTo(Json.isoTime(T0 + 5000));
        assertThat(alerts().get(alerts().size() - 1)).isSameAs(m);
        assertNothingWaits();
    }

    /** Buckets can know one match in different clusters: the earliest counts, in any order. */
    @Test
    void aMatchReportedInTwoClustersCountsInTheEarlierWhateverTheReportOrder() throws Exception {
        for (boolean earlierFirst : new boolean[] {true, false}) {
            String d = "d" + earlierFirst;
            send(announce(d, T0 + 5000));
            VerdictEvent early = report(d, T0 + 5000, 0);
            early.addMatch("m", null, T0 + 2000, Estimate.of(0.9), 0, "root", T0);
            VerdictEvent late = report(d, T0 + 5000, 1);
            late.addMatch("m", null, T0 + 2000, Estimate.of(0.9), 1, null, 0);
            send(earlierFirst ? early : late);
            send(earlierFirst ? late : early);
            reportRest(d, T0 + 5000, 0, 1);
        }
        assertThat(verdicts()).extracting(v -> v.clusterId).containsExactly("root", "root");
        assertThat(alerts().stream().filter(Alert::isClusterMerge)).isEmpty();
    }

    @Test
    void matchesOfOneClusterMergeNothingAndEachOtherClusterMergesOnce() throws Exception {
        send(announce("d", T0 + 5000));
        VerdictEvent e = report("d", T0 + 5000, 0);
        e.addMatch("b", null, T0 + 2000, Estimate.of(0.95), 0, "a", T0);
        e.addMatch("a", null, T0, Estimate.of(0.9), 0, null, 0);
        e.addMatch("x", null, T0 + 3000, Estimate.of(0.9), 0, "w", T0 + 100);
        e.addMatch("y", null, T0 + 3001, Estimate.of(0.9), 0, "w", T0 + 100);
        send(e);
        reportRest("d", T0 + 5000, 0);
        assertThat(verdicts().get(0).clusterId).isEqualTo("a");
        assertThat(alerts().stream().filter(Alert::isClusterMerge))
                .extracting(m -> m.mergedClusterId + ">" + m.clusterId)
                .containsExactly("w>a");
    }

    @Test
    void ofClustersWhoseFirstDocumentsHaveOneTimeTheLowerIdSurvives() throws Exception {
        send(announce("d", T0 + 5000));
        VerdictEvent e = report("d", T0 + 5000, 0);
        e.addMatch("x", null, T0 + 2000, Estimate.of(0.9), 0, "q", T0 + 100);
        e.addMatch("y", null, T0 + 3000, Estimate.of(0.9), 0, "p", T0 + 100);
        e.addMatch("z", null, T0 + 4000, Estimate.of(0.9), 0, "r", T0 + 100);
        send(e);
        reportRest("d", T0 + 5000, 0);
        assertThat(verdicts().get(0).clusterId).isEqualTo("p");
        assertThat(alerts().stream().filter(Alert::isClusterMerge))
                .extracting(m -> m.mergedClusterId + ">" + m.clusterId)
                .containsExactly("q>p", "r>p");
    }

    @Test
    void matchesGiveAlertsAtOnceAndADuplicateVerdictWhenAllBucketsReported() throws Exception {
        send(announce("d", T0 + 5000));
        send(matches("d", T0 + 5000, 3, 4, "b", T0 + 2000, 0.95, "a", T0 + 1000, 0.85));
        assertThat(alerts()).extracting(a -> a.duplicateOf).containsExactly("b", "a");
        assertThat(alerts()).allSatisfy(a -> assertThat(a.docId).isEqualTo("d"));
        assertThat(alerts()).allSatisfy(a -> assertThat(a.band).isEqualTo(3));
        assertThat(alerts().get(0).duplicateUrl).isEqualTo("https://example.org/b");
        assertThat(verdicts()).isEmpty();

        send(matches("d", T0 + 5000, 1, 2, "c", T0 + 1000, 0.9));
        reportRest("d", T0 + 5000, 3, 1);
        Verdict v = verdicts().get(0);
        assertThat(v.verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(v.candidates).isEqualTo(6);
        // Most similar first; duplicateOf is the earliest (event time, then id): a before c.
        assertThat(v.matches).extracting(m -> m.docId).containsExactly("b", "c", "a");
        assertThat(v.duplicateOf).isEqualTo("a");
        assertThat(v.similarity).isEqualTo(0.85);
        assertThat(v.duplicateUrl).isEqualTo("https://example.org/a");
        assertNothingWaits();
    }

    @Test
    void thePairFoundInSeveralBandsIsAlertedAndListedOnce() throws Exception {
        send(matches("d", T0, 0, 1, "a", T0 - 10, 0.9));
        send(announce("d", T0));
        send(matches("d", T0, 2, 1, "a", T0 - 10, 0.9));
        assertThat(alerts()).hasSize(1);
        assertThat(alerts().get(0).band).isZero();
        reportRest("d", T0, 0, 2);
        assertThat(verdicts().get(0).matches).hasSize(1);
        assertThat(verdicts().get(0).candidates).isEqualTo(2);
    }

    @Test
    void reportsBeforeTheAnnouncementStillCount() throws Exception {
        send(matches("late", T0, 2, 1, "early", T0 - 100, 1.0));
        reportRest("late", T0, 2);
        assertThat(verdicts()).isEmpty();
        send(announce("late", T0));
        assertThat(verdicts()).hasSize(1);
        assertThat(verdicts().get(0).duplicateOf).isEqualTo("early");
    }

    @Test
    void aRepeatedRecordGetsItsOwnVerdictAndARecrawlIsAnotherDocument() throws Exception {
        send(announce("p", T0, "crawl.jsonl:1"));
        // The same record twice: each reaches every bucket.
        send(announce("p", T0, "crawl.jsonl:7"));
        send(announce("p", T0 + 60_000, "crawl.jsonl:9")); // a re-crawl
        reportRest("p", T0);
        assertThat(verdicts()).as("half of the reports").isEmpty();
        reportRest("p", T0);
        assertThat(verdicts()).hasSize(2);
        // Told apart by where each record came from (they were identical lines before).
        assertThat(verdicts())
                .extracting(v -> v.source)
                .containsExactlyInAnyOrder("crawl.jsonl:1", "crawl.jsonl:7");
        reportRest("p", T0 + 60_000);
        assertThat(verdicts()).hasSize(3);
        assertThat(verdicts().get(2).eventTime).isEqualTo(Json.isoTime(T0 + 60_000));
        assertThat(verdicts().get(2).source).isEqualTo("crawl.jsonl:9");
        assertNothingWaits();
    }

    @Test
    void matchesForADocumentNeverAnnouncedAreSweptAfterTheRetention() throws Exception {
        send(lateMatch("ghost", T0, "a", T0 - 1));
        harness.processWatermark(new Watermark(T0 + RETENTION.toMillis() - 1));
        assertThat(waitingVerdicts()).isOne();
        assertThat(harness.numEventTimeTimers()).isEqualTo(timersPerWaitingVerdict());
        harness.processWatermark(new Watermark(T0 + RETENTION.toMillis()));
        assertThat(verdicts()).isEmpty();
        assertNothingWaits();
    }

    @Test
    void aVerdictStillMissingReportsAfterTheRetentionIsMadeWithWhatItHas() throws Exception {
        send(announce("d", T0));
        send(matches("d", T0, 0, 1, "a", T0 - 5, 0.9));
        harness.processWatermark(new Watermark(T0 + RETENTION.toMillis()));
        assertThat(verdicts()).hasSize(1);
        assertThat(verdicts().get(0).duplicateOf).isEqualTo("a");
        assertNothingWaits();
    }

    @Test
    void aPendingVerdictAndItsTimerSurviveSnapshotAndRestore() throws Exception {
        send(announce("d", T0));
        send(matches("d", T0, 0, 1, "a", T0 - 5, 0.9));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = newHarness();
        harness.initializeState(snapshot);
        harness.open();
        assertThat(waitingVerdicts()).isOne();
        assertThat(harness.numEventTimeTimers()).isEqualTo(timersPerWaitingVerdict());
        send(matches("d", T0, 2, 1, "a", T0 - 5, 0.9)); // already alerted before the restore
        assertThat(alerts()).isEmpty();
        reportRest("d", T0, 0, 2);
        assertThat(verdicts()).hasSize(1);
        assertThat(verdicts().get(0).duplicateOf).isEqualTo("a");
        assertThat(verdicts().get(0).candidates).isEqualTo(2);
        assertNothingWaits();
    }

    @Test
    void waitingVerdictsAreRestoredByKeyGroupAtAnotherParallelism() throws Exception {
        harness.close();
        int maxParallelism = 128;
        OperatorSubtaskState snapshot;
        List<String> ids = List.of("a", "b", "c", "d", "e", "f", "g", "h");
        try (var one =
                verdictHarness(
                        settingsWithPendingBuffer(64, pendingBuffer()), maxParallelism, 1, 0)) {
            one.open();
            for (String id : ids) {
                one.processElement(announce(id, T0), T0);
                one.processElement(matches(id, T0, 0, 1, "x", T0 - 5, 0.9), T0);
            }
            snapshot = one.snapshot(1L, 1L);
        }
        int verdicts = 0;
        for (int subtask = 0; subtask < 2; subtask++) {
            OperatorSubtaskState part =
                    org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness
                            .repartitionOperatorState(snapshot, maxParallelism, 1, 2, subtask);
            try (var half =
                    verdictHarness(
                            settingsWithPendingBuffer(64, pendingBuffer()),
                            maxParallelism,
                            2,
                            subtask)) {
                half.initializeState(part);
                half.open();
                for (String id : ids) {
                    var range =
                            org.apache.flink.runtime.state.KeyGroupRangeAssignment
                                    .computeKeyGroupRangeForOperatorIndex(
                                            maxParallelism, 2, subtask);
                    int group =
                            org.apache.flink.runtime.state.KeyGroupRangeAssignment.assignToKeyGroup(
                                    VerdictEvent.key(id, T0), maxParallelism);
                    if (!range.contains(group)) {
                        continue;
                    }
                    for (int band = 1; band < BANDS; band++) {
                        half.processElement(report(id, T0, band), T0);
                    }
                }
                List<Verdict> out = half.extractOutputValues();
                assertThat(out).allSatisfy(v -> assertThat(v.duplicateOf).isEqualTo("x"));
                verdicts += out.size();
                assertThat(half.numKeyedStateEntries()).isZero();
                assertThat(((VerdictOperator) half.getOneInputOperator()).waitingOnHeap()).isZero();
            }
        }
        assertThat(verdicts)
                .as("every waiting verdict restored on exactly one subtask")
                .isEqualTo(ids.size());
        harness = null;
    }
}
