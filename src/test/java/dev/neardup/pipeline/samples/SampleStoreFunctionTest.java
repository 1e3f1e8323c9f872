package dev.neardup.pipeline.samples;

import static dev.neardup.pipeline.HarnessFixtures.HOUR;
import static dev.neardup.pipeline.HarnessFixtures.MINUTE;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.storeHarness;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.Alert;
import dev.neardup.pipeline.HarnessFixtures;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.similarity.Estimate;
import dev.neardup.sketch.BbitMinHash;
import dev.neardup.sketch.BottomKContainment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SampleStoreFunction} in Flink's keyed harness: it verifies a candidate against its
 * member's stored sample and reports to the later document, waits for a sample that comes after its
 * candidate, gives up (no match) when the member's version is gone without it, drops samples at the
 * retention and at deletions, and leaves no state or timer behind.
 */
class SampleStoreFunctionTest {

    private static final int S = 64;

    private KeyedOneInputStreamOperatorTestHarness<String, SampleStoreRecord, VerdictEvent> harness;
    private int seen;

    @BeforeEach
    void open() throws Exception {
        harness = storeHarness(HarnessFixtures.containmentSettings(64));
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    /** Shingle hashes: {@code n} of a fixed article, then {@code extra} of the page's own. */
    private static long[] page(int n, int extra, long seed) {
        long[] out = new long[n + extra];
        SplittableRandom article = new SplittableRandom(1503);
        for (int i = 0; i < n; i++) {
            out[i] = article.nextLong();
        }
        SplittableRandom own = new SplittableRandom(seed);
        for (int i = n; i < out.length; i++) {
            out[i] = own.nextLong();
        }
        return out;
    }

    /**
     * A band record of {@code docId} with the sample of {@code shingles}, as the buckets see it.
     */
    private static BandRecord doc(String docId, long eventTime, long[] shingles) {
        BandRecord r = new BandRecord();
        r.bandKey = 7;
        r.band = 3;
        r.docId = docId;
        r.url = "https://example.org/" + docId;
        r.eventTime = eventTime;
        long[] sample = BottomKContainment.sample(shingles, S);
        r.signature = BottomKContainment.pack(sample, S);
        r.fingerprint = BbitMinHash.fingerprint(sample);
        return r;
    }

    private static final BandRecord ARTICLE = doc("article", T0, page(300, 0, 1));
    private static final BandRecord DIGEST = doc("digest", T0 + MINUTE, page(300, 900, 2));
    private static final BandRecord OTHER = doc("other", T0 + MINUTE, page(60, 600, 4));

    private void send(SampleStoreRecord r) throws Exception {
        harness.processElement(r, r.kind == SampleStoreRecord.CANDIDATE ? r.docTime : r.time);
    }

    private void sample(BandRecord d) throws Exception {
        send(SampleStoreRecord.sample(d.docId, d.eventTime, d.fingerprint, d.url, d.signature));
    }

    /** A candidate: {@code member} (a bucket member) and the document the bucket took in. */
    private void candidate(BandRecord member, BandRecord doc, boolean memberFirst)
            throws Exception {
        SampleStoreRecord report = SampleStoreRecord.report(doc, null);
        report.addMember(member.docId, member.eventTime, member.fingerprint, doc.band, memberFirst);
        send(SampleStoreRecord.candidate(report, 0, doc.signature));
    }

    private void watermark(long time) throws Exception {
        harness.processWatermark(new Watermark(time));
    }

    /** What the store sent since the last call. */
    private List<VerdictEvent> step() {
        List<VerdictEvent> all = harness.extractOutputValues();
        List<VerdictEvent> out = new ArrayList<>(all.subList(seen, all.size()));
        seen = all.size();
        return out;
    }

    private static VerdictEvent only(List<VerdictEvent> step) {
        assertThat(step).hasSize(1);
        return step.get(0);
    }

    @Test
    void verifiesACandidateAgainstTheStoredSampleAndReportsToTheDocument() throws Exception {
        sample(ARTICLE);
        candidate(ARTICLE, DIGEST, true);
        VerdictEvent result = only(step());
        assertThat(result.kind).isEqualTo(VerdictEvent.RESULT);
        assertThat(result.key()).isEqualTo(VerdictEvent.key("digest", DIGEST.eventTime));
        assertThat(result.band).isEqualTo(3);
        assertThat(result.matches.ids).containsExactly("article");
        assertThat(result.matches.urls).containsExactly("https://example.org/article");
        assertThat(result.matches.eventTimes).containsExactly(T0);
        assertThat(result.matches.estimate(0))
                .isEqualTo(new Estimate(1.0, Estimate.Direction.SECOND_IN_FIRST));
        assertThat(result.matches.estimate(0).label()).isEqualTo(Alert.DUPLICATE_IN_DOC);
        assertThat(result.reports).as("a result is no bucket report").isZero();
    }

    @Test
    void aCandidateThatIsNoMatchStillGetsItsResult() throws Exception {
        sample(ARTICLE);
        candidate(ARTICLE, OTHER, true);
        VerdictEvent result = only(step());
        assertThat(result.kind).isEqualTo(VerdictEvent.RESULT);
        assertThat(result.docId).isEqualTo("other");
        assertThat(result.matches.size()).isZero();
    }

    @Test
    void exactCopiesAreMutualAtOne() throws Exception {
        BandRecord copy = doc("copy", T0 + 1, page(300, 0, 1));
        sample(ARTICLE);
        candidate(ARTICLE, copy, true);
        assertThat(only(step()).matches.estimate(0))
                .isEqualTo(new Estimate(1.0, Estimate.Direction.MUTUAL));
    }

    @Test
    void aLateDocumentsMatchGoesToTheLaterMember() throws Exception {
        // The digest is the member (taken in first); the article arrived late, behind it.
        sample(DIGEST);
        candidate(DIGEST, ARTICLE, false);
        VerdictEvent toDigest = only(step());
        assertThat(toDigest.kind).isEqualTo(VerdictEvent.MATCHES);
        assertThat(toDigest.reports).isZero();
        assertThat(toDigest.key()).isEqualTo(VerdictEvent.key("digest", DIGEST.eventTime));
        assertThat(toDigest.url).isEqualTo("https://example.org/digest");
        assertThat(toDigest.matches.ids).containsExactly("article");
        assertThat(toDigest.matches.estimate(0).label()).isEqualTo(Alert.DUPLICATE_IN_DOC);
        candidate(DIGEST, doc("late", T0, page(60, 600, 5)), false);
        assertThat(step()).as("no match, and the member does not wait for it").isEmpty();
    }

    @Test
    void aCandidateBeforeItsSampleWaitsForIt() throws Exception {
        watermark(T0 - 1);
        candidate(ARTICLE, DIGEST, true);
        assertThat(step()).isEmpty();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        assertThat(harness.numEventTimeTimers()).isEqualTo(1);
        sample(ARTICLE);
        VerdictEvent result = only(step());
        assertThat(result.matches.ids).containsExactly("article");
        watermark(T0 + MINUTE);
        assertThat(step()).as("verified once").isEmpty();
    }

    @Test
    void aSampleThatComesAfterTheWatermarkPassedItsMemberStillVerifiesTheCandidates()
            throws Exception {
        // A bucket took the article in behind the watermark (its partition was idle): a later
        // document's candidate reaches the store before the article's sample.
        watermark(T0 + 2 * MINUTE);
        candidate(ARTICLE, DIGEST, true);
        assertThat(step()).as("waits for the sample").isEmpty();
        sample(ARTICLE);
        VerdictEvent result = only(step());
        assertThat(result.docId).isEqualTo("digest");
        assertThat(result.matches.ids).containsExactly("article");
        watermark(T0 + MINUTE + HOUR);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void aCandidateWhoseSampleNeverComesGivesUpWhenTheRetentionPassesTheMember() throws Exception {
        watermark(T0 - 1);
        candidate(ARTICLE, DIGEST, true);
        candidate(ARTICLE, doc("late", T0 - 5, page(300, 10, 5)), false);
        assertThat(step()).isEmpty();
        watermark(T0 + HOUR - 1);
        assertThat(step()).as("the sample may still come").isEmpty();
        watermark(T0 + HOUR);
        VerdictEvent result = only(step());
        assertThat(result.kind).isEqualTo(VerdictEvent.RESULT);
        assertThat(result.docId).isEqualTo("digest");
        assertThat(result.matches.size()).as("a missing member is no match").isZero();
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
        // Once the retention has passed the member, a candidate of it gives up at once, and a
        // sample of it is not kept.
        candidate(ARTICLE, doc("third", T0 + 2 * MINUTE, page(300, 5, 6)), true);
        assertThat(only(step()).matches.size()).isZero();
        sample(ARTICLE);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void samplesAreDroppedWhenTheRetentionHasPassedThemAndNothingIsLeft() throws Exception {
        sample(ARTICLE);
        sample(ARTICLE); // sent again by another bucket subtask
        sample(DIGEST);
        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);
        watermark(T0 + HOUR - 1);
        candidate(ARTICLE, DIGEST, true);
        assertThat(only(step()).matches.ids).containsExactly("article");
        watermark(T0 + HOUR);
        assertThat(harness.numKeyedStateEntries()).as("the article's retention ended").isEqualTo(1);
        watermark(T0 + MINUTE + HOUR);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void aDeletionDropsTheVersionsUpToItWhenTheWatermarkPassesIt() throws Exception {
        BandRecord recrawl = doc("article", T0 + 20 * MINUTE, page(300, 0, 1));
        sample(ARTICLE);
        long deletedAt = T0 + 10 * MINUTE;
        send(SampleStoreRecord.deletion("article", deletedAt));
        send(SampleStoreRecord.deletion("article", deletedAt)); // from another subtask
        sample(recrawl);
        // A document before the deletion is still compared with the article.
        candidate(ARTICLE, doc("before", T0 + 5 * MINUTE, page(300, 900, 2)), true);
        assertThat(only(step()).matches.ids).containsExactly("article");
        watermark(deletedAt);
        assertThat(harness.numKeyedStateEntries()).as("the re-crawl after it stays").isEqualTo(1);
        candidate(ARTICLE, doc("idle", T0 + 6 * MINUTE, page(300, 900, 3)), true);
        assertThat(only(step()).matches.size()).as("the deleted version is gone").isZero();
        sample(ARTICLE); // late: the deletion passed it
        candidate(ARTICLE, doc("idle2", T0 + 7 * MINUTE, page(300, 900, 3)), true);
        assertThat(only(step()).matches.size()).as("and is not kept again").isZero();
        candidate(recrawl, doc("after", T0 + 30 * MINUTE, page(300, 900, 2)), true);
        assertThat(only(step()).matches.ids).containsExactly("article");
        watermark(recrawl.eventTime + HOUR);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void aDeletionOfAnUnknownDocumentIsForgottenWhenTheRetentionPassesIt() throws Exception {
        send(SampleStoreRecord.deletion("never-seen", T0));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        watermark(T0);
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        watermark(T0 + HOUR);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    @Test
    void storedSamplesAndWaitingCandidatesSurviveSnapshotAndRestore() throws Exception {
        sample(ARTICLE);
        watermark(T0 - 1);
        BandRecord later = doc("later", T0 + 2 * MINUTE, page(300, 0, 9));
        candidate(later, DIGEST, false);
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();
        harness = storeHarness(HarnessFixtures.containmentSettings(64));
        harness.initializeState(snapshot);
        harness.open();
        seen = 0;
        candidate(ARTICLE, DIGEST, true);
        assertThat(only(step()).matches.ids).containsExactly("article");
        sample(later);
        VerdictEvent toLater = only(step());
        assertThat(toLater.docId).isEqualTo("later");
        assertThat(toLater.matches.ids).containsExactly("digest");
    }
}
