package dev.neardup.pipeline.buckets;

import static dev.neardup.pipeline.HarnessFixtures.CONTAINMENT_SKETCH_SIZE;
import static dev.neardup.pipeline.HarnessFixtures.HOUR;
import static dev.neardup.pipeline.HarnessFixtures.RETENTION;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.bucketHarness;
import static dev.neardup.pipeline.HarnessFixtures.containmentSettings;
import static dev.neardup.pipeline.HarnessFixtures.own;
import static dev.neardup.pipeline.HarnessFixtures.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.io.Alert;
import dev.neardup.pipeline.BucketHarness;
import dev.neardup.pipeline.HarnessFixtures;
import dev.neardup.pipeline.StateCompatibility;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.samples.SampleStoreFunction;
import dev.neardup.similarity.Estimate;
import dev.neardup.sketch.BbitMinHash;
import dev.neardup.sketch.BottomKContainment;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one {@link BandBucketOperator} in containment mode ({@link SimilarityFamily#CONTAINMENT})
 * with its {@link SampleStoreFunction} ({@link ContainmentChain}): members keep no sample, the
 * store keeps one per document and verifies the buckets' candidates; a candidate is a match when
 * either is contained in the other at the threshold, and the result says which way round, from the
 * later document to the earlier whichever arrives first; exact copies, pruning and state cleanup as
 * in the other modes; a restore of resemblance state, or of containment state from before the
 * sample store, is refused.
 */
class BandBucketContainmentTest {

    private static final long BUCKET = 7L;
    private static final int S = CONTAINMENT_SKETCH_SIZE;

    private ContainmentChain chain;
    private BucketHarness harness;

    /** Shingle hashes: {@code n} of a fixed article, then {@code extra} of the page's own. */
    private static long[] page(int from, int n, int extra, long seed) {
        long[] out = new long[n + extra];
        SplittableRandom article = new SplittableRandom(1503);
        for (int i = 0; i < from + n; i++) {
            long v = article.nextLong();
            if (i >= from) {
                out[i - from] = v;
            }
        }
        SplittableRandom own = new SplittableRandom(seed);
        for (int i = n; i < out.length; i++) {
            out[i] = own.nextLong();
        }
        return out;
    }

    private static BandRecord record(String docId, long eventTime, long[] shingles) {
        BandRecord r = new BandRecord();
        r.bandKey = BUCKET;
        r.docId = docId;
        r.url = "https://example.org/" + docId;
        r.eventTime = eventTime;
        r.signature = BottomKContainment.pack(BottomKContainment.sample(shingles, S), S);
        r.fingerprint = BbitMinHash.fingerprint(BottomKContainment.sample(shingles, S));
        return r;
    }

    private void open(NearDupSettings settings) throws Exception {
        chain = new ContainmentChain(settings);
    }

    @AfterEach
    void close() throws Exception {
        if (chain != null) {
            chain.close();
        }
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aDigestContainingAnEarlierArticleReportsItWithTheDirection() throws Exception {
        open(containmentSettings(64));
        chain.feed(record("article", T0, page(0, 300, 0, 1)));
        VerdictEvent digest =
                own(chain.feed(record("digest", T0 + 1, page(0, 300, 900, 2))), "digest");
        assertThat(digest.matches.ids).containsExactly("article");
        assertThat(digest.matches.estimate(0))
                .isEqualTo(new Estimate(1.0, Estimate.Direction.SECOND_IN_FIRST));
        assertThat(digest.matches.estimate(0).label()).isEqualTo(Alert.DUPLICATE_IN_DOC);
        VerdictEvent quote = own(chain.feed(record("quote", T0 + 2, page(0, 290, 10, 3))), "quote");
        assertThat(quote.matches.ids).contains("article", "digest");
        for (int i = 0; i < quote.matches.size(); i++) {
            Estimate e = quote.matches.estimate(i);
            if (quote.matches.ids[i].equals("digest")) {
                assertThat(e.direction()).isEqualTo(Estimate.Direction.FIRST_IN_SECOND);
                assertThat(e.label()).isEqualTo(Alert.DOC_IN_DUPLICATE);
            } else {
                assertThat(e.direction()).isEqualTo(Estimate.Direction.MUTUAL);
                assertThat(e.similarity()).isGreaterThanOrEqualTo(0.8);
            }
        }
    }

    @Test
    void theDirectionIsAboutTheLaterDocumentWhicheverArrivesFirst() throws Exception {
        open(containmentSettings(64));
        chain.feed(record("digest", T0 + 1000, page(0, 300, 900, 2)));
        List<VerdictEvent> step = chain.feed(record("article", T0, page(0, 300, 0, 1)));
        VerdictEvent toDigest = own(step, "digest");
        assertThat(toDigest.matches.ids).containsExactly("article");
        assertThat(toDigest.matches.estimate(0).label()).isEqualTo(Alert.DUPLICATE_IN_DOC);
        assertThat(own(step, "article").matches.ids).isEmpty();
    }

    @Test
    void aPageSharingLittleIsACandidateButNoMatch() throws Exception {
        open(containmentSettings(64));
        chain.feed(record("article", T0, page(0, 300, 0, 1)));
        VerdictEvent other =
                own(chain.feed(record("other", T0 + 1, page(150, 150, 600, 4))), "other");
        assertThat(other.candidates).isEqualTo(1);
        assertThat(other.matches.ids).isEmpty();
    }

    @Test
    void exactCopiesAreKeptOnceAsMutualAtOne() throws Exception {
        open(containmentSettings(64));
        chain.feed(record("copy-0", T0, page(0, 300, 0, 1)));
        for (int i = 1; i <= 20; i++) {
            VerdictEvent e =
                    own(chain.feed(record("copy-" + i, T0 + i, page(0, 300, 0, 1))), "copy-" + i);
            assertThat(e.candidates).isEqualTo(1);
            assertThat(e.matches.ids).containsExactly("copy-0");
            assertThat(e.matches.estimate(0))
                    .isEqualTo(new Estimate(1.0, Estimate.Direction.MUTUAL));
        }
        assertThat(chain.buckets.numKeyedStateEntries()).isEqualTo(1);
        assertThat(chain.store.numKeyedStateEntries())
                .as("a copy kept by no bucket has no stored sample")
                .isEqualTo(1);
    }

    @Test
    void membersOlderThanTheRetentionArePrunedAndTheStateStaysOneEntry() throws Exception {
        open(containmentSettings(64));
        chain.feed(record("a", T0, page(0, 300, 0, 1)));
        assertThat(chain.buckets.numKeyedStateEntries()).isEqualTo(1);
        chain.buckets.processWatermark(new Watermark(T0 + 2 * HOUR));
        VerdictEvent late =
                own(chain.feed(record("b", T0 + 2 * HOUR + 1, page(0, 300, 0, 1))), "b");
        assertThat(late.candidates).as("a was pruned before b was compared").isZero();
        assertThat(chain.buckets.numKeyedStateEntries()).isEqualTo(1);
        assertThat(chain.store.numKeyedStateEntries())
                .as("a's sample expired, b's kept")
                .isEqualTo(1);
    }

    @Test
    void membersSurviveSnapshotAndRestore() throws Exception {
        open(containmentSettings(64));
        chain.feed(record("article", T0, page(0, 300, 0, 1)));
        chain.restoreBuckets(chain.buckets.snapshot(1L, 1L));
        VerdictEvent digest =
                own(chain.feed(record("digest", T0 + 1, page(0, 300, 900, 2))), "digest");
        assertThat(digest.matches.ids).containsExactly("article");
    }

    /** {@code r} in another bucket, band {@code band}. */
    private static BandRecord inBucket(BandRecord r, long bucket, int band) {
        BandRecord copy = new BandRecord();
        copy.bandKey = bucket;
        copy.band = band;
        copy.docId = r.docId;
        copy.url = r.url;
        copy.eventTime = r.eventTime;
        copy.fingerprint = r.fingerprint;
        copy.signature = r.signature;
        return copy;
    }

    @Test
    void aPairCollidingInTwoBucketsGoesToTheStoreOnceAndEachSampleOnce() throws Exception {
        open(containmentSettings(64));
        BandRecord article = record("article", T0, page(0, 300, 0, 1));
        chain.feedAll(List.of(article, inBucket(article, 8L, 1)));
        BandRecord digest = record("digest", T0 + 1, page(0, 300, 900, 2));
        VerdictEvent report =
                own(chain.feedAll(List.of(digest, inBucket(digest, 8L, 1))), "digest");
        assertThat(report.reports).isEqualTo(2);
        assertThat(report.candidates).as("compared in each bucket").isEqualTo(2);
        assertThat(report.forwarded).as("verified once").isEqualTo(1);
        assertThat(report.matches.ids).containsExactly("article");
        assertThat(chain.sentToIntake())
                .as("one report per document, its pair once")
                .extracting(r -> r.kind + " " + r.id + " " + r.members + " " + r.kept)
                .containsExactly(
                        SampleStoreRecord.REPORT + " article 0 true",
                        SampleStoreRecord.REPORT + " digest 1 true");
        assertThat(chain.sentToStore())
                .extracting(r -> r.kind + " " + r.id)
                .containsExactly(
                        SampleStoreRecord.SAMPLE + " article",
                        SampleStoreRecord.SAMPLE + " digest",
                        SampleStoreRecord.CANDIDATE + " article");
        SampleStoreRecord pair = chain.sentToStore().get(2);
        assertThat(pair.docId).isEqualTo("digest");
        assertThat(pair.sample)
                .as("the candidate carries the document's sample, from the intake")
                .isEqualTo(digest.signature);
        assertThat(chain.buckets.numKeyedStateEntries()).isEqualTo(2);
        assertThat(chain.store.numKeyedStateEntries()).isEqualTo(2);
    }

    @Test
    void aDeletedMemberIsNoCandidateAndItsSampleGoesWhenTheDeletionPasses() throws Exception {
        open(containmentSettings(64));
        chain.feed(record("article", T0, page(0, 300, 0, 1)));
        chain.delete("article", T0 + 10);
        assertThat(chain.sentToStore())
                .extracting(r -> r.kind)
                .containsExactly(SampleStoreRecord.SAMPLE, SampleStoreRecord.DELETION);
        // A document before the deletion still sees the article.
        VerdictEvent before =
                own(chain.feed(record("before", T0 + 5, page(0, 300, 900, 2))), "before");
        assertThat(before.matches.ids).containsExactly("article");
        VerdictEvent after = own(chain.feed(record("after", T0 + 20, page(0, 300, 0, 3))), "after");
        assertThat(after.candidates).as("the article was deleted before").isEqualTo(1);
        assertThat(after.matches.ids).containsExactly("before");
        assertThat(chain.store.numKeyedStateEntries())
                .as("the article's entry keeps only its deletion's time, until the retention")
                .isEqualTo(3);
        chain.watermark(T0 + 20 + RETENTION.toMillis());
        assertThat(chain.store.numKeyedStateEntries()).isZero();
        assertThat(chain.store.numEventTimeTimers()).isZero();
    }

    @Test
    void containmentStateFromBeforeTheSampleStoreIsRefusedNamingWhatChanged() {
        NearDupSettings now = containmentSettings(64);
        var old = new java.util.LinkedHashMap<>(StateCompatibility.shape(now));
        old.remove(StateCompatibility.CONTAINMENT_SAMPLES);
        assertThatThrownBy(
                        () ->
                                StateCompatibility.check(
                                        List.of(StateCompatibility.encode(old)), now))
                .hasStackTraceContaining(StateCompatibility.INCOMPATIBLE)
                .hasStackTraceContaining("containment.samples was in-buckets, now intake");
        old.put(StateCompatibility.CONTAINMENT_SAMPLES, "store");
        assertThatThrownBy(
                        () ->
                                StateCompatibility.check(
                                        List.of(StateCompatibility.encode(old)), now))
                .as("band records waiting in the buckets carried samples then")
                .hasStackTraceContaining("containment.samples was store, now intake");
        assertThat(
                        StateCompatibility.check(
                                List.of(StateCompatibility.encode(StateCompatibility.shape(now))),
                                now))
                .isEmpty();
    }

    @Test
    void aRestoreOfResemblanceStateInContainmentModeIsRefusedNamingTheFamily() throws Exception {
        harness = bucketHarness(settings(64));
        harness.open();
        harness.feed(HarnessFixtures.inBucket(BUCKET, "a", T0));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();
        harness = bucketHarness(containmentSettings(64));
        BucketHarness restoring = harness;
        assertThatThrownBy(() -> restoring.initializeState(snapshot))
                .hasStackTraceContaining(StateCompatibility.INCOMPATIBLE)
                .hasStackTraceContaining("neardup.similarity was JACCARD, now CONTAINMENT");
        harness = null;
        try {
            restoring.close();
        } catch (Exception ignored) {
            // the harness never opened
        }
    }
}
