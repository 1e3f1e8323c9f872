package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.eval.TermVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The Gaussian verification bits: their contract (prefix, order, the empty vector, golden bits) and
 * the angle law P[bit differs] = theta / pi, on generated term-frequency documents and on the
 * vectors dominated by one heavy feature where SimHash's ±1 hyperplanes break it.
 */
class GaussianSimHashTest {

    private static final GaussianSimHash G1024 =
            new GaussianSimHash(1024, GaussianSimHash.DEFAULT_SEED);

    /** A document: {@code heavy} copies of feature 1, then 5 copies of each of {@code light}. */
    private static long[] doc(int heavy, long[] light) {
        long[] out = new long[heavy + 5 * light.length];
        Arrays.fill(out, 0, heavy, 1L);
        for (int i = 0; i < light.length; i++) {
            Arrays.fill(out, heavy + 5 * i, heavy + 5 * (i + 1), light[i]);
        }
        return out;
    }

    private static double angle(long[] a, long[] b) {
        double c = TermVector.cosine(TermVector.termFrequencies(a), TermVector.termFrequencies(b));
        return Math.acos(Math.max(-1, Math.min(1, c)));
    }

    @Test
    void theFirstBitsAreTheShorterFingerprintOfTheSameSeed() {
        long[] features = new SplittableRandom(1).longs(300).toArray();
        long[] long1024 = G1024.fingerprint(features);
        for (int bits : new int[] {64, 256, 448}) {
            long[] shorter =
                    new GaussianSimHash(bits, GaussianSimHash.DEFAULT_SEED).fingerprint(features);
            assertThat(shorter).isEqualTo(Arrays.copyOf(long1024, bits / 64));
        }
        assertThat(new GaussianSimHash(64, 7).fingerprint(features))
                .isNotEqualTo(Arrays.copyOf(long1024, 1));
    }

    @Test
    void termFrequenciesInAnyOrderGiveTheSameBits() {
        SplittableRandom random = new SplittableRandom(2);
        long[] features = new long[500];
        for (int i = 0; i < features.length; i++) {
            features[i] = random.nextInt(120); // repeats: term frequencies up to about 10
        }
        long[] shuffled = features.clone();
        for (int i = shuffled.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = shuffled[i];
            shuffled[i] = shuffled[j];
            shuffled[j] = t;
        }
        assertThat(G1024.fingerprint(shuffled)).isEqualTo(G1024.fingerprint(features));
        long[] other = features.clone();
        other[0] = 1000; // one occurrence moved to a new word
        assertThat(G1024.fingerprint(other)).isNotEqualTo(G1024.fingerprint(features));
    }

    @Test
    void theEmptyVectorIsAllOnesAndTheInputIsNotChanged() {
        assertThat(G1024.fingerprint(new long[0])).containsOnly(-1L);
        long[] features = {5, 3, 5, 1};
        G1024.fingerprint(features);
        assertThat(features).containsExactly(5, 3, 5, 1);
    }

    @Test
    void goldenBitsPinTheStoredContract() {
        long[] bits =
                new GaussianSimHash(128, GaussianSimHash.DEFAULT_SEED)
                        .fingerprint(new long[] {1, 2, 3, 3, 0xDEADBEEFL});
        assertThat(bits).containsExactly(GOLDEN_0, GOLDEN_1);
    }

    private static final long GOLDEN_0 = 0x42162A565F2716F5L;
    private static final long GOLDEN_1 = 0xD6930B017655FA2BL;

    /**
     * A page of 900 words over 400 (repeats weighing their counts, summed in ascending order of the
     * hashes): the bits the code of 2026-11-27 gave, feature by feature.
     */
    @Test
    void goldenBitsOfAPageWithRepeatsPinTheOrderOfTheSums() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(2026);
        long[] words = new long[900];
        for (int i = 0; i < words.length; i++) {
            words[i] = random.nextLong(400) * 0x9E3779B97F4A7C15L;
        }
        assertThat(new GaussianSimHash(256, GaussianSimHash.DEFAULT_SEED).fingerprint(words))
                .containsExactly(
                        0x8419E7861D924B0DL,
                        0x73D281A945E486CDL,
                        0x088F79E45FE63C11L,
                        0xDC8BDD959DF87CAEL);
    }

    /**
     * Two pages whose one word occurs 100 times, each with 40 other words of its own 5 times
     * (cosine 0.909): the heavy word outweighs the others' sum in nearly every ±1 projection (their
     * sum exceeds 100 with probability about 0.001), so SimHash sees nearly equal fingerprints; the
     * Gaussian bits differ in theta / pi of the bits, within 4 standard errors.
     */
    @Test
    void aVectorDominatedByOneFeatureStillFollowsTheAngleLaw() {
        SplittableRandom random = new SplittableRandom(3);
        long[] a = doc(100, random.longs(40).toArray());
        long[] b = doc(100, random.longs(40).toArray());
        double theta = angle(a, b);
        assertThat(Math.cos(theta))
                .isCloseTo(10.0 / 11, org.assertj.core.api.Assertions.within(1e-9));
        double p = theta / Math.PI;
        double se = SimHash.standardError(theta, 1024);

        SimHash plusMinus = new SimHash(1024, SimHash.DEFAULT_SEED);
        double pm = SimHash.hamming(plusMinus.fingerprint(a), plusMinus.fingerprint(b)) / 1024.0;
        double gauss = SimHash.hamming(G1024.fingerprint(a), G1024.fingerprint(b)) / 1024.0;
        assertThat(pm).as("±1 bits, the bias these bits remove").isLessThan(p - 10 * se);
        assertThat(gauss).isCloseTo(p, org.assertj.core.api.Assertions.within(4 * se));
    }

    /**
     * Generated term-frequency documents (shared words with counts that may differ, plus words of
     * their own, some repeated many times): |h / D - theta / pi| within 3 standard errors for all
     * but a few pairs, and the mean error (the bias) within 4 standard errors of 0.
     */
    @Test
    void hammingOverBitsEstimatesTheAngleOverPi() {
        SplittableRandom random = new SplittableRandom(4);
        int pairs = 300;
        int outside = 0;
        double bias = 0;
        double variance = 0;
        for (int n = 0; n < pairs; n++) {
            List<Long> a = new ArrayList<>();
            List<Long> b = new ArrayList<>();
            int words = 20 + random.nextInt(300);
            double keep = random.nextDouble();
            for (int w = 0; w < words; w++) {
                long f = random.nextLong();
                int count =
                        random.nextInt(10) == 0 ? 1 + random.nextInt(80) : 1 + random.nextInt(3);
                for (int c = 0; c < count; c++) {
                    a.add(f);
                }
                if (random.nextDouble() < keep) {
                    int countB = random.nextInt(4) == 0 ? 1 + random.nextInt(5) : count;
                    for (int c = 0; c < countB; c++) {
                        b.add(f);
                    }
                } else {
                    b.add(random.nextLong());
                }
            }
            long[] fa = a.stream().mapToLong(Long::longValue).toArray();
            long[] fb = b.stream().mapToLong(Long::longValue).toArray();
            double theta = angle(fa, fb);
            double p = theta / Math.PI;
            double se = SimHash.standardError(theta, 1024);
            double measured =
                    SimHash.hamming(G1024.fingerprint(fa), G1024.fingerprint(fb)) / 1024.0;
            if (Math.abs(measured - p) > 3 * se) {
                outside++;
            }
            bias += measured - p;
            variance += se * se;
        }
        assertThat(outside).isLessThanOrEqualTo(5); // 0.27% of 300 is 0.8
        assertThat(Math.abs(bias / pairs)).isLessThan(4 * Math.sqrt(variance) / pairs);
    }
}
