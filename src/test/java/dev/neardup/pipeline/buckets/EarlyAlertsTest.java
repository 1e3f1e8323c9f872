package dev.neardup.pipeline.buckets;

import static dev.neardup.pipeline.HarnessFixtures.BANDS;
import static dev.neardup.pipeline.HarnessFixtures.K;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.announce;
import static dev.neardup.pipeline.HarnessFixtures.bucketHarness;
import static dev.neardup.pipeline.HarnessFixtures.differingIn;
import static dev.neardup.pipeline.HarnessFixtures.record;
import static dev.neardup.pipeline.HarnessFixtures.report;
import static dev.neardup.pipeline.HarnessFixtures.sideValues;
import static dev.neardup.pipeline.HarnessFixtures.signature;
import static dev.neardup.pipeline.HarnessFixtures.verdictHarness;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.io.Alert;
import dev.neardup.io.Json;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.BucketHarness;
import dev.neardup.pipeline.HarnessFixtures;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.verdicts.VerdictOperator;
import dev.neardup.similarity.Estimate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Early alerts: the band buckets and the verdict operator in their harnesses, wired as the job
 * wires them (every message of the buckets to the verdicts, announcements straight to the
 * verdicts). A page that collides with a member the watermark has passed is alerted as it arrives,
 * marked early, once; its verdict still waits for the watermark and is the same with early alerts
 * off. An early pair that the verdict does not confirm (a deletion that arrived after the alert, a
 * capacity eviction by a page that arrived late) keeps its alert.
 */
class EarlyAlertsTest {

    /** A bucket subtask and a verdict subtask, wired by hand; watermarks driven by the test. */
    private static final class Chain implements AutoCloseable {
        final BucketHarness buckets;
        final KeyedOneInputStreamOperatorTestHarness<String, VerdictEvent, Verdict> verdicts;
        private int forwarded;

        Chain(NearDupSettings settings) throws Exception {
            buckets = bucketHarness(settings);
            verdicts = verdictHarness(settings);
            buckets.open();
            verdicts.open();
        }

        /** A page of {@code BANDS} band records, in the buckets {@code keys} (one per band). */
        void arrive(String id, long time, long[] sig, long... keys) throws Exception {
            verdicts.processElement(announce(id, time), time);
            for (int band = 0; band < BANDS; band++) {
                BandRecord r = record(keys[band], id, time, sig);
                r.band = band;
                buckets.processElement(r, time);
            }
            forward();
        }

        /** A page whose buckets follow from its signature, as LSH banding places it. */
        void arrive(String id, long time, long[] sig) throws Exception {
            arrive(id, time, sig, banded(sig));
        }

        void delete(String id, long time) throws Exception {
            buckets.delete(id, time);
            VerdictEvent d = VerdictEvent.deletion(id, null, time, "deletions:" + id);
            verdicts.processElement(d, time);
            forward();
        }

        void watermark(long time) throws Exception {
            buckets.processWatermark(new Watermark(time));
            forward();
            verdicts.processWatermark(new Watermark(time));
        }

        private void forward() throws Exception {
            List<VerdictEvent> out = buckets.allOutput();
            for (VerdictEvent e : out.subList(forwarded, out.size())) {
                verdicts.processElement(e, e.eventTime);
            }
            forwarded = out.size();
        }

        /** The pair alerts (no cluster merges). */
        List<Alert> alerts() {
            return sideValues(verdicts, VerdictOperator.ALERTS).stream()
                    .filter(a -> !a.isClusterMerge())
                    .toList();
        }

        /** The verdicts, without the time they were made: what must not depend on early alerts. */
        List<String> verdictLines() throws Exception {
            List<String> out = new ArrayList<>();
            for (Verdict v : verdicts.extractOutputValues()) {
                v.detectedAt = null;
                out.add(Json.MAPPER.writeValueAsString(v));
            }
            return out;
        }

        Verdict verdictOf(String id) {
            List<Verdict> of =
                    verdicts.extractOutputValues().stream()
                            .filter(v -> v.docId.equals(id) && !Verdict.DELETED.equals(v.verdict))
                            .toList();
            assertThat(of).as("one verdict for %s", id).hasSize(1);
            return of.get(0);
        }

        @Override
        public void close() throws Exception {
            buckets.close();
            verdicts.close();
        }
    }

    /** The band keys of {@code sig}: band b hashes its ROWS values, as LSH banding does. */
    private static long[] banded(long[] sig) {
        long[] keys = new long[BANDS];
        int rows = K / BANDS;
        for (int b = 0; b < BANDS; b++) {
            keys[b] = Arrays.hashCode(Arrays.copyOfRange(sig, b * rows, (b + 1) * rows)) * 31L + b;
        }
        return keys;
    }

    private static NearDupSettings settings(int capacity, boolean early) {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.THRESHOLD, HarnessFixtures.THRESHOLD);
        conf.set(NearDupOptions.NUM_HASHES, K);
        conf.set(NearDupOptions.BANDS, BANDS);
        conf.set(NearDupOptions.ROWS, HarnessFixtures.ROWS);
        conf.set(NearDupOptions.BUCKET_CAPACITY, capacity);
        conf.set(NearDupOptions.RETENTION, HarnessFixtures.RETENTION);
        conf.set(NearDupOptions.SIGNATURE_BITS, HarnessFixtures.BITS);
        conf.set(NearDupOptions.EARLY_ALERTS, early);
        return NearDupSettings.from(conf);
    }

    private static List<String> pairs(List<Alert> alerts) {
        return alerts.stream().map(a -> a.docId + ">" + a.duplicateOf).toList();
    }

    @Test
    void aPageMatchingASettledPageIsAlertedAsItArrivesOnceAndItsVerdictWaits() throws Exception {
        try (Chain chain = new Chain(settings(64, true))) {
            long[] page = signature(7);
            chain.arrive("orig", T0, page);
            chain.watermark(T0); // orig is settled
            assertThat(chain.verdictOf("orig").verdict).isEqualTo(Verdict.UNIQUE);

            chain.arrive("near", T0 + 2000, differingIn(page, 1));
            assertThat(chain.verdicts.extractOutputValues())
                    .as("near's verdict waits for the watermark")
                    .hasSize(1);
            List<Alert> alerts = chain.alerts();
            assertThat(pairs(alerts)).containsExactly("near>orig");
            Alert a = alerts.get(0);
            assertThat(a.early).isTrue();
            assertThat(a.similarity).isEqualTo(HarnessFixtures.expectedJaccard(K - 1));
            assertThat(a.eventTime).isEqualTo(Json.isoTime(T0 + 2000));
            assertThat(Json.MAPPER.writeValueAsString(a)).contains("\"early\":true");
            assertThat(chain.buckets.earlyEvents())
                    .as("one early event per band record that found the match")
                    .hasSizeGreaterThanOrEqualTo(1)
                    .allSatisfy(e -> assertThat(e.reports).isZero());

            chain.watermark(T0 + 1999);
            assertThat(chain.verdicts.extractOutputValues()).hasSize(1);
            chain.watermark(T0 + 2000);
            Verdict v = chain.verdictOf("near");
            assertThat(v.verdict).isEqualTo(Verdict.DUPLICATE);
            assertThat(v.duplicateOf).isEqualTo("orig");
            assertThat(v.matches).extracting(m -> m.docId).containsExactly("orig");
            assertThat(pairs(chain.alerts())).as("not alerted again").containsExactly("near>orig");
        }
    }

    /**
     * A page less than a second ahead of the watermark is taken in about as soon as an early
     * comparison would alert it: it waits for the watermark without reading its buckets first.
     */
    @Test
    void aPageCloseBehindTheWatermarkIsAlertedWithItsVerdict() throws Exception {
        try (Chain chain = new Chain(settings(64, true))) {
            long[] page = signature(7);
            chain.arrive("orig", T0, page);
            chain.watermark(T0);
            chain.arrive("near", T0 + BandBucketOperator.EARLY_MIN_WAIT_MILLIS - 1, page);
            assertThat(chain.alerts()).isEmpty();
            assertThat(chain.buckets.earlyEvents()).isEmpty();
            chain.watermark(T0 + BandBucketOperator.EARLY_MIN_WAIT_MILLIS);
            assertThat(chain.alerts())
                    .singleElement()
                    .satisfies(a -> assertThat(a.duplicateOf).isEqualTo("orig"))
                    .satisfies(a -> assertThat(a.early).isFalse());
        }
    }

    @Test
    void withEarlyAlertsOffTheSamePairIsAlertedWithItsVerdict() throws Exception {
        try (Chain chain = new Chain(settings(64, false))) {
            long[] page = signature(7);
            chain.arrive("orig", T0, page);
            chain.watermark(T0);
            chain.arrive("near", T0 + 2000, differingIn(page, 1));
            assertThat(chain.alerts()).isEmpty();
            assertThat(chain.buckets.earlyEvents()).isEmpty();
            chain.watermark(T0 + 2000);
            assertThat(chain.alerts())
                    .singleElement()
                    .satisfies(a -> assertThat(a.early).isFalse());
            assertThat(Json.MAPPER.writeValueAsString(chain.alerts().get(0)))
                    .doesNotContain("early");
        }
    }

    /**
     * Neither an unsettled page (arrived but not passed by the watermark) nor a later page is
     * alerted early; an earlier page arriving late, behind the watermark, becomes the verdict's
     * original, and the early pair is still in the verdict's matches.
     */
    @Test
    void onlySettledPagesAreAlertedEarlyAndTheVerdictMayNameAnEarlierOriginal() throws Exception {
        try (Chain chain = new Chain(settings(64, true))) {
            long[] page = signature(7);
            chain.arrive("b", T0, page);
            chain.watermark(T0);
            chain.arrive("c", T0 + 1000, differingIn(page, 1)); // not settled when d arrives
            chain.arrive("d", T0 + 2000, page);
            assertThat(pairs(chain.alerts())).containsExactlyInAnyOrder("c>b", "d>b");
            // a, earlier than b and a near copy of it, arrives late: taken in at once, behind
            // the watermark.
            long[] other = page.clone();
            other[K - 1] += 5;
            chain.arrive("a", T0 - 1000, other);
            chain.watermark(T0 + 2000);
            Verdict d = chain.verdictOf("d");
            assertThat(d.duplicateOf).as("the earliest match").isEqualTo("a");
            assertThat(d.matches).extracting(m -> m.docId).containsExactly("b", "a", "c");
            assertThat(chain.verdictOf("c").matches).extracting(m -> m.docId).containsExactly("b");
            List<Alert> alerts = chain.alerts();
            assertThat(pairs(alerts)).doesNotHaveDuplicates().contains("d>c", "d>a", "b>a");
            assertThat(alerts)
                    .filteredOn(a -> a.early)
                    .extracting(a -> a.docId + ">" + a.duplicateOf)
                    .containsExactlyInAnyOrder("c>b", "d>b");
        }
    }

    /**
     * The original is deleted at a time before the copy, but the deletion arrives after the copy's
     * early alert: the verdict does not count the deleted page (UNIQUE), the early alert stands.
     */
    @Test
    void aDeletionArrivingAfterTheEarlyAlertLeavesTheAlertAndTheVerdictIgnoresTheDeletedPage()
            throws Exception {
        try (Chain chain = new Chain(settings(64, true))) {
            long[] page = signature(7);
            chain.arrive("orig", T0, page);
            chain.watermark(T0);
            chain.arrive("copy", T0 + 2000, page);
            assertThat(chain.alerts())
                    .singleElement()
                    .satisfies(a -> assertThat(a.duplicateOf).isEqualTo("orig"))
                    .satisfies(a -> assertThat(a.early).isTrue());
            chain.delete("orig", T0 + 1000);
            chain.watermark(T0 + 2000);
            Verdict v = chain.verdictOf("copy");
            assertThat(v.verdict).isEqualTo(Verdict.UNIQUE);
            assertThat(v.matches).isEmpty();
            assertThat(pairs(chain.alerts())).containsExactly("copy>orig");

            // A page arriving after the deletion is not alerted early against the deleted page.
            chain.arrive("again", T0 + 3000, page);
            assertThat(pairs(chain.alerts())).containsExactly("copy>orig", "again>copy");
        }
    }

    /**
     * A hot bucket at capacity 1 in every band: the settled member b is alerted early against the
     * copy, then a page earlier than b arrives late and takes b's place; the copy is compared with
     * it only (no match): UNIQUE, and the early alert stands.
     */
    @Test
    void aCapacityEvictionAfterTheEarlyAlertLeavesTheAlertAndTheVerdictWithoutTheEvictedPage()
            throws Exception {
        try (Chain chain = new Chain(settings(1, true))) {
            long[] hot = {11, 12, 13, 14};
            long[] page = signature(7);
            chain.arrive("b", T0, page, hot);
            chain.watermark(T0);
            chain.arrive("copy", T0 + 2000, differingIn(page, 1), hot);
            assertThat(pairs(chain.alerts())).containsExactly("copy>b");
            chain.arrive("late", T0 - 1000, signature(99), hot); // not similar to either
            chain.watermark(T0 + 2000);
            Verdict v = chain.verdictOf("copy");
            assertThat(v.verdict).isEqualTo(Verdict.UNIQUE);
            assertThat(v.candidates).as("compared with the late page alone").isEqualTo(BANDS);
            assertThat(pairs(chain.alerts())).containsExactly("copy>b");
            assertThat(chain.alerts().get(0).early).isTrue();
        }
    }

    /**
     * A stream with bounded disorder and late pages: the verdicts are identical with early alerts
     * on and off; the alerts on are those off plus early pairs only.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void verdictsAreIdenticalWithEarlyAlertsOnAndOff(long seed) throws Exception {
        List<String> verdictsOn;
        List<String> verdictsOff;
        List<Alert> on;
        List<Alert> off;
        try (Chain chain = new Chain(settings(8, true))) {
            stream(chain, seed);
            verdictsOn = chain.verdictLines();
            on = chain.alerts();
        }
        try (Chain chain = new Chain(settings(8, false))) {
            stream(chain, seed);
            verdictsOff = chain.verdictLines();
            off = chain.alerts();
        }
        assertThat(verdictsOn).hasSize(200).isEqualTo(verdictsOff);
        assertThat(off).noneMatch(a -> a.early);
        assertThat(on).filteredOn(a -> a.early).isNotEmpty();
        assertThat(pairs(on)).doesNotHaveDuplicates();
        TreeSet<String> onPairs = new TreeSet<>(pairs(on));
        TreeSet<String> offPairs = new TreeSet<>(pairs(off));
        assertThat(onPairs).containsAll(offPairs);
        for (Alert a : on) {
            if (!offPairs.contains(a.docId + ">" + a.duplicateOf)) {
                assertThat(a.early).as("%s>%s not confirmed", a.docId, a.duplicateOf).isTrue();
            }
        }
    }

    /**
     * 200 pages from 20 families (near copies), fetched 1 s apart, arriving up to 5 s out of order,
     * one in 20 late (behind the watermark); the watermark trails the latest by 5 s.
     */
    private static void stream(Chain chain, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        long[][] families = new long[20][];
        for (int f = 0; f < families.length; f++) {
            families[f] = signature(1000L * (f + 1));
        }
        int n = 200;
        long[] times = new long[n];
        for (int i = 0; i < n; i++) {
            times[i] = T0 + 1000L * i + (random.nextInt(20) == 0 ? -8000 : random.nextInt(5000));
        }
        long latest = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            long[] sig = differingIn(families[random.nextInt(families.length)], 0);
            if (random.nextBoolean()) {
                sig[random.nextInt(K)] += 1 + random.nextInt(3); // a near copy
            }
            chain.arrive("p" + i, times[i], sig);
            latest = Math.max(latest, times[i]);
            chain.watermark(latest - 5000);
        }
        chain.watermark(Long.MAX_VALUE);
    }

    /**
     * At the verdict operator: an early event before the document's announcement, a checkpoint in
     * between (on the heap, or spilled), and the bucket reports after: one alert per pair, the
     * verdict from the reports alone.
     */
    @ParameterizedTest
    @ValueSource(strings = {"32mb", "0"})
    void anEarlyEventBeforeTheAnnouncementAndACheckpointAlertsOnce(String pendingBuffer)
            throws Exception {
        NearDupSettings settings =
                HarnessFixtures.settingsWithPendingBuffer(64, MemorySize.parse(pendingBuffer));
        long t = T0 + 5000;
        VerdictEvent early = VerdictEvent.early("d", "https://example.org/d", t, 0);
        early.addMatch("a", "https://example.org/a", T0, Estimate.of(0.875), 0, null, 0);
        early.addMatch("x", "https://example.org/x", T0 + 1, Estimate.of(0.8125), 0, null, 0);
        var harness = verdictHarness(settings);
        harness.open();
        harness.processElement(early, t);
        assertThat(sideValues(harness, VerdictOperator.ALERTS))
                .extracting(a -> a.duplicateOf + " " + a.early)
                .containsExactly("a true", "x true");
        OperatorSubtaskState state = harness.snapshot(1L, 1L);
        harness.close();

        harness = verdictHarness(settings);
        harness.initializeState(state);
        harness.open();
        harness.processElement(announce("d", t), t);
        // The reports name a (alerted early) and b; x was deleted before d, say, so none does.
        harness.processElement(
                HarnessFixtures.matches("d", t, 0, 2, "a", T0, 0.875, "b", T0 + 2, 0.9), t);
        harness.processElement(early, t); // another band's early event: nothing new
        for (int band = 1; band < BANDS; band++) {
            harness.processElement(report("d", t, band), t);
        }
        assertThat(sideValues(harness, VerdictOperator.ALERTS))
                .filteredOn(a -> !a.isClusterMerge())
                .extracting(a -> a.duplicateOf + " " + a.early)
                .containsExactly("b false");
        List<Verdict> verdicts = harness.extractOutputValues();
        assertThat(verdicts).hasSize(1);
        assertThat(verdicts.get(0).duplicateOf).isEqualTo("a");
        assertThat(verdicts.get(0).matches).extracting(m -> m.docId).containsExactly("b", "a");
        assertThat(verdicts.get(0).candidates).isEqualTo(2);
        harness.close();
    }

    @Test
    void containmentModeSendsNoEarlyEvents() throws Exception {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.SIMILARITY, dev.neardup.config.SimilarityFamily.CONTAINMENT);
        conf.set(NearDupOptions.THRESHOLD, 0.8);
        NearDupSettings settings = NearDupSettings.from(conf);
        assertThat(settings.verdicts().earlyAlerts()).as("on by default").isTrue();
        BucketHarness buckets = bucketHarness(settings);
        buckets.open();
        BandRecord first = new BandRecord();
        first.bandKey = 5;
        first.docId = "a";
        first.eventTime = T0;
        first.signature = new byte[0];
        buckets.feed(first);
        BandRecord second = new BandRecord();
        second.bandKey = 5;
        second.docId = "b";
        second.eventTime = T0 + 1000;
        second.signature = new byte[0];
        buckets.processElement(second, second.eventTime);
        assertThat(buckets.earlyEvents()).isEmpty();
        buckets.close();
    }
}
