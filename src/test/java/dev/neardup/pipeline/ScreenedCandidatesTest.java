package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.lsh.SimHashSketcher;
import dev.neardup.pipeline.buckets.BucketMembers;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.similarity.Verification;
import dev.neardup.sketch.GaussianSimHash;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The buckets' side of the sample store with exact cosine's screen: a candidate pair goes on to the
 * store only when the Gaussian bits of the two documents say its cosine may reach the threshold;
 * exact copies and members without a screen (state from before screens) always go on.
 */
class ScreenedCandidatesTest {

    private static final Verification.CosineExact EXACT = new Verification.CosineExact(64, 3, 256);
    private static final GaussianSimHash BITS =
            new GaussianSimHash(256, GaussianSimHash.DEFAULT_SEED);

    /** Word hashes: {@code shared} of a common text, then {@code own} of the page's own. */
    private static long[] words(int shared, int own, long seed) {
        long[] out = new long[shared + own];
        SplittableRandom common = new SplittableRandom(11);
        for (int i = 0; i < shared; i++) {
            out[i] = common.nextLong(5_000);
        }
        SplittableRandom mine = new SplittableRandom(seed);
        for (int i = shared; i < out.length; i++) {
            out[i] = mine.nextLong();
        }
        return out;
    }

    /** The packed sketch of {@code features}: the term-frequency vector, then the screen. */
    private static byte[] packed(long[] features) {
        long[] tf = SimHashSketcher.termFrequencies(features);
        long[] bits = BITS.fingerprint(features);
        long[] sketch = java.util.Arrays.copyOf(tf, tf.length + bits.length);
        System.arraycopy(bits, 0, sketch, tf.length, bits.length);
        return EXACT.pack(sketch);
    }

    private static BandRecord record(String id, long time, long fingerprint, byte[] screen) {
        BandRecord r = new BandRecord();
        r.bandKey = 1;
        r.band = 0;
        r.docId = id;
        r.eventTime = time;
        r.fingerprint = fingerprint;
        r.signature = screen;
        return r;
    }

    /** What a bucket subtask sends through, kept. */
    private static final class Sent implements CandidatePath.Reports {
        final List<SampleStoreRecord> toIntake = new ArrayList<>();
        int screenedOut;

        @Override
        public VerdictEvent reportFor(BandRecord doc) {
            return VerdictEvent.matches(doc.docId, doc.url, doc.eventTime, doc.band);
        }

        @Override
        public void toVerdicts(VerdictEvent report) {}

        @Override
        public void toSampleIntake(SampleStoreRecord record) {
            toIntake.add(record);
        }

        @Override
        public void screenedOut() {
            screenedOut++;
        }
    }

    @Test
    void onlyCandidatesThatMayReachTheThresholdGoToTheStore() {
        long[] article = words(400, 0, 1);
        long[] edited = article.clone();
        edited[0] = 123_456_789L; // one word of 400 changed: cosine about 0.997
        long[] related = words(250, 150, 3); // shares common words only: cosine about 0.6
        byte[] a = packed(article);
        byte[] e = packed(edited);
        byte[] r = packed(related);
        assertThat(Verification.CosineExact.cosine(a, e)).isGreaterThan(EXACT.threshold());
        assertThat(Verification.CosineExact.cosine(a, r)).isLessThan(0.9);

        Sent sent = new Sent();
        CandidatePath path = CandidatePath.throughSampleStore();
        assertThat(path.signatureBytes(EXACT)).isEqualTo(32);
        CandidatePath.Candidates candidates = path.candidates(EXACT, sent);
        var member = new BucketMembers.Member(1, 10, EXACT.screen(a), "article", null);
        assertThat(candidates.check(record("edited", 2, 20, EXACT.screen(e)), member, true, false))
                .isNull();
        assertThat(candidates.check(record("related", 3, 30, EXACT.screen(r)), member, true, false))
                .isNull();
        // An exact copy (equal identity) is not screened, nor is a member without a screen.
        assertThat(candidates.check(record("copy", 4, 10, EXACT.screen(r)), member, true, true))
                .isNull();
        var older = new BucketMembers.Member(0, 11, new byte[0], "older", null);
        candidates.check(record("late", 5, 50, EXACT.screen(r)), older, true, false);
        candidates.send(List.of());

        assertThat(sent.screenedOut).isEqualTo(1);
        assertThat(sent.toIntake)
                .extracting(x -> x.id)
                .containsExactly("edited", "related", "copy", "late");
        assertThat(sent.toIntake).extracting(x -> x.members).containsExactly(1, 0, 1, 1);
        assertThat(sent.toIntake.get(0).memberIds[0]).isEqualTo("article");
        assertThat(sent.toIntake.get(1).report.forwarded)
                .as("the verdict waits for no result of a screened pair")
                .isZero();
    }
}
