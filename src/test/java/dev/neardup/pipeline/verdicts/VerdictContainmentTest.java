package dev.neardup.pipeline.verdicts;

import static dev.neardup.pipeline.HarnessFixtures.MINUTE;
import static dev.neardup.pipeline.HarnessFixtures.RETENTION;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.announce;
import static dev.neardup.pipeline.HarnessFixtures.sideValues;
import static dev.neardup.pipeline.HarnessFixtures.verdictHarness;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.io.Alert;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.HarnessFixtures;
import dev.neardup.pipeline.StateCompatibility;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.similarity.Estimate;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link VerdictOperator} in containment mode, with waiting verdicts on the heap and in keyed
 * state: a verdict waits for its bucket reports and for as many sample-store results as they say
 * were sent ({@link VerdictEvent#forwarded}), in whatever order they come; alerts and directions
 * come from the results; nothing is left behind; waiting verdicts survive a restore, and a restore
 * across the sample store's introduction is refused in both directions.
 */
class VerdictContainmentTest {

    private KeyedOneInputStreamOperatorTestHarness<String, VerdictEvent, Verdict> harness;
    private int bands;

    private static NearDupSettings settings(String pendingBuffer) {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.SIMILARITY, SimilarityFamily.CONTAINMENT);
        conf.set(NearDupOptions.THRESHOLD, 0.8);
        conf.set(NearDupOptions.RETENTION, RETENTION);
        conf.set(NearDupOptions.PENDING_BUFFER, MemorySize.parse(pendingBuffer));
        return NearDupSettings.from(conf);
    }

    private void open(String pendingBuffer) throws Exception {
        NearDupSettings s = settings(pendingBuffer);
        bands = s.similarity().bandKeys();
        harness = verdictHarness(s);
        harness.open();
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

    /** A subtask's report covering {@code reports} buckets that sent {@code forwarded} pairs. */
    private static VerdictEvent report(
            String docId, long time, int reports, int candidates, int forwarded) {
        VerdictEvent e = VerdictEvent.matches(docId, "https://example.org/" + docId, time, 0);
        e.reports = reports;
        e.candidates = candidates;
        e.forwarded = forwarded;
        return e;
    }

    /** The store's result for one candidate of {@code docId}: {@code match} or none. */
    private VerdictEvent result(String docId, long time, String match, long matchTime) {
        return result(docId, time, match, matchTime, Estimate.Direction.SECOND_IN_FIRST);
    }

    private VerdictEvent result(
            String docId, long time, String match, long matchTime, Estimate.Direction direction) {
        VerdictEvent e = VerdictEvent.result(docId, "https://example.org/" + docId, time, 5);
        if (match != null) {
            e.addMatch(
                    match,
                    "https://example.org/" + match,
                    matchTime,
                    new Estimate(0.875, direction),
                    5,
                    null,
                    0);
        }
        return e;
    }

    private List<Verdict> verdicts() {
        return harness.extractOutputValues();
    }

    private void assertNothingWaits() {
        assertThat(((VerdictOperator) harness.getOneInputOperator()).waitingOnHeap()).isZero();
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"32mb", "0"})
    void aVerdictWaitsForTheResultsItsReportsSaidWereSent(String buffer) throws Exception {
        open(buffer);
        long t = T0 + MINUTE;
        send(announce("digest", t));
        send(report("digest", t, bands - 7, 40, 2));
        send(result("digest", t, null, 0));
        send(report("digest", t, 7, 3, 1));
        assertThat(verdicts()).as("all buckets reported, 1 of 3 results in").isEmpty();
        send(result("digest", t, "article", T0));
        assertThat(verdicts()).as("all buckets reported, 2 of 3 results in").isEmpty();
        List<Alert> alerts = sideValues(harness, VerdictOperator.ALERTS);
        assertThat(alerts).hasSize(1);
        assertThat(alerts.get(0).duplicateOf).isEqualTo("article");
        assertThat(alerts.get(0).direction).isEqualTo(Alert.DUPLICATE_IN_DOC);
        assertThat(alerts.get(0).similarity).isEqualTo(0.875);
        send(result("digest", t, "article", T0)); // the pair from another subtask's buckets
        Verdict v = verdicts().get(0);
        assertThat(verdicts()).hasSize(1);
        assertThat(v.verdict)
                .as("contains an earlier article, a near-copy of nothing")
                .isEqualTo(Verdict.CONTAINED);
        assertThat(v.duplicateOf).isEqualTo("article");
        assertThat(v.direction).isEqualTo(Alert.DUPLICATE_IN_DOC);
        assertThat(v.candidates).isEqualTo(43);
        assertThat(sideValues(harness, VerdictOperator.ALERTS)).as("one alert per pair").hasSize(1);
        assertNothingWaits();
    }

    @Test
    void aNearCopyIsADuplicateOfItsEarliestNearCopyEvenWhenAContainedMatchIsEarlier()
            throws Exception {
        open("32mb");
        long t = T0 + 2 * MINUTE;
        send(announce("page", t));
        send(report("page", t, bands, 5, 3));
        send(result("page", t, "quote", T0, Estimate.Direction.SECOND_IN_FIRST));
        send(result("page", t, "copy-b", T0 + MINUTE, Estimate.Direction.MUTUAL));
        send(result("page", t, "copy-a", T0 + MINUTE, Estimate.Direction.MUTUAL));
        Verdict v = verdicts().get(0);
        assertThat(v.verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(v.duplicateOf)
                .as("the earliest MUTUAL match, by (time, id)")
                .isEqualTo("copy-a");
        assertThat(v.direction).isEqualTo(Alert.MUTUAL);
        assertThat(v.matches).extracting(m -> m.docId).contains("quote", "copy-a", "copy-b");
        List<Alert> alerts = sideValues(harness, VerdictOperator.ALERTS);
        assertThat(alerts).filteredOn(a -> !a.isClusterMerge()).hasSize(3);
        assertNothingWaits();
    }

    @Test
    void aDocumentFoundInsideAnEarlierOneIsContained() throws Exception {
        open("32mb");
        long t = T0 + MINUTE;
        send(announce("article", t));
        send(report("article", t, bands, 2, 1));
        send(result("article", t, "digest", T0, Estimate.Direction.FIRST_IN_SECOND));
        Verdict v = verdicts().get(0);
        assertThat(v.verdict).isEqualTo(Verdict.CONTAINED);
        assertThat(v.duplicateOf).isEqualTo("digest");
        assertThat(v.direction).isEqualTo(Alert.DOC_IN_DUPLICATE);
        assertNothingWaits();
    }

    @ParameterizedTest
    @ValueSource(strings = {"32mb", "0"})
    void resultsBeforeTheirReportsAndTheAnnouncementAreCounted(String buffer) throws Exception {
        open(buffer);
        send(result("quote", T0, null, 0));
        send(report("quote", T0, bands, 9, 1));
        assertThat(verdicts()).as("not announced yet").isEmpty();
        send(announce("quote", T0));
        assertThat(verdicts()).hasSize(1);
        assertThat(verdicts().get(0).verdict).isEqualTo(Verdict.UNIQUE);
        assertNothingWaits();
    }

    @ParameterizedTest
    @ValueSource(strings = {"32mb", "0"})
    void aVerdictWithoutCandidatesNeedsNoResult(String buffer) throws Exception {
        open(buffer);
        send(announce("alone", T0));
        send(report("alone", T0, bands, 0, 0));
        assertThat(verdicts()).hasSize(1);
        assertNothingWaits();
    }

    @ParameterizedTest
    @ValueSource(strings = {"32mb", "0"})
    void aWaitingVerdictSurvivesSnapshotAndRestore(String buffer) throws Exception {
        open(buffer);
        send(announce("digest", T0));
        send(report("digest", T0, bands, 4, 1));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();
        harness = verdictHarness(settings(buffer));
        harness.initializeState(snapshot);
        harness.open();
        assertThat(verdicts()).isEmpty();
        send(result("digest", T0, "article", T0 - 1));
        assertThat(verdicts()).hasSize(1);
        assertThat(verdicts().get(0).duplicateOf).isEqualTo("article");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void waitingVerdictsAreNotRestoredAcrossTheSampleStore(boolean toContainment) throws Exception {
        NearDupSettings from = toContainment ? HarnessFixtures.settings(64) : settings("32mb");
        NearDupSettings to = toContainment ? settings("32mb") : HarnessFixtures.settings(64);
        harness = verdictHarness(from);
        harness.open();
        send(announce("waiting", T0));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();
        var restoring = verdictHarness(to);
        harness = null;
        assertThatThrownBy(() -> restoring.initializeState(snapshot))
                .hasStackTraceContaining(StateCompatibility.INCOMPATIBLE)
                .hasStackTraceContaining(StateCompatibility.CONTAINMENT_SAMPLES);
        try {
            restoring.close();
        } catch (Exception ignored) {
            // never opened
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"32mb", "0"})
    void aVerdictWhoseResultsNeverComeIsSweptAfterTheRetention(String buffer) throws Exception {
        open(buffer);
        send(announce("stuck", T0));
        send(report("stuck", T0, bands, 1, 1));
        harness.processWatermark(new Watermark(T0 + RETENTION.toMillis()));
        assertThat(verdicts()).hasSize(1);
        assertNothingWaits();
    }
}
