package dev.neardup.pipeline.buckets;

import static dev.neardup.pipeline.HarnessFixtures.COSINE_BITS;
import static dev.neardup.pipeline.HarnessFixtures.HOUR;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.bucketHarness;
import static dev.neardup.pipeline.HarnessFixtures.cosineRecord;
import static dev.neardup.pipeline.HarnessFixtures.cosineSettings;
import static dev.neardup.pipeline.HarnessFixtures.flipped;
import static dev.neardup.pipeline.HarnessFixtures.own;
import static dev.neardup.pipeline.HarnessFixtures.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.pipeline.BucketHarness;
import dev.neardup.pipeline.HarnessFixtures;
import dev.neardup.pipeline.StateCompatibility;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.verdicts.VerdictOperator;
import dev.neardup.sketch.SimHash;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one {@link BandBucketOperator} in cosine mode ({@link SimilarityFamily#COSINE}): members keep
 * 64-bit SimHash fingerprints, a candidate is a match at Hamming distance at most k = 3, reported
 * with the estimated cosine cos(pi h / 64); exact copies, bounds and cleanup as with Jaccard; and a
 * restore with the other family's settings is refused.
 */
class BandBucketCosineTest {

    private static final long BUCKET = 42L;
    private static final long PAGE = 0x5DEECE66DL * 0x9E3779B97F4A7C15L;

    private BucketHarness harness;

    private void open(NearDupSettings settings) throws Exception {
        harness = bucketHarness(settings);
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void everyDistanceUpToKIsAMatchWithTheEstimatedCosineAndKPlusOneIsNot() throws Exception {
        for (int h = 0; h <= 6; h++) {
            open(cosineSettings(64));
            harness.feed(cosineRecord(BUCKET, "a", T0, PAGE));
            VerdictEvent b =
                    own(harness.feed(cosineRecord(BUCKET, "b", T0 + 1, flipped(PAGE, h))), "b");
            assertThat(b.candidates).as("distance %d", h).isEqualTo(1);
            if (h <= HarnessFixtures.COSINE_K) {
                assertThat(b.matches.ids).as("distance %d", h).containsExactly("a");
                assertThat(b.matches.similarities[0])
                        .as("distance %d", h)
                        .isEqualTo(SimHash.cosine(h, COSINE_BITS));
            } else {
                assertThat(b.matches.ids).as("distance %d", h).isEmpty();
            }
            close();
        }
    }

    @Test
    void anEarlierDocumentArrivingLastMakesTheLaterMemberItsDuplicate() throws Exception {
        open(cosineSettings(64));
        harness.feed(cosineRecord(BUCKET, "b", T0 + 1000, flipped(PAGE, 2)));
        List<VerdictEvent> step = harness.feed(cosineRecord(BUCKET, "a", T0, PAGE));
        VerdictEvent toB = own(step, "b");
        assertThat(toB.matches.ids).containsExactly("a");
        assertThat(toB.matches.similarities[0]).isEqualTo(SimHash.cosine(2, 64));
        assertThat(own(step, "a").matches.ids).isEmpty();
    }

    @Test
    void exactCopiesAreKeptOnceAndEveryCopyNamesTheFirstAtCosineOne() throws Exception {
        open(cosineSettings(64));
        harness.feed(cosineRecord(BUCKET, "copy-0", T0, PAGE));
        for (int i = 1; i <= 200; i++) {
            VerdictEvent e =
                    own(harness.feed(cosineRecord(BUCKET, "copy-" + i, T0 + i, PAGE)), "copy-" + i);
            assertThat(e.candidates).isEqualTo(1);
            assertThat(e.matches.ids).containsExactly("copy-0");
            assertThat(e.matches.similarities).containsExactly(1.0);
        }
        VerdictEvent other =
                own(harness.feed(cosineRecord(BUCKET, "near", T0 + 500, flipped(PAGE, 1))), "near");
        assertThat(other.candidates).as("one member stands for 201 copies").isEqualTo(1);
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void nearCopiesWithEqualFingerprintsButOtherWordsAreMembersOfTheirOwn() throws Exception {
        open(cosineSettings(64));
        harness.feed(cosineRecord(BUCKET, "a", T0, PAGE, 1L));
        VerdictEvent b = own(harness.feed(cosineRecord(BUCKET, "b", T0 + 1, PAGE, 2L)), "b");
        assertThat(b.matches.ids).containsExactly("a");
        assertThat(b.matches.similarities).containsExactly(1.0);
        VerdictEvent c =
                own(harness.feed(cosineRecord(BUCKET, "c", T0 + 2, flipped(PAGE, 1), 3L)), "c");
        assertThat(c.candidates).as("b was kept beside a").isEqualTo(2);
        assertThat(c.matches.ids).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void capacityKeepsTheEarliestMembers() throws Exception {
        open(cosineSettings(2));
        harness.feed(cosineRecord(BUCKET, "c", T0 + 2000, flipped(PAGE, 40)));
        harness.feed(cosineRecord(BUCKET, "a", T0, flipped(PAGE, 20)));
        harness.feed(cosineRecord(BUCKET, "b", T0 + 1000, flipped(PAGE, 30)));
        VerdictEvent d = own(harness.feed(cosineRecord(BUCKET, "d", T0 + 3000, PAGE)), "d");
        assertThat(d.candidates).isEqualTo(2);
        assertThat(d.matches.ids).isEmpty();
    }

    @Test
    void membersOlderThanTheRetentionArePrunedAndAnEmptiedBucketIsCleared() throws Exception {
        open(cosineSettings(64));
        harness.feed(cosineRecord(BUCKET, "a", T0, PAGE));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        harness.processWatermark(new Watermark(T0 + 2 * HOUR));
        VerdictEvent late =
                own(harness.feed(cosineRecord(BUCKET, "b", T0 + 2 * HOUR + 1, PAGE)), "b");
        assertThat(late.candidates).as("a was pruned before b was compared").isZero();
        assertThat(late.matches.ids).isEmpty();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void aBucketNotWrittenForLongerThanRetentionExpiresByStateTtl() throws Exception {
        harness = bucketHarness(cosineSettings(64));
        harness.setStateTtlProcessingTime(0);
        harness.open();
        harness.feed(cosineRecord(BUCKET, "a", T0, PAGE));
        harness.setStateTtlProcessingTime(2 * HOUR);
        assertThat(own(harness.feed(cosineRecord(BUCKET, "b", T0 + 1, PAGE)), "b").candidates)
                .isZero();
    }

    @Test
    void membersSurviveSnapshotAndRestoreWithTheSameSettings() throws Exception {
        open(cosineSettings(64));
        harness.feed(cosineRecord(BUCKET, "a", T0, PAGE));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = bucketHarness(cosineSettings(64));
        harness.initializeState(snapshot);
        harness.open();
        VerdictEvent b =
                own(harness.feed(cosineRecord(BUCKET, "b", T0 + 1, flipped(PAGE, 3))), "b");
        assertThat(b.matches.ids).containsExactly("a");
    }

    @Test
    void aRestoreOfJaccardStateWithCosineSettingsIsRefusedNamingTheFamily() throws Exception {
        open(settings(64));
        harness.feed(HarnessFixtures.inBucket(BUCKET, "a", T0));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = bucketHarness(cosineSettings(64));
        BucketHarness restoring = harness;
        assertThatThrownBy(() -> restoring.initializeState(snapshot))
                .hasStackTraceContaining(StateCompatibility.INCOMPATIBLE)
                .hasStackTraceContaining("neardup.similarity was JACCARD, now COSINE");
        harness = null;
        try {
            restoring.close();
        } catch (Exception ignored) {
            // the harness never opened
        }
    }

    @Test
    void alertsAndVerdictsOfCosineCarryTheHammingDistanceBehindTheEstimate() throws Exception {
        NearDupSettings settings = cosineSettings(64);
        assertThat(settings.similarity().bandKeys()).as("C(4, 3) tables").isEqualTo(4);
        var verdicts = HarnessFixtures.verdictHarness(settings);
        try {
            verdicts.open();
            verdicts.processElement(HarnessFixtures.announce("b", T0 + 1), T0 + 1);
            double cos2 = SimHash.cosine(2, COSINE_BITS);
            VerdictEvent found = HarnessFixtures.matches("b", T0 + 1, 0, 1, "a", T0, cos2);
            verdicts.processElement(found, T0 + 1);
            for (int table = 1; table < 4; table++) {
                verdicts.processElement(HarnessFixtures.report("b", T0 + 1, table), T0 + 1);
            }
            verdicts.processWatermark(new Watermark(T0 + 1));
            List<dev.neardup.io.Alert> alerts =
                    HarnessFixtures.sideValues(verdicts, VerdictOperator.ALERTS);
            assertThat(alerts).hasSize(1);
            assertThat(alerts.get(0).similarity).isEqualTo(cos2);
            assertThat(alerts.get(0).hamming).isEqualTo(2);
            List<dev.neardup.io.Verdict> out = verdicts.extractOutputValues();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).verdict).isEqualTo("DUPLICATE");
            assertThat(out.get(0).hamming).isEqualTo(2);
            assertThat(out.get(0).matches[0].hamming).isEqualTo(2);
        } finally {
            verdicts.close();
        }
    }
}
