package dev.neardup.pipeline.verdicts;

import static dev.neardup.pipeline.HarnessFixtures.BANDS;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.announce;
import static dev.neardup.pipeline.HarnessFixtures.report;
import static dev.neardup.pipeline.HarnessFixtures.settingsWithPendingBuffer;
import static dev.neardup.pipeline.HarnessFixtures.verdictHarness;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.NearDupOptions;
import dev.neardup.io.Json;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.records.VerdictEvent;
import java.util.List;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DELETED verdicts in {@link VerdictOperator} (issue 12, item 4): one per deletion record, when the
 * watermark passes the deletion's time (after the verdicts of the document up to then), without
 * matches; kept in state across a checkpoint. On the heap here; in keyed state with a timer in
 * {@link VerdictDeletionSpilledTest}.
 */
class VerdictDeletionTest {

    /** The heap budget of waiting verdicts and deletions (the default). */
    protected MemorySize pendingBuffer() {
        return NearDupOptions.PENDING_BUFFER.defaultValue();
    }

    private KeyedOneInputStreamOperatorTestHarness<String, VerdictEvent, Verdict> harness;

    @BeforeEach
    void open() throws Exception {
        harness = verdictHarness(settingsWithPendingBuffer(64, pendingBuffer()));
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    private void send(VerdictEvent e) throws Exception {
        harness.processElement(e, e.eventTime);
    }

    private static VerdictEvent deletion(String docId, long time) {
        return VerdictEvent.deletion(docId, null, time, "deletions.jsonl:" + time);
    }

    @Test
    void aDeletionBecomesADeletedVerdictWhenTheWatermarkPassesIt() throws Exception {
        send(deletion("a", T0 + 1000));
        harness.processWatermark(new Watermark(T0 + 999));
        assertThat(harness.extractOutputValues()).isEmpty();

        harness.processWatermark(new Watermark(T0 + 1000));
        List<Verdict> out = harness.extractOutputValues();
        assertThat(out).hasSize(1);
        Verdict v = out.get(0);
        assertThat(v.docId).isEqualTo("a");
        assertThat(v.verdict).isEqualTo(Verdict.DELETED);
        assertThat(v.url).isNull();
        assertThat(v.duplicateOf).isNull();
        assertThat(v.similarity).isNull();
        assertThat(v.matches).isEmpty();
        assertThat(v.candidates).isZero();
        assertThat(v.eventTime).isEqualTo(Json.isoTime(T0 + 1000));
        assertThat(v.detectedAt).isNotNull();
        // Nothing is left behind.
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void everyDeletionRecordGetsItsVerdictWithTheUrlItGave() throws Exception {
        send(deletion("a", T0));
        send(VerdictEvent.deletion("a", "https://example.org/a", T0, "deletions.jsonl:1"));
        send(deletion("b", T0 + 5));
        harness.processWatermark(new Watermark(T0 + 10));
        List<Verdict> out = harness.extractOutputValues();
        assertThat(out).extracting(v -> v.docId).containsExactlyInAnyOrder("a", "a", "b");
        assertThat(out).allSatisfy(v -> assertThat(v.verdict).isEqualTo(Verdict.DELETED));
        assertThat(out)
                .filteredOn(v -> v.docId.equals("a"))
                .allSatisfy(v -> assertThat(v.url).isEqualTo("https://example.org/a"));
    }

    @Test
    void aDocumentAndItsDeletionAtTheSameTimeHaveAVerdictEach() throws Exception {
        send(announce("a", T0));
        send(deletion("a", T0));
        for (int band = 0; band < BANDS; band++) {
            send(report("a", T0, band));
        }
        assertThat(harness.extractOutputValues())
                .extracting(v -> v.verdict)
                .containsExactly(Verdict.UNIQUE);
        harness.processWatermark(new Watermark(T0));
        assertThat(harness.extractOutputValues())
                .extracting(v -> v.verdict)
                .containsExactly(Verdict.UNIQUE, Verdict.DELETED);
    }

    @Test
    void aWaitingDeletionSurvivesSnapshotAndRestore() throws Exception {
        send(deletion("a", T0 + 1000));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = verdictHarness(settingsWithPendingBuffer(64, pendingBuffer()));
        harness.setup();
        harness.initializeState(snapshot);
        harness.open();
        harness.processWatermark(new Watermark(T0 + 1000));
        assertThat(harness.extractOutputValues())
                .extracting(v -> v.docId + " " + v.verdict)
                .containsExactly("a DELETED");
    }

    @Test
    void aDeletionAndAVersionAtTheSameTimeWaitApart() throws Exception {
        assertThat(deletion("a", T0).key()).isNotEqualTo(announce("a", T0).key());
        send(announce("a", T0));
        send(deletion("a", T0));
        harness.processWatermark(new Watermark(T0));
        assertThat(harness.extractOutputValues())
                .extracting(v -> v.verdict)
                .containsExactly(Verdict.DELETED);
        for (int band = 0; band < BANDS; band++) {
            send(report("a", T0, band));
        }
        assertThat(harness.extractOutputValues())
                .extracting(v -> v.verdict)
                .containsExactly(Verdict.DELETED, Verdict.UNIQUE);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }
}
