package dev.neardup.pipeline;

import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.bucketHarness;
import static dev.neardup.pipeline.HarnessFixtures.intakeHarness;
import static dev.neardup.pipeline.HarnessFixtures.sideValues;
import static dev.neardup.pipeline.HarnessFixtures.storeHarness;
import static dev.neardup.pipeline.HarnessFixtures.verdictHarness;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.io.Alert;
import dev.neardup.io.Document;
import dev.neardup.io.ParsedRecord;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.buckets.BandBucketOperator;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.RoutedBands;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.samples.SampleIntakeFunction;
import dev.neardup.pipeline.verdicts.VerdictOperator;
import dev.neardup.similarity.SimilarityMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/**
 * The three operators wired by hand as NearDupJob wires them (band records to the buckets by band
 * key, bucket reports and announcements to the verdicts by document; in containment mode the sample
 * intake and the sample store between the buckets and the verdicts), with the default settings and
 * real texts. Checks the contracts that span operators: one verdict per record, one alert per pair,
 * always from the later document to the earlier, and the same alerts and verdicts whatever the
 * arrival order.
 */
class OperatorChainTest {

    /** Runs documents through the chain in the given arrival order; returns alerts and verdicts. */
    private static final class Chain implements AutoCloseable {
        final OneInputStreamOperatorTestHarness<ParsedRecord, RoutedBands> signatures;
        final BucketHarness buckets;
        final KeyedOneInputStreamOperatorTestHarness<String, VerdictEvent, Verdict> verdicts;

        /** Containment mode's sample intake and store, else null. */
        final KeyedOneInputStreamOperatorTestHarness<String, SampleStoreRecord, SampleStoreRecord>
                intake;

        final KeyedOneInputStreamOperatorTestHarness<String, SampleStoreRecord, VerdictEvent> store;

        int seenBands;
        int seenSamples;
        int seenToIntake;
        int seenReports;
        int seenToStore;
        int seenFromStore;
        int seenAnnounce;
        int seenFound;

        Chain(NearDupSettings settings) throws Exception {
            signatures =
                    ProcessFunctionTestHarnesses.forProcessFunction(
                            new SignatureFunction(settings));
            buckets = bucketHarness(settings);
            verdicts = verdictHarness(settings);
            boolean containment =
                    CandidatePath.of(SimilarityMode.of(settings))
                            == CandidatePath.throughSampleStore();
            intake = containment ? intakeHarness(settings) : null;
            store = containment ? storeHarness(settings) : null;
            buckets.open();
            verdicts.open();
            if (store != null) {
                intake.open();
                store.open();
            }
        }

        /**
         * What the signature operator and the buckets sent the intake since the last call, what it
         * sent on to the store and the verdicts, and the store's results on to the verdicts.
         */
        void throughStore(Watermark mark) throws Exception {
            if (store == null) {
                return;
            }
            List<SampleStoreRecord> samples = sideValues(signatures, SignatureFunction.SAMPLES);
            for (SampleStoreRecord r : samples.subList(seenSamples, samples.size())) {
                intake.processElement(r, r.time);
            }
            seenSamples = samples.size();
            List<SampleStoreRecord> sent = sideValues(buckets, BandBucketOperator.SAMPLE_STORE);
            for (SampleStoreRecord r : sent.subList(seenToIntake, sent.size())) {
                intake.processElement(r, r.time);
            }
            seenToIntake = sent.size();
            if (mark != null) {
                intake.processWatermark(mark);
            }
            List<VerdictEvent> reports = sideValues(intake, SampleIntakeFunction.REPORTS);
            for (VerdictEvent e : reports.subList(seenReports, reports.size())) {
                verdicts.processElement(e, e.eventTime);
            }
            seenReports = reports.size();
            List<SampleStoreRecord> joined = intake.extractOutputValues();
            for (SampleStoreRecord r : joined.subList(seenToStore, joined.size())) {
                store.processElement(r, r.kind == SampleStoreRecord.CANDIDATE ? r.docTime : r.time);
            }
            seenToStore = joined.size();
            if (mark != null) {
                store.processWatermark(mark);
            }
            List<VerdictEvent> results = store.extractOutputValues();
            for (VerdictEvent e : results.subList(seenFromStore, results.size())) {
                verdicts.processElement(e, e.eventTime);
            }
            seenFromStore = results.size();
        }

        void send(String id, long eventTime, String text) throws Exception {
            Document d = new Document(id, "test:" + id, "https://x.example/" + id, text, null, 0);
            d.eventTime = eventTime;
            signatures.processElement(new ParsedRecord(d, null), eventTime);
            List<VerdictEvent> announce = sideValues(signatures, SignatureFunction.ANNOUNCE);
            for (VerdictEvent e : announce.subList(seenAnnounce, announce.size())) {
                verdicts.processElement(e, e.eventTime);
            }
            seenAnnounce = announce.size();
            List<BandRecord> bands = HarnessFixtures.unpacked(signatures.extractOutputValues());
            for (BandRecord r : bands.subList(seenBands, bands.size())) {
                buckets.processElement(r, r.eventTime);
            }
            seenBands = bands.size();
            List<VerdictEvent> found = buckets.allOutput();
            for (VerdictEvent e : found.subList(seenFound, found.size())) {
                verdicts.processElement(e, e.eventTime);
            }
            seenFound = found.size();
            throughStore(null);
        }

        /** The end of the input: the buckets take in what waits, then the verdicts are made. */
        void finish() throws Exception {
            buckets.processWatermark(new Watermark(Long.MAX_VALUE));
            List<VerdictEvent> found = buckets.allOutput();
            for (VerdictEvent e : found.subList(seenFound, found.size())) {
                verdicts.processElement(e, e.eventTime);
            }
            seenFound = found.size();
            throughStore(new Watermark(Long.MAX_VALUE));
            verdicts.processWatermark(new Watermark(Long.MAX_VALUE));
        }

        /** The alerts of pairs (without cluster-merged events). */
        List<Alert> alerts() {
            List<Alert> out = new ArrayList<>();
            for (Alert a : sideValues(verdicts, VerdictOperator.ALERTS)) {
                if (a.event == null) {
                    out.add(a);
                }
            }
            return out;
        }

        /** Cluster-merged events as "merged>into by doc". */
        List<String> merges() {
            List<String> out = new ArrayList<>();
            for (Alert a : sideValues(verdicts, VerdictOperator.ALERTS)) {
                if (a.event != null) {
                    out.add(a.mergedClusterId + ">" + a.clusterId + " by " + a.docId);
                }
            }
            return out;
        }

        Map<String, Verdict> verdictsById() {
            Map<String, Verdict> out = new HashMap<>();
            for (Verdict v : verdicts.extractOutputValues()) {
                assertThat(out.put(v.docId, v)).as("one verdict for %s", v.docId).isNull();
            }
            return out;
        }

        @Override
        public void close() throws Exception {
            signatures.close();
            buckets.close();
            verdicts.close();
            if (store != null) {
                intake.close();
                store.close();
            }
        }
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

    /** {@code text} with {@code count} words, spread over the text, replaced by new ones. */
    private static String edit(String text, long seed, int count) {
        String[] words = text.split(" ");
        SplittableRandom random = new SplittableRandom(seed);
        for (int c = 0; c < count; c++) {
            int at = (int) ((c + random.nextDouble()) * words.length / count);
            words[Math.min(at, words.length - 1)] = "edit" + seed + "x" + c;
        }
        return String.join(" ", words);
    }

    private static NearDupSettings defaults() {
        return NearDupSettings.from(new Configuration());
    }

    @Test
    void aNearCopyAnExactCopyAndAnUnrelatedPage() throws Exception {
        String original = prose(1, 600);
        String[][] docs = {
            {"orig", original},
            {"near", original.replaceFirst(" ", " extraordinary ")},
            {"exact", original},
            {"other", prose(2, 600)}
        };
        try (Chain chain = new Chain(defaults())) {
            for (int i = 0; i < docs.length; i++) {
                chain.send(docs[i][0], T0 + i * 1000L, docs[i][1]);
            }
            chain.finish();
            Map<String, Verdict> v = chain.verdictsById();
            assertThat(v).hasSize(4);
            assertThat(v.get("orig").verdict).isEqualTo(Verdict.UNIQUE);
            assertThat(v.get("other").verdict).isEqualTo(Verdict.UNIQUE);
            assertThat(v.get("near").duplicateOf).isEqualTo("orig");
            assertThat(v.get("near").similarity).isGreaterThanOrEqualTo(0.8);
            // The exact copy is a duplicate of both earlier pages; it points at the earliest.
            assertThat(v.get("exact").duplicateOf).isEqualTo("orig");
            assertThat(v.get("exact").similarity).isEqualTo(1.0);
            assertThat(pairs(chain.alerts()))
                    .containsExactlyInAnyOrder("near>orig", "exact>orig", "exact>near");
        }
    }

    /** Runs {@code texts} in every arrival order; returns per order (pairs, duplicateOf). */
    private static List<Map.Entry<TreeSet<String>, Map<String, String>>> allOrders(
            String[] ids, String[] texts) throws Exception {
        return allOrders(defaults(), ids, texts);
    }

    private static List<Map.Entry<TreeSet<String>, Map<String, String>>> allOrders(
            NearDupSettings settings, String[] ids, String[] texts) throws Exception {
        List<Map.Entry<TreeSet<String>, Map<String, String>>> out = new ArrayList<>();
        List<int[]> orders = new ArrayList<>();
        int[] first = new int[ids.length];
        java.util.Arrays.setAll(first, i -> i);
        permutations(first, 0, orders);
        for (int[] order : orders) {
            try (Chain chain = new Chain(settings)) {
                for (int i : order) {
                    chain.send(ids[i], T0 + i * 1000L, texts[i]);
                }
                chain.finish();
                TreeSet<String> pairs = new TreeSet<>(pairs(chain.alerts()));
                assertThat(pairs).as("each pair once").hasSameSizeAs(chain.alerts());
                List<String> idList = java.util.Arrays.asList(ids);
                for (String p : pairs) {
                    String[] ab = p.split("[> ]");
                    assertThat(idList.indexOf(ab[0]))
                            .as("alerts point back in time: %s", p)
                            .isGreaterThan(idList.indexOf(ab[1]));
                }
                Map<String, String> duplicateOf = new HashMap<>();
                chain.verdictsById().forEach((id, v) -> duplicateOf.put(id, v.duplicateOf));
                assertThat(duplicateOf).hasSize(ids.length);
                out.add(Map.entry(pairs, duplicateOf));
            }
        }
        return out;
    }

    @Test
    void everyArrivalOrderGivesTheSameAlertsAndVerdicts() throws Exception {
        // Variants about 0.9 apart: close enough to match, too far to share a whole signature.
        String base = prose(3, 500);
        String[] ids = {"p0", "p1", "p2", "p3", "q"};
        String[] texts = {
            base,
            edit(base, 11, 6),
            edit(base, 12, 6),
            edit(edit(base, 12, 6), 13, 3),
            prose(4, 500)
        };
        var results = allOrders(ids, texts);
        var canonical = results.get(0); // time order
        assertThat(canonical.getKey()).contains("p1>p0", "p2>p0", "p3>p0", "p3>p2");
        assertThat(canonical.getKey()).doesNotContain("q>p0");
        assertThat(canonical.getValue().get("p0")).isNull();
        assertThat(canonical.getValue().get("q")).isNull();
        assertThat(canonical.getValue().get("p3")).isEqualTo("p0");
        for (var r : results) {
            assertThat(r.getKey()).isEqualTo(canonical.getKey());
            assertThat(r.getValue()).isEqualTo(canonical.getValue());
        }
    }

    /**
     * Documents with identical signatures (exact copies, and pages so close that all K MinHash
     * values agree) are kept once per bucket, as the earliest of them. The buckets take documents
     * in event-time order whatever their arrival order, so even a chain of three copies arriving
     * backwards gives the alerts and verdicts of the time order: every copy points at the first.
     */
    @Test
    void withExactCopiesEveryArrivalOrderGivesTheSameAlertsAndVerdicts() throws Exception {
        String base = prose(5, 500);
        String[] ids = {"c0", "n1", "c2", "c3"};
        String[] texts = {base, edit(base, 21, 6), base, base};
        var results = allOrders(ids, texts);
        var canonical = results.get(0);
        assertThat(canonical.getKey())
                .containsExactlyInAnyOrder("n1>c0", "c2>c0", "c2>n1", "c3>c0", "c3>n1");
        assertThat(canonical.getValue())
                .containsEntry("c0", null)
                .containsEntry("n1", "c0")
                .containsEntry("c2", "c0")
                .containsEntry("c3", "c0");
        for (var r : results) {
            assertThat(r.getValue()).isEqualTo(canonical.getValue());
            assertThat(r.getKey()).isEqualTo(canonical.getKey());
        }
    }

    /**
     * Containment mode through the sample store: an article, a digest that contains it, a near-copy
     * of the article and a page quoting half of it. Whatever the arrival order, the same alerts
     * with the same directions and the same verdicts; the quote matches nothing.
     */
    @Test
    void inContainmentModeEveryArrivalOrderGivesTheSameAlertsAndVerdicts() throws Exception {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.SIMILARITY, SimilarityFamily.CONTAINMENT);
        conf.set(NearDupOptions.THRESHOLD, 0.8);
        String article = prose(6, 300);
        String[] words = article.split(" ");
        String half = String.join(" ", java.util.Arrays.copyOf(words, 150));
        String[] ids = {"a", "d", "a2", "q"};
        String[] texts = {
            article, article + " " + prose(8, 600), edit(article, 31, 2), half + " " + prose(9, 300)
        };
        var results = allOrders(NearDupSettings.from(conf), ids, texts);
        var canonical = results.get(0);
        assertThat(canonical.getKey())
                .containsExactlyInAnyOrder(
                        "d>a " + Alert.DUPLICATE_IN_DOC,
                        "a2>a " + Alert.MUTUAL,
                        "a2>d " + Alert.DOC_IN_DUPLICATE);
        assertThat(canonical.getValue())
                .containsEntry("a", null)
                .containsEntry("d", "a")
                .containsEntry("a2", "a")
                .containsEntry("q", null);
        for (var r : results) {
            assertThat(r.getKey()).isEqualTo(canonical.getKey());
            assertThat(r.getValue()).isEqualTo(canonical.getValue());
        }
        // Members carry no cluster here (the bucket does not know which candidates match): the
        // digest's verdict names the article's cluster, and the near-copy, which matches both,
        // names it too and says that the digest's own cluster joined it; a consumer's union-find
        // (README, Clusters) puts all three together.
        for (boolean backwards : new boolean[] {false, true}) {
            try (Chain chain = new Chain(NearDupSettings.from(conf))) {
                for (int k = 0; k < ids.length; k++) {
                    int i = backwards ? ids.length - 1 - k : k;
                    chain.send(ids[i], T0 + i * 1000L, texts[i]);
                }
                chain.finish();
                Map<String, Verdict> v = chain.verdictsById();
                assertThat(v.get("d").clusterId).isEqualTo("a");
                assertThat(v.get("a2").clusterId).isEqualTo("a");
                assertThat(v.get("q").clusterId).isEqualTo("q");
                assertThat(chain.merges()).containsExactly("d>a by a2");
                assertThat(chain.intake.numKeyedStateEntries())
                        .as("every document's band records reported: its sample dropped")
                        .isZero();
            }
        }
    }

    /** Alerts as "doc>duplicateOf", with " DIRECTION" in containment mode. */
    private static List<String> pairs(List<Alert> alerts) {
        List<String> out = new ArrayList<>();
        for (Alert a : alerts) {
            out.add(a.docId + ">" + a.duplicateOf + (a.direction == null ? "" : " " + a.direction));
        }
        return out;
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
}
