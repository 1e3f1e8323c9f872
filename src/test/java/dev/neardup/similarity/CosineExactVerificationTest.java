package dev.neardup.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.eval.TermVector;
import dev.neardup.lsh.SimHashSketcher;
import dev.neardup.sketch.SimHash;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Exact verification of cosine candidates: the term-frequency vector packed 12 bytes per feature,
 * the same cosine as the evaluation's exact join, the threshold cos(pi k / D), and the limit on the
 * distinct features a packed vector keeps.
 */
class CosineExactVerificationTest {

    private static final Verification.CosineExact EXACT = new Verification.CosineExact(64, 3);

    /** Feature hashes with repeats: {@code n} draws from a skewed vocabulary of {@code words}. */
    private static long[] document(SplittableRandom random, int n, int words) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            double u = random.nextDouble();
            out[i] = SimHashSketcherHash.of((long) (words * u * u * u));
        }
        return out;
    }

    /** Spreads small word numbers over the whole signed range, as feature hashes do. */
    private static final class SimHashSketcherHash {
        static long of(long word) {
            return dev.neardup.sketch.Mix64.fmix64(word * 0x9E3779B97F4A7C15L + 1);
        }
    }

    /** {@code a} with {@code changes} of its features replaced by others. */
    private static long[] edit(SplittableRandom random, long[] a, int changes) {
        long[] b = a.clone();
        for (int i = 0; i < changes; i++) {
            b[random.nextInt(b.length)] = random.nextLong();
        }
        return b;
    }

    @Test
    void theCosineIsTheEvaluationsExactCosine() {
        SplittableRandom random = new SplittableRandom(7);
        for (int t = 0; t < 300; t++) {
            long[] a = document(random, 50 + random.nextInt(3000), 20 + random.nextInt(5000));
            long[] b =
                    random.nextBoolean()
                            ? edit(random, a, random.nextInt(1 + a.length / 10))
                            : document(random, 50 + random.nextInt(3000), 5000);
            double expected =
                    TermVector.cosine(TermVector.termFrequencies(a), TermVector.termFrequencies(b));
            byte[] pa = EXACT.pack(SimHashSketcher.termFrequencies(a));
            byte[] pb = EXACT.pack(SimHashSketcher.termFrequencies(b));
            assertThat(EXACT.estimate(pa, pb).similarity()).isEqualTo(expected);
            assertThat(EXACT.estimate(pb, pa).similarity()).isEqualTo(expected);
            assertThat(EXACT.estimate(pa, pb).direction()).isNull();
            assertThat(EXACT.accepts(expected)).isEqualTo(expected >= SimHash.cosine(3, 64));
        }
    }

    @Test
    void theThresholdIsCosPiKOverDAndThereIsNoHammingDistance() {
        assertThat(EXACT.threshold()).isEqualTo(Math.cos(Math.PI * 3 / 64));
        assertThat(EXACT.accepts(Math.cos(Math.PI * 3 / 64))).isTrue();
        assertThat(EXACT.accepts(Math.nextDown(Math.cos(Math.PI * 3 / 64)))).isFalse();
        assertThat(EXACT.accepts(1.0)).isTrue();
        assertThat(EXACT.hamming(0.995)).isNull();
        assertThat(EXACT.identical().similarity()).isEqualTo(1.0);
        assertThat(new Verification.CosineExact(128, 5).threshold())
                .isEqualTo(SimHash.cosine(5, 128));
        assertThatThrownBy(() -> new Verification.CosineExact(64, 32))
                .hasMessageContaining("between 0 and 31");
    }

    @Test
    void packingRoundTripsAt12BytesPerDistinctFeature() {
        long[] features = {5, -3, 5, 9, 5, -3, Long.MIN_VALUE, Long.MAX_VALUE};
        long[] tf = SimHashSketcher.termFrequencies(features);
        assertThat(tf).containsExactly(Long.MIN_VALUE, 1, -3, 2, 5, 3, 9, 1, Long.MAX_VALUE, 1);
        byte[] packed = EXACT.pack(tf);
        assertThat(packed).hasSize(12 + 12 * 5);
        assertThat(Verification.CosineExact.features(packed)).isEqualTo(5);
        assertThat(Verification.CosineExact.unpack(packed)).containsExactly(tf);
        assertThat(Verification.CosineExact.cosine(packed, packed)).isEqualTo(1.0);
        byte[] empty = EXACT.pack(new long[0]);
        assertThat(empty).hasSize(12);
        assertThat(Verification.CosineExact.cosine(empty, packed)).isZero();
        assertThat(EXACT.packedBytes()).isEqualTo(12 + 12 * Verification.CosineExact.MAX_FEATURES);
    }

    @Test
    void packingRefusesWhatIsNotATermFrequencyVector() {
        assertThatThrownBy(() -> EXACT.pack(new long[] {1, 2, 3}))
                .hasMessageContaining("a count after each feature");
        assertThatThrownBy(() -> EXACT.pack(new long[] {5, 1, 3, 1}))
                .hasMessageContaining("strictly ascending");
        assertThatThrownBy(() -> EXACT.pack(new long[] {5, 0})).hasMessageContaining("count");
    }

    @Test
    void beyondTheLimitTheMostFrequentFeaturesAreKeptAndTheCosineIsALowerBound() {
        Verification.CosineExact limited = new Verification.CosineExact(64, 3, 0, 100);
        SplittableRandom random = new SplittableRandom(11);
        for (int t = 0; t < 50; t++) {
            long[] a = document(random, 3000, 2000);
            long[] b = edit(random, a, random.nextInt(300));
            long[] tfa = SimHashSketcher.termFrequencies(a);
            byte[] pa = limited.pack(tfa);
            byte[] pb = limited.pack(SimHashSketcher.termFrequencies(b));
            assertThat(Verification.CosineExact.features(pa)).isEqualTo(100);
            assertThat(pa).hasSize(12 + 12 * 100);
            // The kept ones are the most frequent, ascending by hash.
            long[] kept = Verification.CosineExact.unpack(pa);
            long[] counts = new long[tfa.length / 2];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = tfa[2 * i + 1];
            }
            Arrays.sort(counts);
            long least = Long.MAX_VALUE;
            for (int i = 0; i < kept.length; i += 2) {
                least = Math.min(least, kept[i + 1]);
                assertThat(i == 0 || kept[i] > kept[i - 2]).isTrue();
            }
            assertThat(least).isEqualTo(counts[counts.length - 100]);
            double exact =
                    TermVector.cosine(TermVector.termFrequencies(a), TermVector.termFrequencies(b));
            assertThat(limited.estimate(pa, pb).similarity()).isLessThanOrEqualTo(exact + 1e-15);
            // Unlimited, the same pair is exact.
            assertThat(
                            EXACT.estimate(
                                            EXACT.pack(tfa),
                                            EXACT.pack(SimHashSketcher.termFrequencies(b)))
                                    .similarity())
                    .isEqualTo(exact);
        }
    }
}
