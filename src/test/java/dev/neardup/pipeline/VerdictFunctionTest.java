package dev.neardup.pipeline;

import static dev.neardup.pipeline.HarnessFixtures.BANDS;
import static dev.neardup.pipeline.HarnessFixtures.RETENTION;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.announce;
import static dev.neardup.pipeline.HarnessFixtures.lateMatch;
import static dev.neardup.pipeline.HarnessFixtures.matches;
import static dev.neardup.pipeline.HarnessFixtures.report;
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
 * {@link VerdictFunction} in Flink's keyed harness: one verdict per input record, emitted when all
 * of the document's buckets have reported and not before; alerts at once, once per pair; state and
 * timers cleaned up after the verdict, and swept after the retention if reports never complete.
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
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
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
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
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
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void matchesForADocumentNeverAnnouncedAreSweptAfterTheRetention() throws Exception {
        send(lateMatch("ghost", T0, "a", T0 - 1));
        harness.processWatermark(new Watermark(T0 + RETENTION.toMillis() - 1));
        assertThat(harness.numKeyedStateEntries()).isOne();
        harness.processWatermark(new Watermark(T0 + RETENTION.toMillis()));
        assertThat(verdicts()).isEmpty();
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void aVerdictStillMissingReportsAfterTheRetentionIsMadeWithWhatItHas() throws Exception {
        send(announce("d", T0));
        send(matches("d", T0, 0, 1, "a", T0 - 5, 0.9));
        harness.processWatermark(new Watermark(T0 + RETENTION.toMillis()));
        assertThat(verdicts()).hasSize(1);
        assertThat(verdicts().get(0).duplicateOf).isEqualTo("a");
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
        assertThat(harness.numEventTimeTimers()).isOne();
        send(matches("d", T0, 2, 1, "a", T0 - 5, 0.9)); // already alerted before the restore
        assertThat(alerts()).isEmpty();
        reportRest("d", T0, 0, 2);
        assertThat(verdicts()).hasSize(1);
        assertThat(verdicts().get(0).duplicateOf).isEqualTo("a");
        assertThat(verdicts().get(0).candidates).isEqualTo(2);
        assertThat(harness.numEventTimeTimers()).isZero();
    }
}
