package dev.neardup.pipeline;

import static dev.neardup.pipeline.HarnessFixtures.HOUR;
import static dev.neardup.pipeline.HarnessFixtures.RETENTION;
import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.bucketHarness;
import static dev.neardup.pipeline.HarnessFixtures.own;
import static dev.neardup.pipeline.HarnessFixtures.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.io.Alert;
import dev.neardup.sketch.BbitMinHash;
import dev.neardup.sketch.BottomKContainment;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one {@link BandBucketOperator} in containment mode ({@link SimilarityFamily#CONTAINMENT}):
 * members keep bottom-s samples, a candidate is a match when either is contained in the other at
 * the threshold, and the report says which way round, from the later document to the earlier
 * whichever arrives first; exact copies, pruning and state cleanup as in the other modes; a restore
 * of resemblance state in containment mode is refused.
 */
class BandBucketContainmentTest {

    private static final long BUCKET = 7L;
    private static final int S = 64;

    private BucketHarness harness;

    static NearDupSettings containmentSettings(int capacity) {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.SIMILARITY, SimilarityFamily.CONTAINMENT);
        conf.set(NearDupOptions.THRESHOLD, 0.8);
        conf.set(NearDupOptions.CONTAINMENT_SKETCH_SIZE, S);
        conf.set(NearDupOptions.BUCKET_CAPACITY, capacity);
        conf.set(NearDupOptions.RETENTION, RETENTION);
        return NearDupSettings.from(conf);
    }

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
        harness = bucketHarness(settings);
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void aDigestContainingAnEarlierArticleReportsItWithTheDirection() throws Exception {
        open(containmentSettings(64));
        Verification v = containmentSettings(64).verification();
        harness.feed(record("article", T0, page(0, 300, 0, 1)));
        VerdictEvent digest =
                own(harness.feed(record("digest", T0 + 1, page(0, 300, 900, 2))), "digest");
        assertThat(digest.matches.ids).containsExactly("article");
        double estimate = digest.matches.similarities[0];
        assertThat(v.value(estimate)).isEqualTo(1.0);
        assertThat(v.direction(estimate)).isEqualTo(Alert.DUPLICATE_IN_DOC);
        VerdictEvent quote =
                own(harness.feed(record("quote", T0 + 2, page(0, 290, 10, 3))), "quote");
        assertThat(quote.matches.ids).contains("article", "digest");
        for (int i = 0; i < quote.matches.size(); i++) {
            double e = quote.matches.similarities[i];
            if (quote.matches.ids[i].equals("digest")) {
                assertThat(v.direction(e)).isEqualTo(Alert.DOC_IN_DUPLICATE);
            } else {
                assertThat(v.direction(e)).isEqualTo(Alert.MUTUAL);
                assertThat(v.value(e)).isGreaterThanOrEqualTo(0.8);
            }
        }
    }

    @Test
    void theDirectionIsAboutTheLaterDocumentWhicheverArrivesFirst() throws Exception {
        open(containmentSettings(64));
        Verification v = containmentSettings(64).verification();
        harness.feed(record("digest", T0 + 1000, page(0, 300, 900, 2)));
        List<VerdictEvent> step = harness.feed(record("article", T0, page(0, 300, 0, 1)));
        VerdictEvent toDigest = own(step, "digest");
        assertThat(toDigest.matches.ids).containsExactly("article");
        assertThat(v.direction(toDigest.matches.similarities[0])).isEqualTo(Alert.DUPLICATE_IN_DOC);
        assertThat(own(step, "article").matches.ids).isEmpty();
    }

    @Test
    void aPageSharingLittleIsACandidateButNoMatch() throws Exception {
        open(containmentSettings(64));
        harness.feed(record("article", T0, page(0, 300, 0, 1)));
        VerdictEvent other =
                own(harness.feed(record("other", T0 + 1, page(150, 150, 600, 4))), "other");
        assertThat(other.candidates).isEqualTo(1);
        assertThat(other.matches.ids).isEmpty();
    }

    @Test
    void exactCopiesAreKeptOnceAsMutualAtOne() throws Exception {
        open(containmentSettings(64));
        Verification v = containmentSettings(64).verification();
        harness.feed(record("copy-0", T0, page(0, 300, 0, 1)));
        for (int i = 1; i <= 20; i++) {
            VerdictEvent e =
                    own(harness.feed(record("copy-" + i, T0 + i, page(0, 300, 0, 1))), "copy-" + i);
            assertThat(e.candidates).isEqualTo(1);
            assertThat(e.matches.ids).containsExactly("copy-0");
            assertThat(v.direction(e.matches.similarities[0])).isEqualTo(Alert.MUTUAL);
            assertThat(v.value(e.matches.similarities[0])).isEqualTo(1.0);
        }
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void membersOlderThanTheRetentionArePrunedAndTheStateStaysOneEntry() throws Exception {
        open(containmentSettings(64));
        harness.feed(record("a", T0, page(0, 300, 0, 1)));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        harness.processWatermark(new Watermark(T0 + 2 * HOUR));
        VerdictEvent late =
                own(harness.feed(record("b", T0 + 2 * HOUR + 1, page(0, 300, 0, 1))), "b");
        assertThat(late.candidates).as("a was pruned before b was compared").isZero();
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void membersSurviveSnapshotAndRestore() throws Exception {
        open(containmentSettings(64));
        harness.feed(record("article", T0, page(0, 300, 0, 1)));
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();
        harness = bucketHarness(containmentSettings(64));
        harness.initializeState(snapshot);
        harness.open();
        VerdictEvent digest =
                own(harness.feed(record("digest", T0 + 1, page(0, 300, 900, 2))), "digest");
        assertThat(digest.matches.ids).containsExactly("article");
    }

    @Test
    void aRestoreOfResemblanceStateInContainmentModeIsRefusedNamingTheFamily() throws Exception {
        open(settings(64));
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
