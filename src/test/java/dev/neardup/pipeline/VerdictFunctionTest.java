package dev.neardup.pipeline;

import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.announce;
import static dev.neardup.pipeline.HarnessFixtures.matches;
import static dev.neardup.pipeline.HarnessFixtures.settings;
import static dev.neardup.pipeline.HarnessFixtures.sideValues;
import static dev.neardup.pipeline.HarnessFixtures.verdictHarness;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.Alert;
import dev.neardup.io.Json;
import dev.neardup.io.Verdict;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link VerdictFunction} in Flink's keyed harness: one verdict per input record, emitted when the
 * watermark passes the document and not before; alerts at once, once per pair; state and timers
 * cleaned up after the verdict.
 */
class VerdictFunctionTest {

    private KeyedOneInputStreamOperatorTestHarness<String, VerdictEvent, Verdict> harness;

    @BeforeEach
    void open() throws Exception {
        harness = verdictHarness(settings(64));
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

    private List<Verdict> verdicts() {
        return harness.extractOutputValues();
    }

    private List<Alert> alerts() {
        return sideValues(harness, VerdictFunction.ALERTS);
    }

    @Test
    void aDocumentWithoutMatchesIsUniqueOnceTheWatermarkPassesIt() throws Exception {
        send(announce("a", T0));
        harness.processWatermark(new Watermark(T0 - 1));
        assertThat(verdicts()).isEmpty();

        harness.processWatermark(new Watermark(T0));
        assertThat(verdicts()).hasSize(1);
        Verdict v = verdicts().get(0);
        assertThat(v.docId).isEqualTo("a");
        assertThat(v.verdict).isEqualTo(Verdict.UNIQUE);
        assertThat(v.url).isEqualTo("https://example.org/a");
        assertThat(v.eventTime).isEqualTo(Json.isoTime(T0));
        assertThat(v.duplicateOf).isNull();
        assertThat(v.matches).isEmpty();
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void matchesGiveAlertsAtOnceAndADuplicateVerdictAtTheWatermark() throws Exception {
        send(announce("d", T0 + 5000));
        send(matches("d", T0 + 5000, 3, 4, "b", T0 + 2000, 0.95, "a", T0 + 1000, 0.85));
        assertThat(alerts()).extracting(a -> a.duplicateOf).containsExactly("b", "a");
        assertThat(alerts()).allSatisfy(a -> assertThat(a.docId).isEqualTo("d"));
        assertThat(alerts()).allSatisfy(a -> assertThat(a.band).isEqualTo(3));
        assertThat(alerts().get(0).duplicateUrl).isEqualTo("https://example.org/b");
        assertThat(verdicts()).isEmpty();

        send(matches("d", T0 + 5000, 1, 2, "c", T0 + 1000, 0.9));
        harness.processWatermark(new Watermark(T0 + 5000));
        Verdict v = verdicts().get(0);
        assertThat(v.verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(v.candidates).isEqualTo(6);
        // Most similar first; duplicateOf is the earliest (event time, then id): a before c.
        assertThat(v.matches).extracting(m -> m.docId).containsExactly("b", "c", "a");
        assertThat(v.duplicateOf).isEqualTo("a");
        assertThat(v.similarity).isEqualTo(0.85);
        assertThat(v.duplicateUrl).isEqualTo("https://example.org/a");
    }

    @Test
    void thePairFoundInSeveralBandsIsAlertedAndListedOnce() throws Exception {
        send(matches("d", T0, 0, 1, "a", T0 - 10, 0.9));
        send(announce("d", T0));
        send(matches("d", T0, 5, 1, "a", T0 - 10, 0.9));
        assertThat(alerts()).hasSize(1);
        assertThat(alerts().get(0).band).isZero();
        harness.processWatermark(new Watermark(T0));
        assertThat(verdicts().get(0).matches).hasSize(1);
        assertThat(verdicts().get(0).candidates).isEqualTo(2);
    }

    @Test
    void aMatchReportedBeforeTheAnnouncementStillCounts() throws Exception {
        send(matches("late", T0, 2, 0, "early", T0 - 100, 1.0));
        send(announce("late", T0));
        harness.processWatermark(new Watermark(T0 + 1));
        assertThat(verdicts()).hasSize(1);
        assertThat(verdicts().get(0).duplicateOf).isEqualTo("early");
    }

    @Test
    void aRepeatedRecordGetsItsOwnVerdictAndARecrawlIsAnotherDocument() throws Exception {
        send(announce("p", T0));
        send(announce("p", T0)); // the same record twice
        send(announce("p", T0 + 60_000)); // a re-crawl
        harness.processWatermark(new Watermark(T0));
        assertThat(verdicts()).hasSize(2);
        harness.processWatermark(new Watermark(T0 + 60_000));
        assertThat(verdicts()).hasSize(3);
        assertThat(verdicts().get(2).eventTime).isEqualTo(Json.isoTime(T0 + 60_000));
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void verdictsComeInEventTimeOrderAsTheWatermarkAdvances() throws Exception {
        send(announce("c", T0 + 3));
        send(announce("a", T0 + 1));
        send(announce("b", T0 + 2));
        harness.processWatermark(new Watermark(T0 + 2));
        assertThat(verdicts()).extracting(v -> v.docId).containsExactly("a", "b");
        harness.processWatermark(new Watermark(Long.MAX_VALUE));
        assertThat(verdicts()).extracting(v -> v.docId).containsExactly("a", "b", "c");
    }

    @Test
    void matchesForADocumentNeverAnnouncedGiveNoVerdict() throws Exception {
        send(matches("ghost", T0, 0, 0, "a", T0 - 1, 1.0));
        harness.processWatermark(new Watermark(T0));
        assertThat(verdicts()).isEmpty();
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void aPendingVerdictAndItsTimerSurviveSnapshotAndRestore() throws Exception {
        send(announce("d", T0));
        send(matches("d", T0, 0, 1, "a", T0 - 5, 0.9));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = verdictHarness(settings(64));
        harness.initializeState(snapshot);
        harness.open();
        send(matches("d", T0, 2, 1, "a", T0 - 5, 0.9)); // already alerted before the restore
        assertThat(alerts()).isEmpty();
        harness.processWatermark(new Watermark(T0));
        assertThat(verdicts()).hasSize(1);
        assertThat(verdicts().get(0).duplicateOf).isEqualTo("a");
        assertThat(verdicts().get(0).candidates).isEqualTo(2);
    }
}
