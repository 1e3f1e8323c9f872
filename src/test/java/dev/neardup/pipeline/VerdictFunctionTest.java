package dev.neardup.pipeline;

import static dev.neardup.pipeline.HarnessFixtures.BANDS;
import static dev.neardup.pipeline.HarnessFixtures.settings;
import static dev.neardup.pipeline.HarnessFixtures.verdictHarness;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.Json;
import dev.neardup.io.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link VerdictFunction} in Flink's keyed operator harness: exactly one verdict per record, only
 * once every band has reported and every announced candidate has been verified, in any arrival
 * order.
 */
class VerdictFunctionTest {

    private static final long T0 = 1_700_000_000_000L;

    private KeyedOneInputStreamOperatorTestHarness<String, VerdictEvent, Verdict> harness;
    private int seen;

    @BeforeEach
    void open() throws Exception {
        assertThat(BANDS).isEqualTo(4);
        harness = verdictHarness(settings(3));
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    private static VerdictEvent bandDone(String instance, int band, int candidates) {
        VerdictEvent e = new VerdictEvent();
        e.kind = VerdictEvent.BAND_DONE;
        e.instance = instance;
        e.docId = "doc-" + instance;
        e.url = "https://example.org/" + instance;
        e.eventTime = T0;
        e.band = band;
        e.candidates = candidates;
        return e;
    }

    private static VerdictEvent result(
            String instance, int band, String matchId, double similarity, boolean match, long t) {
        VerdictEvent e = new VerdictEvent();
        e.kind = VerdictEvent.RESULT;
        e.instance = instance;
        e.docId = "doc-" + instance;
        e.url = "https://example.org/" + instance;
        e.eventTime = T0;
        e.band = band;
        e.matchId = matchId;
        e.matchUrl = "https://example.org/match/" + matchId;
        e.matchEventTime = t;
        e.similarity = similarity;
        e.match = match;
        return e;
    }

    /** Feeds one event and returns the verdicts it produced. */
    private List<Verdict> feed(VerdictEvent e) throws Exception {
        harness.processElement(e, e.eventTime);
        List<Verdict> all = harness.extractOutputValues();
        List<Verdict> fresh = new ArrayList<>(all.subList(seen, all.size()));
        seen = all.size();
        return fresh;
    }

    /** Feeds all events; asserts no verdict before the last and exactly one after it. */
    private Verdict feedAll(List<VerdictEvent> events) throws Exception {
        for (int i = 0; i < events.size() - 1; i++) {
            assertThat(feed(events.get(i)))
                    .as("no verdict after %d of %d messages", i + 1, events.size())
                    .isEmpty();
        }
        List<Verdict> last = feed(events.get(events.size() - 1));
        assertThat(last).as("exactly one verdict after the last message").hasSize(1);
        return last.get(0);
    }

    @Test
    void allBandsWithoutCandidatesGiveOneUniqueVerdict() throws Exception {
        Verdict v =
                feedAll(
                        List.of(
                                bandDone("r1", 0, 0),
                                bandDone("r1", 1, 0),
                                bandDone("r1", 2, 0),
                                bandDone("r1", 3, 0)));

        assertThat(v.verdict).isEqualTo(Verdict.UNIQUE);
        assertThat(v.docId).isEqualTo("doc-r1");
        assertThat(v.url).isEqualTo("https://example.org/r1");
        assertThat(v.eventTime).isEqualTo(Json.isoTime(T0));
        assertThat(v.candidates).isZero();
        assertThat(v.duplicateOf).isNull();
        assertThat(v.duplicateUrl).isNull();
        assertThat(v.similarity).isNull();
        assertThat(v.matches).isEmpty();
        assertThat(v.detectedAt).isNotNull();
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void noVerdictWhileABandIsMissing() throws Exception {
        feed(bandDone("r1", 0, 0));
        feed(bandDone("r1", 1, 0));
        assertThat(feed(bandDone("r1", 3, 0))).isEmpty();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        assertThat(harness.extractOutputValues()).isEmpty();
    }

    @Test
    void noVerdictWhileAResultIsMissing() throws Exception {
        feed(bandDone("r1", 0, 2));
        feed(bandDone("r1", 1, 1));
        feed(bandDone("r1", 2, 0));
        feed(bandDone("r1", 3, 0));
        feed(result("r1", 0, "a", 0.1, false, T0));
        assertThat(feed(result("r1", 1, "b", 0.1, false, T0))).isEmpty();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);

        List<Verdict> last = feed(result("r1", 0, "c", 0.1, false, T0));
        assertThat(last).hasSize(1);
        assertThat(last.get(0).verdict).isEqualTo(Verdict.UNIQUE);
        assertThat(last.get(0).candidates).isEqualTo(3);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    /** Every order of 4 BAND_DONEs and 2 results: 720 orders, each its own record (key). */
    @Test
    void everyArrivalOrderGivesExactlyOneVerdictAfterTheLastMessage() throws Exception {
        List<int[]> orders = new ArrayList<>();
        permutations(new int[] {0, 1, 2, 3, 4, 5}, 0, orders);
        assertThat(orders).hasSize(720);
        int n = 0;
        for (int[] order : orders) {
            String instance = "r" + n++;
            List<VerdictEvent> messages =
                    List.of(
                            bandDone(instance, 0, 2),
                            bandDone(instance, 1, 0),
                            bandDone(instance, 2, 0),
                            bandDone(instance, 3, 0),
                            result(instance, 0, "m1", 0.9, true, T0 - 5000),
                            result(instance, 0, "x", 0.2, false, T0 - 9000));
            List<VerdictEvent> ordered = new ArrayList<>();
            for (int i : order) {
                ordered.add(messages.get(i));
            }

            Verdict v = feedAll(ordered);

            assertThat(v.docId).isEqualTo("doc-" + instance);
            assertThat(v.verdict).isEqualTo(Verdict.DUPLICATE);
            assertThat(v.duplicateOf).isEqualTo("m1");
            assertThat(v.candidates).isEqualTo(2);
        }
        assertThat(harness.extractOutputValues()).hasSize(720);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    private static void permutations(int[] a, int k, List<int[]> out) {
        if (k == a.length) {
            out.add(a.clone());
            return;
        }
        for (int i = k; i < a.length; i++) {
            int t = a[k];
            a[k] = a[i];
            a[i] = t;
            permutations(a, k + 1, out);
            a[i] = a[k];
            a[k] = t;
        }
    }

    @Test
    void duplicateListsMatchesMostSimilarFirstAndPointsAtTheEarliestMatch() throws Exception {
        String r = "r1";
        Verdict v =
                feedAll(
                        List.of(
                                result(r, 0, "m1", 0.90, true, T0 - 3000),
                                bandDone(r, 0, 2),
                                result(r, 0, "m2", 0.95, true, T0 - 2000),
                                bandDone(r, 1, 2),
                                result(r, 1, "m3", 0.85, true, T0 - 9000),
                                bandDone(r, 2, 0),
                                result(r, 1, "n", 0.30, false, T0 - 99000),
                                bandDone(r, 3, 0)));

        assertThat(v.verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(v.candidates).isEqualTo(4);
        assertThat(v.matches).extracting(m -> m.docId).containsExactly("m2", "m1", "m3");
        assertThat(v.matches).extracting(m -> m.similarity).containsExactly(0.95, 0.90, 0.85);
        assertThat(v.matches.get(0).url).isEqualTo("https://example.org/match/m2");
        assertThat(v.matches.get(0).eventTime).isEqualTo(Json.isoTime(T0 - 2000));
        // The non-match "n" is the earliest candidate, but not a match: not duplicateOf.
        assertThat(v.duplicateOf).isEqualTo("m3");
        assertThat(v.duplicateUrl).isEqualTo("https://example.org/match/m3");
        assertThat(v.similarity).isEqualTo(0.85);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void theSameMatchFromTwoBandsIsListedOnce() throws Exception {
        String r = "r1";
        Verdict v =
                feedAll(
                        List.of(
                                bandDone(r, 0, 1),
                                bandDone(r, 1, 0),
                                bandDone(r, 2, 1),
                                result(r, 0, "m", 0.9, true, T0 - 1000),
                                result(r, 2, "m", 0.9, true, T0 - 1000),
                                bandDone(r, 3, 0)));

        assertThat(v.verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(v.matches).extracting(m -> m.docId).containsExactly("m");
        assertThat(v.duplicateOf).isEqualTo("m");
        assertThat(v.candidates).as("both verifications were work done").isEqualTo(2);
    }

    @Test
    void equalMatchEventTimesPickTheSmallerId() throws Exception {
        String r = "r1";
        Verdict v =
                feedAll(
                        List.of(
                                bandDone(r, 0, 3),
                                bandDone(r, 1, 0),
                                bandDone(r, 2, 0),
                                bandDone(r, 3, 0),
                                result(r, 0, "zeta", 0.99, true, T0 - 1000),
                                result(r, 0, "beta", 0.81, true, T0 - 1000),
                                result(r, 0, "gamma", 0.9, true, T0 - 500)));

        assertThat(v.duplicateOf).isEqualTo("beta");
        assertThat(v.similarity).isEqualTo(0.81);
        assertThat(v.matches).extracting(m -> m.docId).containsExactly("zeta", "gamma", "beta");
    }

    @Test
    void onlyNonMatchingCandidatesGiveUnique() throws Exception {
        String r = "r1";
        Verdict v =
                feedAll(
                        List.of(
                                bandDone(r, 0, 1),
                                bandDone(r, 1, 1),
                                bandDone(r, 2, 0),
                                result(r, 0, "a", 0.5, false, T0),
                                result(r, 1, "b", 0.79, false, T0),
                                bandDone(r, 3, 0)));
        assertThat(v.verdict).isEqualTo(Verdict.UNIQUE);
        assertThat(v.matches).isEmpty();
        assertThat(v.duplicateOf).isNull();
        assertThat(v.candidates).isEqualTo(2);
    }

    @Test
    void interleavedRecordsAreJudgedIndependently() throws Exception {
        // Two records of the same document id (a re-crawl) are two verdicts.
        feed(bandDone("f:1", 0, 0));
        feed(bandDone("f:2", 0, 1));
        feed(bandDone("f:1", 1, 0));
        feed(bandDone("f:2", 1, 0));
        feed(bandDone("f:1", 2, 0));
        feed(bandDone("f:2", 2, 0));
        List<Verdict> first = feed(bandDone("f:1", 3, 0));
        assertThat(first).hasSize(1);
        assertThat(first.get(0).docId).isEqualTo("doc-f:1");
        assertThat(feed(bandDone("f:2", 3, 0))).isEmpty();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        List<Verdict> second = feed(result("f:2", 0, "m", 0.9, true, T0));
        assertThat(second).hasSize(1);
        assertThat(second.get(0).docId).isEqualTo("doc-f:2");
        assertThat(second.get(0).verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void aPendingVerdictSurvivesSnapshotAndRestore() throws Exception {
        feed(bandDone("r1", 0, 1));
        feed(result("r1", 0, "m", 0.9, true, T0 - 1));
        feed(bandDone("r1", 1, 0));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = verdictHarness(settings(3));
        seen = 0;
        harness.initializeState(snapshot);
        harness.open();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);

        assertThat(feed(bandDone("r1", 2, 0))).isEmpty();
        List<Verdict> v = feed(bandDone("r1", 3, 0));
        assertThat(v).hasSize(1);
        assertThat(v.get(0).verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(v.get(0).duplicateOf).isEqualTo("m");
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    private List<dev.neardup.io.Alert> alerts() {
        return HarnessFixtures.sideValues(harness, VerdictFunction.ALERTS);
    }

    @Test
    void theFirstConfirmingResultOfEachMatchIsOneAlertAtOnce() throws Exception {
        feed(bandDone("r1", 0, 1));
        VerdictEvent fromBand2 = result("r1", 2, "m", 0.9, true, T0 - 1000);
        fromBand2.commonBand = 0; // band 0 is shared too, but its bucket sent no candidate
        feed(fromBand2);

        assertThat(alerts()).hasSize(1);
        dev.neardup.io.Alert a = alerts().get(0);
        assertThat(a.docId).isEqualTo("doc-r1");
        assertThat(a.url).isEqualTo("https://example.org/r1");
        assertThat(a.duplicateOf).isEqualTo("m");
        assertThat(a.duplicateUrl).isEqualTo("https://example.org/match/m");
        assertThat(a.similarity).isEqualTo(0.9);
        assertThat(a.band).isZero();
        assertThat(a.eventTime).isEqualTo(Json.isoTime(T0));
        assertThat(a.detectedAt).isNotNull();

        VerdictEvent again = result("r1", 0, "m", 0.9, true, T0 - 1000);
        again.commonBand = 0;
        feed(again);
        feed(result("r1", 1, "n", 0.3, false, T0 - 1000));
        assertThat(alerts()).as("one alert per matched document").hasSize(1);

        VerdictEvent other = result("r1", 1, "o", 0.85, true, T0 - 1000);
        feed(other); // commonBand unknown (-1): the band it came from
        assertThat(alerts()).hasSize(2);
        assertThat(alerts().get(1).duplicateOf).isEqualTo("o");
        assertThat(alerts().get(1).band).isEqualTo(1);
    }
}
