package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SimHash}'s contract (Charikar, STOC 2002; seed 002): the bit layout against an independent
 * reading of the javadoc, golden vectors, the term-frequency and weighted forms, and the edge cases
 * (empty vectors, zero, negative and invalid weights, invalid lengths).
 */
class SimHashTest {

    private static final SimHash SIM64 = SimHash.defaults();

    private static long[] randomFeatures(long seed, int n) {
        return new SplittableRandom(seed).longs(n).toArray();
    }

    private static double[] randomWeights(long seed, int n) {
        return new SplittableRandom(seed).doubles(n, -1, 3).toArray();
    }

    /**
     * The javadoc's definition, bit by bit: r_i(f) = +-1 from fmix64(f ^ splitMix64(seed, i/64)).
     */
    private static long[] reference(int bits, long seed, long[] features, double[] weights) {
        long[] out = new long[bits / 64];
        for (int i = 0; i < bits; i++) {
            double projection = 0;
            for (int j = 0; j < features.length; j++) {
                long h = Mix64.fmix64(features[j] ^ Mix64.splitMix64(seed, i / 64));
                projection += ((h >>> (i % 64)) & 1) == 1 ? weights[j] : -weights[j];
            }
            if (projection >= 0) {
                out[i / 64] |= 1L << (i % 64);
            }
        }
        return out;
    }

    @ParameterizedTest(name = "D = {0}")
    @ValueSource(ints = {64, 128, 192, 1024})
    void bitsFollowTheDocumentedHyperplanes(int bits) {
        SimHash simHash = new SimHash(bits, 42);
        for (int trial = 0; trial < 20; trial++) {
            // Weights that are multiples of 1/8, so both summation orders are exact.
            long[] f = randomFeatures(trial, 1 + trial * 7);
            double[] w = new double[f.length];
            SplittableRandom random = new SplittableRandom(100 + trial);
            for (int j = 0; j < w.length; j++) {
                w[j] = (random.nextInt(41) - 10) / 8.0;
            }
            assertThat(simHash.fingerprint(f, w))
                    .as("trial %d", trial)
                    .containsExactly(reference(bits, 42, f, w));
        }
    }

    /**
     * Golden vectors, computed once with this implementation (after {@link
     * #bitsFollowTheDocumentedHyperplanes} checked it against the javadoc's definition) and pinned:
     * fingerprints are stored state, so a change here orphans every stored fingerprint and needs a
     * new state version.
     */
    @Test
    void goldenVectors() {
        long[] three = {1L, 2L, 3L};
        assertThat(SIM64.fingerprint(three)).containsExactly(0xd1ad5670400ec4fbL);
        assertThat(SIM64.fingerprint(new long[] {1L, 1L, 2L})).containsExactly(0xe1a5fe70400ec6feL);
        assertThat(SIM64.fingerprint(three, new double[] {0.5, -2, 1.25}))
                .containsExactly(0x2746e99d1d19534eL);
        assertThat(new SimHash(128, SimHash.DEFAULT_SEED).fingerprint(three))
                .containsExactly(0xd1ad5670400ec4fbL, 0x874c0dff805e7434L);
        assertThat(new SimHash(64, 7).fingerprint(three)).containsExactly(0x05e0245799d01498L);
    }

    @Test
    void longerFingerprintsExtendShorterOnes() {
        long[] f = randomFeatures(1, 200);
        long[] full = new SimHash(1024, 5).fingerprint(f);
        for (int bits = 64; bits < 1024; bits += 64) {
            assertThat(new SimHash(bits, 5).fingerprint(f))
                    .containsExactly(Arrays.copyOf(full, bits / 64));
        }
    }

    @Test
    void seedChangesTheFingerprint() {
        long[] f = randomFeatures(2, 100);
        assertThat(new SimHash(256, 1).fingerprint(f))
                .isNotEqualTo(new SimHash(256, 2).fingerprint(f))
                .isEqualTo(new SimHash(256, 1).fingerprint(f));
    }

    @Test
    void termFrequenciesEqualUnitWeightsAndIgnoreOrder() {
        SplittableRandom random = new SplittableRandom(3);
        long[] vocabulary = randomFeatures(4, 50);
        long[] tokens = new long[400]; // repeats: term frequencies around 8
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = vocabulary[random.nextInt(vocabulary.length)];
        }
        double[] ones = new double[tokens.length];
        Arrays.fill(ones, 1);
        SimHash simHash = new SimHash(256, 9);
        long[] tf = simHash.fingerprint(tokens);
        assertThat(simHash.fingerprint(tokens, ones)).containsExactly(tf);
        long[] shuffled = tokens.clone();
        for (int i = shuffled.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = shuffled[i];
            shuffled[i] = shuffled[j];
            shuffled[j] = t;
        }
        assertThat(simHash.fingerprint(shuffled)).containsExactly(tf);
    }

    @Test
    void repeatedFeaturesAddTheirWeights() {
        long[] f = randomFeatures(5, 30);
        double[] w = new double[30];
        Arrays.fill(w, 1);
        long[] repeated = Arrays.copyOf(f, 31);
        repeated[30] = f[7];
        double[] doubled = w.clone();
        doubled[7] = 2;
        assertThat(SIM64.fingerprint(repeated)).containsExactly(SIM64.fingerprint(f, doubled));
    }

    @Test
    void zeroWeightsAreAbsentFeaturesAndScalingKeepsTheFingerprint() {
        long[] f = randomFeatures(6, 60);
        double[] w = randomWeights(7, 60);
        long[] fp = SIM64.fingerprint(f, w);
        long[] withZeros = Arrays.copyOf(f, 70);
        double[] zeroWeights = Arrays.copyOf(w, 70);
        for (int j = 60; j < 70; j++) {
            withZeros[j] = 1000 + j;
            zeroWeights[j] = j % 2 == 0 ? 0.0 : -0.0;
        }
        assertThat(SIM64.fingerprint(withZeros, zeroWeights)).containsExactly(fp);
        double[] scaled = w.clone();
        for (int j = 0; j < scaled.length; j++) {
            scaled[j] *= 4; // a power of two: every sum scales exactly
        }
        assertThat(SIM64.fingerprint(f, scaled)).containsExactly(fp);
    }

    @Test
    void negatedVectorHasTheComplementFingerprint() {
        long[] f = randomFeatures(8, 80);
        double[] w = randomWeights(9, 80);
        double[] negated = new double[w.length];
        for (int j = 0; j < w.length; j++) {
            negated[j] = -w[j];
        }
        SimHash simHash = new SimHash(512, 3);
        long[] a = simHash.fingerprint(f, w);
        long[] b = simHash.fingerprint(f, negated);
        // Opposite vectors: theta = pi, every hyperplane separates them (no projection is exactly
        // 0 with these random weights).
        assertThat(SimHash.hamming(a, b)).isEqualTo(512);
        assertThat(SimHash.estimateCosine(a, b)).isEqualTo(-1.0);
        assertThat(SimHash.angle(SimHash.hamming(a, b), 512)).isEqualTo(Math.PI);
    }

    @Test
    void theZeroVectorHasTheAllOnesFingerprint() {
        long[] allOnes = new long[4];
        Arrays.fill(allOnes, -1L);
        SimHash simHash = new SimHash(256, 1);
        assertThat(simHash.fingerprint(new long[0])).containsExactly(allOnes);
        assertThat(simHash.fingerprint(new long[0], new double[0])).containsExactly(allOnes);
        assertThat(simHash.fingerprint(new long[] {5, 6}, new double[] {0, 0}))
                .containsExactly(allOnes);
        // The same vector with itself: distance 0, cosine 1.
        assertThat(SimHash.estimateCosine(allOnes, allOnes)).isEqualTo(1.0);
    }

    @Test
    void invalidWeightsAndLengthsAreRejected() {
        long[] f = {1, 2, 3};
        for (double bad :
                new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> SIM64.fingerprint(f, new double[] {1, bad, 1}))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("weight of feature 1 must be a finite number");
        }
        assertThatThrownBy(
                        () ->
                                SIM64.fingerprint(
                                        f, new double[] {Double.MAX_VALUE, Double.MAX_VALUE, 1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overflows");
        assertThatThrownBy(() -> SIM64.fingerprint(f, new double[2]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("differ in length: 3 and 2");
        assertThatThrownBy(() -> SimHash.hamming(new long[1], new long[2]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("64 and 128 bits");
    }

    @ParameterizedTest(name = "bits = {0}")
    @ValueSource(ints = {-64, 0, 1, 32, 63, 65, 100, 1000, 1088, 2048})
    void bitsNotAMultipleOf64UpTo1024AreRejected(int bits) {
        assertThatThrownBy(() -> new SimHash(bits, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "SimHash bits must be a multiple of 64 from 64 to 1024 (64, 128, 192,"
                                + " ...), got "
                                + bits);
    }

    @Test
    void angleAndCosineFromHamming() {
        assertThat(SimHash.angle(0, 64)).isZero();
        assertThat(SimHash.cosine(0, 64)).isEqualTo(1.0);
        assertThat(SimHash.cosine(32, 64)).isCloseTo(0.0, within(1e-15));
        assertThat(SimHash.cosine(64, 64)).isEqualTo(-1.0);
        assertThat(SimHash.angle(3, 64)).isEqualTo(Math.PI * 3 / 64);
        assertThatThrownBy(() -> SimHash.angle(65, 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 0 and 64");
        assertThat(SimHash.standardError(Math.PI / 2, 64)).isEqualTo(Math.sqrt(0.25 / 64));
        assertThat(SimHash.standardError(0, 64)).isZero();
    }

    @ParameterizedTest(name = "D = {0}")
    @ValueSource(ints = {64, 256, 1024})
    void maxHammingIsTheLargestDistanceReachingTheCosine(int bits) {
        for (double c = -1; c <= 1.0; c += 0.0625) {
            int k = SimHash.maxHamming(c, bits);
            assertThat(SimHash.cosine(k, bits)).as("c = %s", c).isGreaterThanOrEqualTo(c);
            if (k < bits) {
                assertThat(SimHash.cosine(k + 1, bits)).as("c = %s", c).isLessThan(c);
            }
        }
        assertThat(SimHash.maxHamming(1.0, bits)).isZero();
        assertThat(SimHash.maxHamming(-1.0, bits)).isEqualTo(bits);
        assertThatThrownBy(() -> SimHash.maxHamming(1.5, bits))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * The documented limit of +-1 hyperplanes: for u = e_1 and v = (cos theta, sin theta) with
     * theta &lt; pi / 4, r . v has the sign of r_1 whatever r_2 is, so no bit ever differs although
     * theta / pi = 0.125 at theta = pi / 8. The angle law needs many features (see
     * SimHashAccuracyTest).
     */
    @Test
    void twoFeatureVectorsDoNotFollowTheAngleLaw() {
        long[] f = {11, 12};
        double theta = Math.PI / 8;
        SimHash simHash = new SimHash(1024, 1);
        long[] a = simHash.fingerprint(f, new double[] {1, 0});
        long[] b = simHash.fingerprint(f, new double[] {Math.cos(theta), Math.sin(theta)});
        assertThat(SimHash.hamming(a, b)).isZero();
    }

    /** withinProbability is the binomial tail P[Bin(D, theta / pi) <= k], summed directly. */
    @Test
    void withinProbabilityIsTheBinomialTail() {
        for (int bits : new int[] {64, 256, 1024}) {
            for (int k : new int[] {0, 3, 12}) {
                for (double angle : new double[] {0.01, 0.1, 0.3, 1.0}) {
                    double p = angle / Math.PI;
                    double sum = 0;
                    double term = Math.pow(1 - p, bits); // C(D, 0) p^0 (1 - p)^D
                    for (int h = 0; h <= k; h++) {
                        sum += term;
                        term *= (double) (bits - h) / (h + 1) * p / (1 - p);
                    }
                    assertThat(SimHash.withinProbability(angle, bits, k))
                            .as("D = %d, k = %d, theta = %s", bits, k, angle)
                            .isCloseTo(sum, within(1e-12));
                }
            }
        }
        assertThat(SimHash.withinProbability(0, 64, 0)).isEqualTo(1.0);
        assertThat(SimHash.withinProbability(Math.PI, 64, 3)).isEqualTo(0.0);
    }

    @Test
    void theScreenDistanceIsTheSmallestThatKeepsAPairAtTheCosineButForTheMiss() {
        double threshold = SimHash.cosine(3, 64);
        double angle = Math.acos(threshold);
        int h = SimHash.screenMaxHamming(threshold, 256, 1e-6);
        assertThat(h).isEqualTo(31);
        assertThat(SimHash.withinProbability(angle, 256, h)).isGreaterThanOrEqualTo(1 - 1e-6);
        assertThat(SimHash.withinProbability(angle, 256, h - 1)).isLessThan(1 - 1e-6);
        // A looser miss, a smaller distance; pairs far below the threshold almost never pass.
        assertThat(SimHash.screenMaxHamming(threshold, 256, 1e-3)).isLessThan(h);
        assertThat(SimHash.withinProbability(Math.acos(0.7), 256, h)).isLessThan(1e-6);
    }
}
