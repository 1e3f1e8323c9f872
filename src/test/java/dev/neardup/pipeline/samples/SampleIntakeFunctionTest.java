package dev.neardup.pipeline.samples;

import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.intakeHarness;
import static dev.neardup.pipeline.HarnessFixtures.sideValues;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.NearDupSettings;
import dev.neardup.pipeline.HarnessFixtures;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SampleIntakeFunction} in Flink's keyed harness: it joins each bucket report with its
 * document's sample (candidates keyed by their member, carrying the document's sample), sends a
 * kept document's sample to the store once, passes the reports to the verdicts, holds a report that
 * comes before its sample, and drops the sample exactly when the reports have covered all the
 * document's band records (those of a repeated input record too), leaving no state behind.
 */
class SampleIntakeFunctionTest {

    private static final NearDupSettings SETTINGS = HarnessFixtures.containmentSettings(64);
    private static final int BANDS = SETTINGS.similarity().bandKeys();
    private static final byte[] SAMPLE = {1, 2, 3, 4, 5};
    private static final long FP = 42L;

    private KeyedOneInputStreamOperatorTestHarness<String, SampleStoreRecord, SampleStoreRecord>
            harness;
    private int seenOut;
    private int seenReports;

    @BeforeEach
    void open() throws Exception {
        harness = intakeHarness(SETTINGS);
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private void sample(String id, long time) throws Exception {
        harness.processElement(
                SampleStoreRecord.sample(id, time, FP, "https://x.example/" + id, SAMPLE), time);
    }

    /**
     * A bucket subtask's report on {@code id} covering {@code bandRecords}, kept or not, with
     * candidate pairs against {@code members} (all earlier than the document).
     */
    private void report(String id, long time, int bandRecords, boolean kept, String... members)
            throws Exception {
        BandRecord doc = new BandRecord();
        doc.docId = id;
        doc.url = "https://x.example/" + id;
        doc.eventTime = time;
        doc.fingerprint = FP;
        doc.band = 3;
        VerdictEvent event = VerdictEvent.matches(id, doc.url, time, doc.band);
        event.reports = bandRecords;
        event.candidates = members.length;
        event.forwarded = members.length;
        SampleStoreRecord r = SampleStoreRecord.report(doc, event);
        r.kept = kept;
        for (String m : members) {
            r.addMember(m, time - 1000, 7L, 5, true);
        }
        harness.processElement(r.trimmed(), time);
    }

    /** What the intake sent the store since the last call, as "KIND id". */
    private List<SampleStoreRecord> toStore() {
        List<SampleStoreRecord> all = harness.extractOutputValues();
        List<SampleStoreRecord> step = new ArrayList<>(all.subList(seenOut, all.size()));
        seenOut = all.size();
        return step;
    }

    private List<VerdictEvent> toVerdicts() {
        List<VerdictEvent> all = sideValues(harness, SampleIntakeFunction.REPORTS);
        List<VerdictEvent> step = new ArrayList<>(all.subList(seenReports, all.size()));
        seenReports = all.size();
        return step;
    }

    @Test
    void aReportGoesOnWithTheSampleAndTheSampleGoesWhenAllBandRecordsAreReported()
            throws Exception {
        sample("d", T0);
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        report("d", T0, BANDS - 10, true, "a", "b");
        List<SampleStoreRecord> sent = toStore();
        assertThat(sent)
                .extracting(r -> r.kind + " " + r.id)
                .containsExactly(
                        SampleStoreRecord.SAMPLE + " d",
                        SampleStoreRecord.CANDIDATE + " a",
                        SampleStoreRecord.CANDIDATE + " b");
        for (SampleStoreRecord c : sent.subList(1, 3)) {
            assertThat(c.sample).isEqualTo(SAMPLE);
            assertThat(c.docId).isEqualTo("d");
            assertThat(c.docTime).isEqualTo(T0);
            assertThat(c.band).as("the band where the pair collided").isEqualTo(5);
            assertThat(c.memberFirst).isTrue();
        }
        assertThat(toVerdicts())
                .extracting(e -> e.docId + " " + e.reports + " " + e.forwarded)
                .containsExactly("d " + (BANDS - 10) + " 2");
        assertThat(harness.numKeyedStateEntries()).as("10 band records outstanding").isEqualTo(1);
        report("d", T0, 10, true);
        assertThat(toStore()).as("the sample went to the store once").isEmpty();
        assertThat(toVerdicts()).hasSize(1);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void aReportBeforeItsSampleWaitsForIt() throws Exception {
        report("d", T0, BANDS, false, "a");
        assertThat(toStore()).isEmpty();
        assertThat(toVerdicts()).as("the report waits with its pairs").isEmpty();
        sample("d", T0);
        assertThat(toStore())
                .extracting(r -> r.kind + " " + r.id)
                .as("not kept: no sample for the store")
                .containsExactly(SampleStoreRecord.CANDIDATE + " a");
        assertThat(toVerdicts()).hasSize(1);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void aRepeatedRecordKeepsTheSampleUntilBothCopiesAreReported() throws Exception {
        sample("d", T0);
        sample("d", T0);
        report("d", T0, BANDS, false);
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        report("d", T0, BANDS, false, "a");
        assertThat(toStore()).hasSize(1);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void versionsAndDeletionsAreApartAndDeletionsGoOn() throws Exception {
        sample("d", T0);
        sample("d", T0 + 1000);
        harness.processElement(SampleStoreRecord.deletion("d", T0 + 500), T0 + 500);
        assertThat(toStore())
                .extracting(r -> r.kind + " " + r.id + " " + r.time)
                .containsExactly(SampleStoreRecord.DELETION + " d " + (T0 + 500));
        report("d", T0 + 1000, BANDS, true, "a");
        List<SampleStoreRecord> sent = toStore();
        assertThat(sent).extracting(r -> r.kind).containsExactly(0, 1);
        assertThat(sent.get(1).docTime).isEqualTo(T0 + 1000);
        assertThat(harness.numKeyedStateEntries()).as("the version at T0 waits").isEqualTo(1);
        report("d", T0, BANDS, false);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void samplesAndWaitingReportsSurviveSnapshotAndRestore() throws Exception {
        sample("d", T0);
        report("e", T0, BANDS, false, "d");
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();
        harness = intakeHarness(SETTINGS);
        harness.initializeState(snapshot);
        harness.open();
        seenOut = 0;
        seenReports = 0;
        sample("e", T0);
        report("d", T0, BANDS, true);
        assertThat(toStore())
                .extracting(r -> r.kind + " " + r.id)
                .containsExactly(
                        SampleStoreRecord.CANDIDATE + " d", SampleStoreRecord.SAMPLE + " d");
        assertThat(toVerdicts()).extracting(e -> e.docId).containsExactly("e", "d");
        assertThat(harness.numKeyedStateEntries()).isZero();
    }
}
