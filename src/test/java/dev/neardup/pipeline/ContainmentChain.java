package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

/**
 * Containment mode's band bucket and sample store in Flink's harnesses, wired as {@link NearDupJob}
 * wires them: band records to the bucket, what it sends the store ({@link
 * BandBucketOperator#SAMPLE_STORE}) to the store, one watermark for both. {@link #feed} returns
 * what reaches the verdicts for that step, each bucket report merged with the store's results for
 * its document (so a test reads one message per document, with the bucket's candidates and the
 * verified matches, as when the buckets verified on the spot), after checking that the store sent
 * exactly as many results as the report said candidates went there.
 */
final class ContainmentChain implements AutoCloseable {

    BucketHarness buckets;
    final KeyedOneInputStreamOperatorTestHarness<String, SampleStoreRecord, VerdictEvent> store;
    private final NearDupSettings settings;
    private long watermark = Long.MIN_VALUE;
    private int seenSent;
    private int seenResults;

    ContainmentChain(NearDupSettings settings) throws Exception {
        this.settings = settings;
        buckets = HarnessFixtures.bucketHarness(settings);
        store = HarnessFixtures.storeHarness(settings);
        buckets.open();
        store.open();
    }

    /** Replaces the bucket with one restored from {@code snapshot} (the store goes on). */
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
        List<VerdictEvent> reports = buckets.feedAll(records);
        List<SampleStoreRecord> sent =
                HarnessFixtures.sideValues(buckets, BandBucketOperator.SAMPLE_STORE);
        for (SampleStoreRecord s : sent.subList(seenSent, sent.size())) {
            store.processElement(s, s.kind == SampleStoreRecord.CANDIDATE ? s.docTime : s.time);
        }
        seenSent = sent.size();
        long latest = records.stream().mapToLong(r -> r.eventTime).max().orElseThrow();
        if (latest > watermark) {
            watermark = latest;
            store.processWatermark(new Watermark(watermark));
        }
        List<VerdictEvent> all = store.extractOutputValues();
        List<VerdictEvent> results = new ArrayList<>(all.subList(seenResults, all.size()));
        seenResults = all.size();
        return merge(reports, results);
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
                        e.matches.similarities[i],
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

    /** What the buckets sent the store so far. */
    List<SampleStoreRecord> sentToStore() {
        return HarnessFixtures.sideValues(buckets, BandBucketOperator.SAMPLE_STORE);
    }

    /** Moves both operators' watermark to {@code time}; returns what the store sent. */
    List<VerdictEvent> watermark(long time) throws Exception {
        buckets.processWatermark(new Watermark(time));
        store.processWatermark(new Watermark(time));
        watermark = Math.max(watermark, time);
        List<VerdictEvent> all = store.extractOutputValues();
        List<VerdictEvent> results = new ArrayList<>(all.subList(seenResults, all.size()));
        seenResults = all.size();
        return results;
    }

    /** A deletion through the bucket (its copies) and on to the store, as in the job. */
    void delete(String docId, long time) throws Exception {
        buckets.delete(docId, time);
        List<SampleStoreRecord> sent = sentToStore();
        for (SampleStoreRecord s : sent.subList(seenSent, sent.size())) {
            store.processElement(s, s.time);
        }
        seenSent = sent.size();
    }

    @Override
    public void close() throws Exception {
        buckets.close();
        store.close();
    }
}
