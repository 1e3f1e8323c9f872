package dev.neardup.pipeline;

import static dev.neardup.pipeline.HarnessFixtures.K;
import static dev.neardup.pipeline.HarnessFixtures.bandKeys;
import static dev.neardup.pipeline.HarnessFixtures.differingIn;
import static dev.neardup.pipeline.HarnessFixtures.expectedJaccard;
import static dev.neardup.pipeline.HarnessFixtures.settings;
import static dev.neardup.pipeline.HarnessFixtures.signature;
import static dev.neardup.pipeline.HarnessFixtures.storeHarness;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SignatureStoreFunction} in Flink's keyed operator harness: reference-counted signatures,
 * versions, verification and the lowest common band each result carries (alerts are the verdict
 * operator's, see {@link VerdictFunctionTest}).
 */
class SignatureStoreFunctionTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final short[] SIG = signature(77);

    private KeyedOneInputStreamOperatorTestHarness<String, SignatureEvent, VerdictEvent> harness;
    private int seenResults;

    @BeforeEach
    void open() throws Exception {
        harness = storeHarness(settings(3));
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    // ---- events, built by hand as a band bucket would send them ----

    private static SignatureEvent register(
            String docId, String instance, long eventTime, short[] sig, long[] keys) {
        SignatureEvent e = new SignatureEvent();
        e.kind = SignatureEvent.REGISTER;
        e.target = docId;
        e.docId = docId;
        e.instance = instance;
        e.url = "https://example.org/" + docId + "/" + instance;
        e.eventTime = eventTime;
        e.signature = sig;
        e.bandKeys = keys;
        e.band = 0;
        return e;
    }

    private static SignatureEvent release(String target) {
        SignatureEvent e = new SignatureEvent();
        e.kind = SignatureEvent.RELEASE;
        e.target = target;
        return e;
    }

    private static SignatureEvent candidate(
            String target, String docId, long eventTime, int band, short[] sig, long[] keys) {
        SignatureEvent e = new SignatureEvent();
        e.kind = SignatureEvent.CANDIDATE;
        e.target = target;
        e.docId = docId;
        e.instance = "q:" + docId;
        e.url = "https://example.org/" + docId;
        e.eventTime = eventTime;
        e.signature = sig;
        e.bandKeys = keys;
        e.band = band;
        return e;
    }

    private record Step(List<VerdictEvent> results) {
        VerdictEvent result() {
            assertThat(results).hasSize(1);
            return results.get(0);
        }
    }

    private Step feed(SignatureEvent e) throws Exception {
        harness.processElement(e, e.eventTime);
        List<VerdictEvent> values = harness.extractOutputValues();
        List<VerdictEvent> results = new ArrayList<>(values.subList(seenResults, values.size()));
        seenResults = values.size();
        return new Step(results);
    }

    // ---- tests ----

    @Test
    void registrationEmitsNothing() throws Exception {
        Step step = feed(register("m", "f:1", T0, SIG, bandKeys(1, 1, 1, 1)));
        assertThat(step.results()).isEmpty();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void identicalSignatureIsAMatchWithItsLowestCommonBand() throws Exception {
        SignatureEvent member = register("m", "f:1", T0, SIG, bandKeys(1, 2, 3, 4));
        feed(member);
        long[] queryKeys = bandKeys(1, 9, 3, 9); // shares bands 0 and 2; lowest is 0
        SignatureEvent query = candidate("m", "q", T0 + 5000, 0, SIG.clone(), queryKeys);

        Step step = feed(query);

        VerdictEvent r = step.result();
        assertThat(r.kind).isEqualTo(VerdictEvent.RESULT);
        assertThat(r.instance).isEqualTo("q:q");
        assertThat(r.docId).isEqualTo("q");
        assertThat(r.url).isEqualTo(query.url);
        assertThat(r.eventTime).isEqualTo(T0 + 5000);
        assertThat(r.band).isEqualTo(0);
        assertThat(r.matchId).isEqualTo("m");
        assertThat(r.matchUrl).isEqualTo(member.url);
        assertThat(r.matchEventTime).isEqualTo(T0);
        assertThat(r.similarity).isEqualTo(1.0);
        assertThat(r.match).isTrue();

        assertThat(r.commonBand).isZero();
    }

    @Test
    void thePairFromAHigherBandIsAMatchWithTheSameLowestCommonBand() throws Exception {
        feed(register("m", "f:1", T0, SIG, bandKeys(1, 2, 3, 4)));
        long[] queryKeys = bandKeys(9, 2, 3, 9); // shares bands 1 and 2

        Step fromBand2 = feed(candidate("m", "q", T0 + 1, 2, SIG.clone(), queryKeys));
        Step fromBand1 = feed(candidate("m", "q", T0 + 1, 1, SIG.clone(), queryKeys));

        assertThat(fromBand2.result().match).isTrue();
        assertThat(fromBand2.result().band).isEqualTo(2);
        assertThat(fromBand2.result().commonBand).isEqualTo(1);
        assertThat(fromBand1.result().match).isTrue();
        assertThat(fromBand1.result().commonBand).isEqualTo(1);
    }

    @Test
    void aPairSharingOnlyAHighBandHasThatLowestCommonBand() throws Exception {
        feed(register("m", "f:1", T0, SIG, bandKeys(1, 2, 3, 4)));
        Step step = feed(candidate("m", "q", T0 + 1, 3, SIG.clone(), bandKeys(9, 9, 9, 4)));
        assertThat(step.result().commonBand).isEqualTo(3);
    }

    @Test
    void aDissimilarSignatureIsNoMatch() throws Exception {
        feed(register("m", "f:1", T0, SIG, bandKeys(1, 2, 3, 4)));
        short[] other = differingIn(SIG, K); // no value in common

        Step step = feed(candidate("m", "q", T0 + 1, 0, other, bandKeys(1, 9, 9, 9)));

        assertThat(step.result().match).isFalse();
        assertThat(step.result().similarity).isEqualTo(0.0);
        assertThat(step.result().matchId).isEqualTo("m");
    }

    @Test
    void similarityIsTheChanceCorrectedAgreementAndMatchesFromTheThreshold() throws Exception {
        feed(register("m", "f:1", T0, SIG, bandKeys(1, 2, 3, 4)));

        // 7 of 8 values agree: about 0.875 >= 0.8.
        Step close =
                feed(candidate("m", "q1", T0 + 1, 0, differingIn(SIG, 1), bandKeys(1, 0, 0, 0)));
        // 6 of 8 agree: about 0.75 < 0.8.
        Step far = feed(candidate("m", "q2", T0 + 1, 0, differingIn(SIG, 2), bandKeys(1, 0, 0, 0)));

        assertThat(close.result().similarity).isCloseTo(expectedJaccard(7, K), within(1e-12));
        assertThat(close.result().match).isTrue();
        assertThat(far.result().similarity).isCloseTo(expectedJaccard(6, K), within(1e-12));
        assertThat(far.result().match).isFalse();
    }

    @Test
    void theSignatureLivesUntilTheLastReferenceIsReleased() throws Exception {
        feed(register("m", "f:1", T0, SIG, bandKeys(1, 2, 3, 4)));
        feed(register("m", "f:1", T0, SIG, bandKeys(1, 2, 3, 4)));
        feed(release("m"));

        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        assertThat(feed(candidate("m", "q", T0 + 1, 0, SIG, bandKeys(1, 0, 0, 0))).result().match)
                .isTrue();

        feed(release("m"));

        assertThat(harness.numKeyedStateEntries()).isZero();
        VerdictEvent after =
                feed(candidate("m", "q2", T0 + 2, 0, SIG, bandKeys(1, 0, 0, 0))).result();
        assertThat(after.match).isFalse();
    }

    @Test
    void aReleaseWithoutAStoredSignatureIsIgnored() throws Exception {
        Step step = feed(release("nobody"));
        assertThat(step.results()).isEmpty();
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void aNewerVersionReplacesTheSignatureAndAnOlderOneDoesNot() throws Exception {
        short[] v1 = signature(1);
        short[] v2 = signature(2);
        short[] v0 = signature(3);
        feed(register("m", "f:1", T0, v1, bandKeys(1, 1, 1, 1)));
        SignatureEvent newer = register("m", "f:2", T0 + 1000, v2, bandKeys(2, 2, 2, 2));
        feed(newer);

        VerdictEvent r = feed(candidate("m", "q", T0 + 5000, 0, v2, bandKeys(2, 0, 0, 0))).result();
        assertThat(r.similarity).isEqualTo(1.0);
        assertThat(r.matchEventTime).isEqualTo(T0 + 1000);
        assertThat(r.matchUrl).isEqualTo(newer.url);

        // An older version arriving late does not replace the newer one.
        feed(register("m", "f:0", T0 - 1000, v0, bandKeys(3, 3, 3, 3)));
        VerdictEvent r2 =
                feed(candidate("m", "q2", T0 + 5000, 0, v2, bandKeys(2, 0, 0, 0))).result();
        assertThat(r2.similarity).isEqualTo(1.0);
        assertThat(r2.matchEventTime).isEqualTo(T0 + 1000);
        VerdictEvent r3 =
                feed(candidate("m", "q3", T0 + 5000, 0, v0, bandKeys(3, 0, 0, 0))).result();
        assertThat(r3.match).isFalse();

        // The stale registration still counts as a reference: 3 registrations, 3 releases.
        feed(release("m"));
        feed(release("m"));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        feed(release("m"));
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void theNewerBandKeysDecideTheLowestCommonBand() throws Exception {
        feed(register("m", "f:1", T0, SIG, bandKeys(1, 1, 1, 1)));
        feed(register("m", "f:2", T0 + 1000, SIG, bandKeys(5, 5, 1, 5)));
        // The query shares band 0 only with the old version, band 2 with the new one.
        Step step = feed(candidate("m", "q", T0 + 2000, 2, SIG, bandKeys(1, 9, 1, 9)));
        assertThat(step.result().commonBand).isEqualTo(2);
    }

    /**
     * "The document's latest version (by event time, then record position)": with equal event times
     * the later record wins. Record positions are file:line; line 10 comes after line 9.
     */
    @Test
    void withEqualEventTimesTheLaterRecordPositionWins() throws Exception {
        short[] line9 = signature(9);
        short[] line10 = signature(10);
        feed(register("m", "feed.jsonl:9", T0, line9, bandKeys(1, 1, 1, 1)));
        feed(register("m", "feed.jsonl:10", T0, line10, bandKeys(1, 1, 1, 1)));

        VerdictEvent r =
                feed(candidate("m", "q", T0 + 1, 0, line10, bandKeys(1, 0, 0, 0))).result();

        assertThat(r.similarity).as("signature of feed.jsonl:10 is the stored one").isEqualTo(1.0);
    }

    @Test
    void withEqualEventTimesAnEarlierRecordPositionArrivingLaterDoesNotWin() throws Exception {
        short[] line10 = signature(10);
        short[] line9 = signature(9);
        feed(register("m", "feed.jsonl:10", T0, line10, bandKeys(1, 1, 1, 1)));
        feed(register("m", "feed.jsonl:9", T0, line9, bandKeys(1, 1, 1, 1)));

        VerdictEvent r =
                feed(candidate("m", "q", T0 + 1, 0, line10, bandKeys(1, 0, 0, 0))).result();

        assertThat(r.similarity).as("signature of feed.jsonl:10 is the stored one").isEqualTo(1.0);
    }

    @Test
    void aCandidateWithoutAStoredSignatureIsANonMatchResult() throws Exception {
        Step step = feed(candidate("gone", "q", T0, 1, SIG, bandKeys(1, 2, 3, 4)));

        VerdictEvent r = step.result();
        assertThat(r.kind).isEqualTo(VerdictEvent.RESULT);
        assertThat(r.match).isFalse();
        assertThat(r.matchId).isEqualTo("gone");
        assertThat(r.docId).isEqualTo("q");
        assertThat(r.instance).isEqualTo("q:q");
        assertThat(r.band).isEqualTo(1);
        assertThat(r.commonBand).isEqualTo(-1);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void signaturesAndReferenceCountsSurviveSnapshotAndRestore() throws Exception {
        feed(register("m", "f:1", T0, SIG, bandKeys(1, 2, 3, 4)));
        feed(register("m", "f:1", T0, SIG, bandKeys(1, 2, 3, 4)));
        feed(register("n", "f:2", T0, signature(3), bandKeys(5, 6, 7, 8)));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = storeHarness(settings(3));
        seenResults = 0;
        harness.initializeState(snapshot);
        harness.open();

        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);
        Step step = feed(candidate("m", "q", T0 + 1, 0, SIG, bandKeys(1, 0, 0, 0)));
        assertThat(step.result().match).isTrue();
        feed(release("m"));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);
        feed(release("m"));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }
}
