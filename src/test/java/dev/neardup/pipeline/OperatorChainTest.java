package dev.neardup.pipeline;

import static dev.neardup.pipeline.HarnessFixtures.bandKeys;
import static dev.neardup.pipeline.HarnessFixtures.bucketHarness;
import static dev.neardup.pipeline.HarnessFixtures.differingIn;
import static dev.neardup.pipeline.HarnessFixtures.record;
import static dev.neardup.pipeline.HarnessFixtures.settings;
import static dev.neardup.pipeline.HarnessFixtures.sideValues;
import static dev.neardup.pipeline.HarnessFixtures.signature;
import static dev.neardup.pipeline.HarnessFixtures.storeHarness;
import static dev.neardup.pipeline.HarnessFixtures.verdictHarness;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.Alert;
import dev.neardup.io.Verdict;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.text.ContentType;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The three keyed operators wired by hand, each in its own harness, as NearDupJob wires them:
 * bucket events to the store (keyed by target), store results and BAND_DONE to the verdicts. Checks
 * the contracts that span operators: one verdict per record, and one alert per confirmed pair.
 */
class OperatorChainTest {

    private static final long T0 = 1_700_000_000_000L;

    private KeyedOneInputStreamOperatorTestHarness<Long, BandRecord, SignatureEvent> buckets;
    private KeyedOneInputStreamOperatorTestHarness<String, SignatureEvent, VerdictEvent> store;
    private KeyedOneInputStreamOperatorTestHarness<String, VerdictEvent, Verdict> verdicts;
    private int seenBucketEvents;
    private int seenBandDone;
    private int seenResults;

    private void open(NearDupSettings settings) throws Exception {
        buckets = bucketHarness(settings);
        store = storeHarness(settings);
        verdicts = verdictHarness(settings);
        buckets.open();
        store.open();
        verdicts.open();
    }

    @AfterEach
    void close() throws Exception {
        for (var h :
                new KeyedOneInputStreamOperatorTestHarness<?, ?, ?>[] {buckets, store, verdicts}) {
            if (h != null) {
                h.close();
            }
        }
    }

    /** Sends one band record through the three operators. */
    private void send(BandRecord r) throws Exception {
        buckets.processElement(r, r.eventTime);
        List<SignatureEvent> events = buckets.extractOutputValues();
        for (SignatureEvent e : events.subList(seenBucketEvents, events.size())) {
            store.processElement(e, r.eventTime);
        }
        seenBucketEvents = events.size();
        List<VerdictEvent> done = sideValues(buckets, BandBucketFunction.BAND_DONE);
        for (VerdictEvent e : done.subList(seenBandDone, done.size())) {
            verdicts.processElement(e, r.eventTime);
        }
        seenBandDone = done.size();
        List<VerdictEvent> results = store.extractOutputValues();
        for (VerdictEvent e : results.subList(seenResults, results.size())) {
            verdicts.processElement(e, r.eventTime);
        }
        seenResults = results.size();
    }

    /** Sends every band of a document. */
    private void sendDocument(String docId, String instance, long t, short[] sig, long[] keys)
            throws Exception {
        for (int band = 0; band < keys.length; band++) {
            send(record(docId, instance, t, band, sig, keys));
        }
    }

    private List<Alert> alerts() {
        return sideValues(verdicts, VerdictFunction.ALERTS);
    }

    private Verdict verdictOf(String instance) {
        List<Verdict> matching = new ArrayList<>();
        for (Verdict v : verdicts.extractOutputValues()) {
            if (v.docId != null && instanceOf(v).equals(instance)) {
                matching.add(v);
            }
        }
        assertThat(matching).as("verdicts for %s", instance).hasSize(1);
        return matching.get(0);
    }

    /** Test documents use "i-" + docId as their instance. */
    private static String instanceOf(Verdict v) {
        return "i-" + v.docId;
    }

    @Test
    void aPairSharingEveryBandIsOneDuplicateAndOneAlert() throws Exception {
        open(settings(3));
        short[] sig = signature(11);
        long[] keys = bandKeys(1, 2, 3, 4);
        sendDocument("a", "i-a", T0, sig, keys);
        sendDocument("b", "i-b", T0 + 1000, sig.clone(), keys.clone());

        assertThat(verdictOf("i-a").verdict).isEqualTo(Verdict.UNIQUE);
        Verdict b = verdictOf("i-b");
        assertThat(b.verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(b.duplicateOf).isEqualTo("a");
        assertThat(b.candidates).as("one candidate per shared band").isEqualTo(4);
        assertThat(b.matches).hasSize(1);
        assertThat(alerts()).hasSize(1);
        assertThat(alerts().get(0).docId).isEqualTo("b");
        assertThat(alerts().get(0).duplicateOf).isEqualTo("a");
        assertThat(alerts().get(0).band).isZero();
        assertThat(verdicts.numKeyedStateEntries()).isZero();
    }

    @Test
    void realTextsNearDuplicateAndUnrelated() throws Exception {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.THRESHOLD, 0.8);
        NearDupSettings settings = NearDupSettings.from(conf);
        open(settings);
        DocumentSketcher sketcher = settings.newSketcher();
        String original = prose(1, 600);
        // A near-duplicate: one word inserted into 600 words.
        String copy = original.replaceFirst(" ", " extraordinary ");
        String unrelated = prose(2, 600);
        String[][] docs = {{"orig", original}, {"copy", copy}, {"other", unrelated}};
        long t = T0;
        for (String[] d : docs) {
            DocumentSketcher.Sketch s = sketcher.sketch(d[1], ContentType.TEXT);
            sendDocument(
                    d[0], "i-" + d[0], t += 1000, CompactSignature.of(s.signature()), s.bandKeys());
        }

        assertThat(verdictOf("i-orig").verdict).isEqualTo(Verdict.UNIQUE);
        assertThat(verdictOf("i-copy").verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(verdictOf("i-copy").duplicateOf).isEqualTo("orig");
        assertThat(verdictOf("i-copy").similarity).isGreaterThanOrEqualTo(0.8);
        assertThat(verdictOf("i-other").verdict).isEqualTo(Verdict.UNIQUE);
        assertThat(alerts()).hasSize(1);
        assertThat(alerts().get(0).docId).isEqualTo("copy");
        assertThat(alerts().get(0).duplicateOf).isEqualTo("orig");
    }

    /** {@code words} pseudo-words from a 2000-word vocabulary, a pure function of the seed. */
    private static String prose(long seed, int words) {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < words; i++) {
            out.append("w").append(random.nextInt(2000)).append(' ');
        }
        return out.toString();
    }

    /**
     * Alert contract: "emitted as soon as the newer document collides with the older one and
     * verification confirms it. Each pair is reported once". Here the lowest band the two share
     * (band 0) is a hot bucket that has already evicted the older document by capacity, so the pair
     * only collides, and is confirmed, in band 2. The verdict says DUPLICATE; the alert must exist
     * too.
     */
    @Test
    void aConfirmedPairIsAlertedEvenWhenItsLowestCommonBucketEvictedTheOlderDocument()
            throws Exception {
        open(settings(3));
        short[] sig = signature(11);
        sendDocument("m", "i-m", T0, sig, bandKeys(1, 2, 3, 4));
        // Three newer, unrelated documents share only band 0 with m and push it out of that bucket.
        for (int i = 1; i <= 3; i++) {
            sendDocument(
                    "x" + i,
                    "i-x" + i,
                    T0 + i * 1000,
                    differingIn(sig, 8),
                    bandKeys(1, 10 + i, 10 + i, 10 + i));
        }
        // q is identical to m and shares bands 0 and 2 with it.
        sendDocument("q", "i-q", T0 + 10_000, sig.clone(), bandKeys(1, 9, 3, 9));

        Verdict q = verdictOf("i-q");
        assertThat(q.verdict).isEqualTo(Verdict.DUPLICATE);
        assertThat(q.duplicateOf).isEqualTo("m");
        assertThat(alerts())
                .as("one alert for the confirmed pair (q, m)")
                .filteredOn(a -> a.docId.equals("q") && a.duplicateOf.equals("m"))
                .hasSize(1);
    }
}
