package dev.neardup.pipeline.buckets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.NearDupSettings;
import dev.neardup.pipeline.BucketHarness;
import dev.neardup.pipeline.HarnessFixtures;
import dev.neardup.pipeline.NearDupJob;
import dev.neardup.pipeline.SignatureFunction;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.samples.SampleIntakeFunction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

/**
 * Containment mode's band bucket, sample intake and sample store in Flink's harnesses, wired as
 * {@link NearDupJob} wires them. A band record fed here carries its document's sample, as a test
 * builds it; the chain does what the signature operator does with it: the sample goes to the intake
 * once per document version ({@link SignatureFunction#SAMPLES}) and the bucket gets the record
 * without it. What the bucket sends the intake ({@link BandBucketOperator#SAMPLE_STORE}) goes
 * there, what the intake sends the store goes there, one watermark for all three. {@link #feed}
 * returns what reaches the verdicts for that step, each bucket report (through the intake) merged
 * with the store's results for its document (so a test reads one message per document, with the
 * bucket's candidates and the verified matches, as when the buckets verified on the spot), after
 * checking that the store sent exactly as many results as the report said candidates went there.
 */
final class ContainmentChain implements AutoCloseable {

    BucketHarness buckets;
    final KeyedOneInputStreamOperatorTestHarness<String, SampleStoreRecord, SampleStoreRecord>
            intake;
    final KeyedOneInputStreamOperatorTestHarness<String, SampleStoreRecord, VerdictEvent> store;
    private final NearDupSettings settings;
    private final Set<String> samplesSent = new HashSet<>();
    private long watermark = Long.MIN_VALUE;
    private int seenSent;
    private int seenForwarded;
    private int seenReports;
    private int seenResults;

    ContainmentChain(NearDupSettings settings) throws Exception {
        this.settings = settings;
        buckets = HarnessFixtures.bucketHarness(settings);
        intake = HarnessFixtures.intakeHarness(settings);
        store = HarnessFixtures.storeHarness(settings);
        buckets.open();
        intake.open();
        store.open();
    }

    /** Replaces the bucket with one restored from {@code snapshot} (the others go on). */
    void restoreBuckets(OperatorSubtaskState snapshot) throws Exception {
        buckets.close();
        buckets = HarnessFixtures.bucketHarness(settings);
        buckets.initializeState(snapshot);
        buckets.open();
        seenSent = 0;
    }

    /** Feeds a band record (see {@link BucketHarness#feed}); returns the merged messages. */
    List<VerdictEvent> feed(BandRecord r) throws Exception {
        return feedAll(List.of(r));
    }

    /** As {@link #feed}, for records that arrive before one watermark passes them all. */
    List<VerdictEvent> feedAll(List<BandRecord> records) throws Exception {
        List<BandRecord> withoutSamples = new ArrayList<>();
        for (BandRecord r : records) {
            if (samplesSent.add(r.docId + "@" + r.eventTime + "#" + r.fingerprint)) {
                intake.processElement(
                        SampleStoreRecord.sample(
                                r.docId, r.eventTime, r.fingerprint, r.url, r.signature),
                        r.eventTime);
            }
            withoutSamples.add(withoutSample(r));
        }
        List<VerdictEvent> direct = buckets.feedAll(withoutSamples);
        assertThat(direct).as("containment buckets report through the intake").isEmpty();
        passOn();
        long latest = records.stream().mapToLong(r -> r.eventTime).max().orElseThrow();
        if (latest > watermark) {
            watermark = latest;
            intake.processWatermark(new Watermark(watermark));
            store.processWatermark(new Watermark(watermark));
        }
        return merge(newReports(), newResults());
    }

    /** {@code r} as the signature operator sends it to the buckets: without its sample. */
    static BandRecord withoutSample(BandRecord r) {
        BandRecord copy = new BandRecord();
        copy.bandKey = r.bandKey;
        copy.band = r.band;
        copy.docId = r.docId;
        copy.url = r.url;
        copy.eventTime = r.eventTime;
        copy.fingerprint = r.fingerprint;
        copy.signature = new byte[0];
        return copy;
    }

    /**
     * What the bucket sent since, through the intake, and what the intake sent on, to the store.
     */
    private void passOn() throws Exception {
        List<SampleStoreRecord> sent = sentToIntake();
        for (SampleStoreRecord s : sent.subList(seenSent, sent.size())) {
            intake.processElement(s, s.time);
        }
        seenSent = sent.size();
        List<SampleStoreRecord> forwarded = intake.extractOutputValues();
        for (SampleStoreRecord s : forwarded.subList(seenForwarded, forwarded.size())) {
            store.processElement(s, s.kind == SampleStoreRecord.CANDIDATE ? s.docTime : s.time);
        }
        seenForwarded = forwarded.size();
    }

    private List<VerdictEvent> newReports() {
        List<VerdictEvent> all = HarnessFixtures.sideValues(intake, SampleIntakeFunction.REPORTS);
        List<VerdictEvent> step = new ArrayList<>(all.subList(seenReports, all.size()));
        seenReports = all.size();
        return step;
    }

    private List<VerdictEvent> newResults() {
        List<VerdictEvent> all = store.extractOutputValues();
        List<VerdictEvent> step = new ArrayList<>(all.subList(seenResults, all.size()));
        seenResults = all.size();
        return step;
    }

    /** Each report with the results of its document; later-found matches as they are. */
    private static List<VerdictEvent> merge(
            List<VerdictEvent> reports, List<VerdictEvent> results) {
        Map<String, VerdictEvent> byDoc = new LinkedHashMap<>();
        List<VerdictEvent> out = new ArrayList<>();
        for (VerdictEvent e : reports) {
            assertThat(e.matches.size()).as("containment buckets verify nothing").isZero();
            VerdictEvent merged = VerdictEvent.matches(e.docId, e.url, e.eventTime, e.band);
            merged.candidates = e.candidates;
            merged.reports = e.reports;
            merged.forwarded = e.forwarded;
            byDoc.put(e.key(), merged);
            out.add(merged);
        }
        Map<String, Integer> resultCount = new LinkedHashMap<>();
        for (VerdictEvent e : results) {
            if (e.kind != VerdictEvent.RESULT) {
                out.add(e); // a match found for a later document, which it does not wait for
                continue;
            }
            VerdictEvent merged = byDoc.get(e.key());
            assertThat(merged).as("a report for the result of %s", e.docId).isNotNull();
            resultCount.merge(e.key(), 1, Integer::sum);
            for (int i = 0; i < e.matches.size(); i++) {
                merged.addMatch(
                        e.matches.ids[i],
                        e.matches.urls[i],
                        e.matches.eventTimes[i],
                        e.matches.estimate(i),
                        e.matchBand(i),
                        null,
                        0);
            }
        }
        for (VerdictEvent merged : byDoc.values()) {
            assertThat(resultCount.getOrDefault(merged.key(), 0))
                    .as("results for %s", merged.docId)
                    .isEqualTo(merged.forwarded);
        }
        return out;
    }

    /** What the buckets sent the intake so far. */
    List<SampleStoreRecord> sentToIntake() {
        return HarnessFixtures.sideValues(buckets, BandBucketOperator.SAMPLE_STORE);
    }

    /** What the intake sent the store so far. */
    List<SampleStoreRecord> sentToStore() {
        return intake.extractOutputValues();
    }

    /** Moves the operators' watermark to {@code time}; returns what the store sent. */
    List<VerdictEvent> watermark(long time) throws Exception {
        buckets.processWatermark(new Watermark(time));
        passOn();
        intake.processWatermark(new Watermark(time));
        store.processWatermark(new Watermark(time));
        watermark = Math.max(watermark, time);
        return newResults();
    }

    /** A deletion through the bucket (its copies) and, from the signature operator, the intake. */
    void delete(String docId, long time) throws Exception {
        buckets.delete(docId, time);
        intake.processElement(SampleStoreRecord.deletion(docId, time), time);
        passOn();
    }

    @Override
    public void close() throws Exception {
        buckets.close();
        intake.close();
        store.close();
    }
}
