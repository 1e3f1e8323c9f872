package dev.neardup.pipeline;

import static dev.neardup.pipeline.HarnessFixtures.MINUTE;
import static dev.neardup.pipeline.HarnessFixtures.RETENTION;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.sideValues;
import static dev.neardup.pipeline.HarnessFixtures.verdictHarness;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.io.Alert;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.verdicts.VerdictOperator;
import dev.neardup.similarity.Estimate;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OperatorSnapshotUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link OlderPendingVerdicts} reads the waiting verdicts of older state layouts as their releases
 * wrote them, so the test fails if the reader drifts from the layouts it stands for: a {@code
 * PendingVerdict} of layout 2 serialized by {@code c2b5705} (golden bytes), and verdict operator
 * snapshots of layout 3 written by {@code 561a660} under {@code src/test/resources/state/}, with
 * the waiting verdicts on the heap (raw keyed state) and spilled (keyed state, restored through
 * Flink's POJO schema evolution). Layout 3 packed a containment match's direction into its
 * similarity; restored, the direction is typed and the outputs are those of that release. Layout 4
 * snapshots, written by {@code 869e630}, have no matches alerted early; layout 5 snapshots, written
 * by {@code acbabb7}, have their keys in modified UTF-8.
 */
class OlderPendingVerdictsTest {

    /**
     * docId d, url https://example.org/d, time 1000, one record, 3 candidates, 2 reports, match a.
     */
    private static final String LAYOUT_2_WRITTEN_BY_C2B5705 =
            "0200000000030002640000000000000003e80002000000000100000000000001f40000000001026100"
                    + "000000013fec00000000000000000000011668747470733a2f2f6578616d706c652e6f72672f"
                    + "610000000001000000000200000000010e637261776c2e6a736f6e6c3a37001668747470733a"
                    + "2f2f6578616d706c652e6f72672f64";

    private KeyedOneInputStreamOperatorTestHarness<String, VerdictEvent, Verdict> harness;

    @org.junit.jupiter.api.AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void readsAVerdictOfLayout2WithEveryMatchItsOwnCluster() throws Exception {
        var serializer =
                OlderPendingVerdicts.serializer(
                        2, PendingVerdict.class, new SerializerConfigImpl());
        byte[] bytes = HexFormat.of().parseHex(LAYOUT_2_WRITTEN_BY_C2B5705);
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        PendingVerdict p = CandidatePath.inBuckets().upgrade(serializer.deserialize(in));
        assertThat(in.available()).as("every byte read").isZero();
        assertThat(p).isExactlyInstanceOf(PendingVerdict.class);
        assertThat(p.docId).isEqualTo("d");
        assertThat(p.url).isEqualTo("https://example.org/d");
        assertThat(p.eventTime).isEqualTo(1000);
        assertThat(p.records).isOne();
        assertThat(p.sources).containsExactly("crawl.jsonl:7");
        assertThat(p.candidates).isEqualTo(3);
        assertThat(p.reports).isEqualTo(2);
        assertThat(p.matches.ids).containsExactly("a");
        assertThat(p.matches.urls).containsExactly("https://example.org/a");
        assertThat(p.matches.eventTimes).containsExactly(500);
        assertThat(p.matches.estimate(0)).isEqualTo(Estimate.of(0.875));
        assertThat(p.matches.clusterId(0)).as("its own cluster, as then").isEqualTo("a");
        assertThat(p.matches.clusterTime(0)).isEqualTo(500);
    }

    @Test
    void upgradeDecodesPackedContainmentEstimatesOnceAndNothingElse() {
        PendingContainmentVerdict p = new PendingContainmentVerdict();
        p.matches.ids = new String[] {"a", "b", "c"};
        p.matches.similarities = new double[] {0.8125, 0.875 + 2, 0.9375 + 4};
        CandidatePath.throughSampleStore().upgrade(p);
        assertThat(List.of(p.matches.estimate(0), p.matches.estimate(1), p.matches.estimate(2)))
                .containsExactly(
                        new Estimate(0.8125, Estimate.Direction.FIRST_IN_SECOND),
                        new Estimate(0.875, Estimate.Direction.SECOND_IN_FIRST),
                        new Estimate(0.9375, Estimate.Direction.MUTUAL));
        CandidatePath.throughSampleStore().upgrade(p);
        assertThat(p.matches.similarities)
                .as("decoded once")
                .containsExactly(0.8125, 0.875, 0.9375);

        PendingVerdict jaccard = new PendingVerdict();
        jaccard.matches.ids = new String[] {"a"};
        jaccard.matches.similarities = new double[] {0.875};
        CandidatePath.inBuckets().upgrade(jaccard);
        assertThat(jaccard.matches.estimate(0)).isEqualTo(Estimate.of(0.875));
    }

    private static NearDupSettings containment(String pendingBuffer) {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.SIMILARITY, SimilarityFamily.CONTAINMENT);
        conf.set(NearDupOptions.THRESHOLD, 0.8);
        conf.set(NearDupOptions.RETENTION, RETENTION);
        conf.set(NearDupOptions.PENDING_BUFFER, MemorySize.parse(pendingBuffer));
        return NearDupSettings.from(conf);
    }

    private static OperatorSubtaskState layout3(String name) throws Exception {
        var url = OlderPendingVerdictsTest.class.getResource("/state/verdicts-v3-" + name);
        assertThat(url).as("snapshot %s in test resources", name).isNotNull();
        return OperatorSnapshotUtil.readStateHandle(Path.of(url.toURI()).toString());
    }

    /**
     * Restores the Jaccard verdict snapshot {@code file} (under {@code /state/}) with its verdicts
     * on the heap ({@code where} "heap") or spilled to keyed state ("spilled").
     */
    private void restoreJaccard(String where, String file) throws Exception {
        var url = OlderPendingVerdictsTest.class.getResource("/state/" + file);
        assertThat(url).as("snapshot %s in test resources", file).isNotNull();
        restore(
                HarnessFixtures.settingsWithPendingBuffer(
                        64, MemorySize.parse(where.equals("heap") ? "32mb" : "0")),
                OperatorSnapshotUtil.readStateHandle(Path.of(url.toURI()).toString()));
    }

    private void restore(NearDupSettings settings, OperatorSubtaskState state) throws Exception {
        harness = verdictHarness(settings);
        harness.initializeState(state);
        harness.open();
    }

    private static VerdictEvent result(String match, long matchTime, Estimate estimate) {
        long t = T0 + MINUTE;
        VerdictEvent e = VerdictEvent.result("digest", "https://example.org/digest", t, 5);
        if (match != null) {
            e.addMatch(match, "https://example.org/" + match, matchTime, estimate, 5, null, 0);
        }
        return e;
    }

    /**
     * The snapshot holds "digest" with all its bucket reports, 5 candidates sent to the store and 3
     * results in: article (DUPLICATE_IN_DOC 0.875), copy (MUTUAL 0.9375) and quote
     * (DOC_IN_DUPLICATE 50/57), packed. Restored, a further match and the last result complete it,
     * across one more snapshot of today's layout.
     */
    @ParameterizedTest
    @ValueSource(strings = {"heap", "spilled"})
    void containmentVerdictsOfLayout3RestoreWithTheirDirections(String where) throws Exception {
        NearDupSettings settings = containment(where.equals("heap") ? "32mb" : "0");
        restore(settings, layout3("containment-" + where + ".snapshot"));
        long t = T0 + MINUTE;
        Estimate later = new Estimate(0.8125, Estimate.Direction.SECOND_IN_FIRST);
        harness.processElement(result("later", T0 + 3, later), t);
        OperatorSubtaskState today = harness.snapshot(2L, 2L);
        harness.close();
        restore(settings, today);
        harness.processElement(result(null, 0, null), t);

        List<Verdict> verdicts = harness.extractOutputValues();
        assertThat(verdicts).hasSize(1);
        Verdict v = verdicts.get(0);
        assertThat(v.verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(v.duplicateOf).as("the earliest MUTUAL match").isEqualTo("copy");
        assertThat(v.direction).isEqualTo(Alert.MUTUAL);
        assertThat(v.similarity).isEqualTo(0.9375);
        assertThat(v.clusterId).isEqualTo("article");
        assertThat(v.candidates).isEqualTo(10);
        assertThat(v.matches)
                .extracting(m -> m.docId + " " + m.direction + " " + m.similarity)
                .containsExactly(
                        "copy MUTUAL 0.9375",
                        "quote DOC_IN_DUPLICATE " + 50.0 / 57,
                        "article DUPLICATE_IN_DOC 0.875",
                        "later DUPLICATE_IN_DOC 0.8125");
        List<Alert> pairs =
                sideValues(harness, VerdictOperator.ALERTS).stream()
                        .filter(a -> !a.isClusterMerge())
                        .toList();
        assertThat(pairs).isEmpty(); // "later" was alerted before the second restore
    }

    @ParameterizedTest
    @ValueSource(strings = {"heap", "spilled"})
    void aMatchAddedToARestoredContainmentVerdictIsAlertedWithItsDirection(String where)
            throws Exception {
        restore(
                containment(where.equals("heap") ? "32mb" : "0"),
                layout3("containment-" + where + ".snapshot"));
        long t = T0 + MINUTE;
        harness.processElement(
                result("article", T0, new Estimate(0.875, Estimate.Direction.SECOND_IN_FIRST)), t);
        harness.processElement(
                result("later", T0 + 3, new Estimate(0.85, Estimate.Direction.SECOND_IN_FIRST)), t);
        List<Alert> pairs =
                sideValues(harness, VerdictOperator.ALERTS).stream()
                        .filter(a -> !a.isClusterMerge())
                        .toList();
        assertThat(pairs).as("article was alerted before the snapshot").hasSize(1);
        assertThat(pairs.get(0).duplicateOf).isEqualTo("later");
        assertThat(pairs.get(0).direction).isEqualTo(Alert.DUPLICATE_IN_DOC);
        assertThat(pairs.get(0).similarity).as("not packed: exact").isEqualTo(0.85);
        assertThat(harness.extractOutputValues()).hasSize(1);
    }

    /** The snapshot holds "d" with 2 of its 4 bucket reports and a match, a at 0.875. */
    @ParameterizedTest
    @ValueSource(strings = {"heap", "spilled"})
    void jaccardVerdictsOfLayout3Restore(String where) throws Exception {
        restore(
                HarnessFixtures.settingsWithPendingBuffer(
                        64, MemorySize.parse(where.equals("heap") ? "32mb" : "0")),
                layout3("jaccard-" + where + ".snapshot"));
        VerdictEvent rest = HarnessFixtures.matches("d", T0 + MINUTE, 2, 3);
        rest.reports = 2;
        harness.processElement(rest, T0 + MINUTE);
        List<Verdict> verdicts = harness.extractOutputValues();
        assertThat(verdicts).hasSize(1);
        Verdict v = verdicts.get(0);
        assertThat(v.verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(v.duplicateOf).isEqualTo("a");
        assertThat(v.similarity).isEqualTo(0.875);
        assertThat(v.direction).isNull();
        assertThat(v.candidates).isEqualTo(6);
        assertThat(v.matches).extracting(m -> m.direction).containsOnlyNulls();
    }

    /**
     * Layout 4 (before early alerts), written by {@code 869e630}: "d" with 2 of its 4 bucket
     * reports and a match, a at 0.875. Restored, it has no matches alerted early; an early event
     * naming a (reported already) and x alerts x only, and the verdict is made from the reports.
     */
    @ParameterizedTest
    @ValueSource(strings = {"heap", "spilled"})
    void jaccardVerdictsOfLayout4RestoreWithoutEarlyAlerts(String where) throws Exception {
        restoreJaccard(where, "verdicts-v4-jaccard-" + where + ".snapshot");
        long t = T0 + MINUTE;
        VerdictEvent early = VerdictEvent.early("d", "https://example.org/d", t, 2);
        early.addMatch("a", "https://example.org/a", T0, Estimate.of(0.875), 2, null, 0);
        early.addMatch("x", "https://example.org/x", T0 + 1, Estimate.of(0.8125), 2, null, 0);
        harness.processElement(early, t);
        assertThat(sideValues(harness, VerdictOperator.ALERTS))
                .extracting(a -> a.duplicateOf + " " + a.early)
                .containsExactly("x true");
        VerdictEvent rest = HarnessFixtures.matches("d", t, 2, 3);
        rest.reports = 2;
        harness.processElement(rest, t);
        List<Verdict> verdicts = harness.extractOutputValues();
        assertThat(verdicts).hasSize(1);
        assertThat(verdicts.get(0).duplicateOf).isEqualTo("a");
        assertThat(verdicts.get(0).matches).extracting(m -> m.docId).containsExactly("a");
        assertThat(verdicts.get(0).candidates).isEqualTo(6);
    }

    /**
     * Layout 5, written by {@code acbabb7}: a document whose id holds characters that Java's
     * modified UTF-8 writes otherwise than UTF-8 (U+0000, a surrogate pair), with 2 of its 4 bucket
     * reports and a match at 0.875. Its key, written with {@code writeUTF}, is read as written.
     */
    @ParameterizedTest
    @ValueSource(strings = {"heap", "spilled"})
    void jaccardVerdictsOfLayout5RestoreWithTheirKeys(String where) throws Exception {
        String id = "d-\u00e9\u20ac\ud83d\ude00\u0000";
        restoreJaccard(where, "verdicts-v5-jaccard-" + where + ".snapshot");
        long t = T0 + MINUTE;
        VerdictEvent rest = HarnessFixtures.matches(id, t, 2, 3);
        rest.reports = 2;
        harness.processElement(rest, t);
        List<Verdict> verdicts = harness.extractOutputValues();
        assertThat(verdicts).hasSize(1);
        Verdict v = verdicts.get(0);
        assertThat(v.docId).isEqualTo(id);
        assertThat(v.duplicateOf).isEqualTo("a-\u00e9");
        assertThat(v.similarity).isEqualTo(0.875);
        assertThat(v.candidates).isEqualTo(6);
    }
}
