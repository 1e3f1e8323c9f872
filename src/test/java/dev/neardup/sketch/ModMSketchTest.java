package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neardup.testing.KnownOverlapPairs;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seed 003's MOD_m sketch (Broder 1997): the definition, merging and coarsening, the byte form,
 * golden vectors, and the containment estimator against exact containment over many generated
 * pairs, including short articles inside long digests: unbiased, with the conditional
 * hypergeometric variance, and within Hoeffding's bound as often as it promises.
 */
class ModMSketchTest {

    private static final HexFormat HEX = HexFormat.of();

    /** π(x) written out from the contract, independently of the sketch's code. */
    private static long pi(long x, long seed) {
        return Mix64.fmix64(x ^ Mix64.splitMix64(seed, 0));
    }

    @Property(tries = 300, seed = "3003")
    void holdsThePermutedValuesThatAreZeroModM(
            @ForAll @Size(max = 400) long[] hashes,
            @ForAll @IntRange(min = 1, max = 40) int m,
            @ForAll long seed) {
        TreeSet<Long> kept = new TreeSet<>(Long::compareUnsigned);
        for (long x : hashes) {
            long v = pi(x, seed);
            if (Long.remainderUnsigned(v, m) == 0) {
                kept.add(v);
            }
        }
        ModMSketch sketch = ModMSketch.of(hashes, m, seed);
        assertThat(sketch.values())
                .containsExactly(kept.stream().mapToLong(Long::longValue).toArray());
        long[] reversed = hashes.clone();
        for (int i = 0; i < reversed.length / 2; i++) {
            long t = reversed[i];
            reversed[i] = reversed[reversed.length - 1 - i];
            reversed[reversed.length - 1 - i] = t;
        }
        assertThat(ModMSketch.of(reversed, m, seed)).isEqualTo(sketch);
    }

    @Property(tries = 300, seed = "3003")
    void mergeIsTheSketchOfTheUnionAndCoarseningTheSketchAtTheCoarserModulus(
            @ForAll @Size(max = 300) long[] left,
            @ForAll @Size(max = 300) long[] right,
            @ForAll @IntRange(min = 1, max = 6) int m,
            @ForAll @IntRange(min = 1, max = 4) int factor) {
        ModMSketch va = ModMSketch.of(left, m, 9);
        ModMSketch vb = ModMSketch.of(right, m, 9);
        long[] both = Arrays.copyOf(left, left.length + right.length);
        System.arraycopy(right, 0, both, left.length, right.length);

        assertThat(va.merge(vb)).isEqualTo(ModMSketch.of(both, m, 9));
        assertThat(vb.merge(va)).isEqualTo(va.merge(vb));
        assertThat(va.withModulus((long) m * factor))
                .isEqualTo(ModMSketch.of(left, (long) m * factor, 9));
    }

    @Property(tries = 300, seed = "3003")
    void bytesRoundTrip(
            @ForAll @Size(max = 500) long[] hashes,
            @ForAll @IntRange(min = 1, max = 64) int m,
            @ForAll long seed) {
        ModMSketch sketch = ModMSketch.of(hashes, m, seed);
        byte[] bytes = sketch.toBytes();
        assertThat(ModMSketch.fromBytes(bytes)).isEqualTo(sketch);
        assertThat(bytes.length).isLessThanOrEqualTo(9 + 1 + 2 + 10 * sketch.count());
    }

    @Test
    void deltasAreStoredDividedByM() {
        // 2^17 values at m = 1024: the 128 or so kept values are 2^54 apart, 2^44 after dividing
        // by m, so they take 7 bytes each instead of 8.
        long[] hashes = new SplittableRandom(6).longs(1 << 17).toArray();
        ModMSketch sketch = ModMSketch.of(hashes, 1024);
        assertThat(sketch.count()).isBetween(80, 180);
        assertThat(sketch.toBytes().length).isLessThanOrEqualTo(9 + 2 + 2 + 7 * sketch.count());
        assertThat(ModMSketch.fromBytes(sketch.toBytes())).isEqualTo(sketch);
    }

    @Test
    void goldenVectors() {
        long[] oneToThousand = new long[1000];
        for (int i = 0; i < 1000; i++) {
            oneToThousand[i] = i + 1;
        }
        ModMSketch sketch = ModMSketch.of(oneToThousand, 64);
        assertThat(sketch.values())
                .containsExactly(
                        0x21512c6414bcd580L,
                        0x3324e5e3b1910800L,
                        0x76250a1f96b80780L,
                        0xab78412324e0ce40L,
                        0xacb06a697ca09c40L,
                        0xc298d17b7f31af80L,
                        0xe1797c3467106dc0L,
                        0xf327cd583c536f80L);
        assertThat(HEX.formatHex(sketch.toBytes()))
                .isEqualTo(
                        "0237397265646f72624008d6e6cb829996d142caa1cdf3dfdcd323feb7d2fc8e92808601"
                                + "9bc6e2f1c09bd36ab8fefbcad194b802cd88a9c0c4b3e82bf9f5fd9caed5e0"
                                + "3d8798d4fac8a8ae23");
        // MIN_s and MOD_m share π: the MOD_64 values are among the permuted values of MIN_1000.
        assertThat(MinSSketch.of(oneToThousand, 1000).values()).contains(sketch.values());
    }

    @Test
    void moduloOneIsTheWholeSetAndExact() {
        KnownOverlapPairs pairs = new KnownOverlapPairs(12);
        for (int i = 0; i < 20; i++) {
            KnownOverlapPairs.Pair pair = pairs.next(5 * i, 100, 3 * i);
            ModMSketch a = ModMSketch.of(pair.a(), 1);
            ModMSketch b = ModMSketch.of(pair.b(), 1);
            ShingleSet sa = ShingleSet.of(pair.a());
            ShingleSet sb = ShingleSet.of(pair.b());
            assertThat(a.count()).isEqualTo(sa.size());
            SampleEstimate c = ModMSketch.containment(a, b);
            assertThat(c.exhaustive()).isTrue();
            assertThat(c.errorBound(0.01)).isZero();
            assertThat(c.value()).isEqualTo(Similarity.containment(sa, sb));
            assertThat(ModMSketch.containment(b, a).value())
                    .isEqualTo(Similarity.containment(sb, sa));
            assertThat(ModMSketch.resemblance(a, b).value()).isEqualTo(Similarity.jaccard(sa, sb));
        }
        ModMSketch empty = ModMSketch.of(new long[0], 1);
        ModMSketch some = ModMSketch.of(new long[] {1, 2}, 1);
        assertThat(ModMSketch.containment(empty, some).value()).isEqualTo(1.0);
        assertThat(ModMSketch.containment(some, empty).value()).isZero();
        assertThat(ModMSketch.resemblance(empty, empty).value()).isEqualTo(1.0);
    }

    @Test
    void anEmptySampleIsNoEstimateAboveModuloOne() {
        ModMSketch empty = ModMSketch.of(new long[0], 8);
        ModMSketch some = ModMSketch.of(new SplittableRandom(1).longs(200).toArray(), 8);
        SampleEstimate c = ModMSketch.containment(empty, some);
        assertThat(c.value()).isNaN();
        assertThat(c.sampleSize()).isZero();
        assertThat(c.standardError()).isNaN();
        assertThat(ModMSketch.resemblance(empty, empty).value()).isNaN();
        assertThat(ModMSketch.resemblance(empty, some).value()).isZero();
    }

    @Test
    void aContainedDocumentIsEstimatedFullyContained() {
        // V(A) ⊆ V(B) when A ⊆ B, so the estimate is exactly 1 however small the sample.
        KnownOverlapPairs pairs = new KnownOverlapPairs(13);
        for (int i = 0; i < 200; i++) {
            KnownOverlapPairs.Pair pair = pairs.next(0, 300, 20_000);
            SampleEstimate c =
                    ModMSketch.containment(
                            ModMSketch.of(pair.a(), 16), ModMSketch.of(pair.b(), 16));
            if (c.sampleSize() > 0) {
                assertThat(c.value()).isEqualTo(1.0);
            }
        }
    }

    static Stream<Arguments> cases() {
        // |A \ B|, |A ∩ B|, |B \ A|, m: equal sizes, and short articles (300 and 1,000
        // shingles, 50% to 90% contained) in long digests (20,000 shingles).
        return Stream.of(
                Arguments.of(1000, 1000, 1000, 16),
                Arguments.of(400, 3600, 400, 32),
                Arguments.of(30, 270, 19_730, 4),
                Arguments.of(150, 150, 19_850, 4),
                Arguments.of(100, 900, 19_100, 8),
                Arguments.of(30, 270, 19_730, 1));
    }

    @ParameterizedTest(name = "|A-B| = {0}, |A&B| = {1}, |B-A| = {2}, m = {3}")
    @MethodSource("cases")
    void containmentIsUnbiasedWithTheHypergeometricErrorAndWithinItsBound(
            int onlyA, int common, int onlyB, int m) {
        int trials = 1500;
        double delta = 0.05;
        KnownOverlapPairs pairs = new KnownOverlapPairs(onlyA * 31L + common * 7L + onlyB + m);
        double sumError = 0;
        double sumSquaredError = 0;
        double sumPredictedVariance = 0;
        int outside = 0;
        int estimates = 0;
        double c = 0;
        for (int t = 0; t < trials; t++) {
            KnownOverlapPairs.Pair pair = pairs.next(onlyA, common, onlyB);
            c = pair.containment();
            if (t == 0) {
                assertThat(c)
                        .isEqualTo(
                                Similarity.containment(
                                        ShingleSet.of(pair.a()), ShingleSet.of(pair.b())));
            }
            SampleEstimate e =
                    ModMSketch.containment(ModMSketch.of(pair.a(), m), ModMSketch.of(pair.b(), m));
            int k = e.sampleSize();
            assertThat(k)
                    .as("a sample of A (|A| / m = %d expected)", pair.a().length / m)
                    .isPositive();
            estimates++;
            double error = e.value() - c;
            sumError += error;
            sumSquaredError += error * error;
            double se = SampleEstimate.standardError(c, k, pair.a().length);
            sumPredictedVariance += se * se;
            if (Math.abs(error) > e.errorBound(delta)) {
                outside++;
            }
        }
        double predicted = Math.sqrt(sumPredictedVariance / estimates);
        double rmse = Math.sqrt(sumSquaredError / estimates);
        double bias = sumError / estimates;

        if (m == 1) {
            assertThat(rmse).isZero();
        } else {
            assertThat(rmse)
                    .as("RMSE at c = %.3f, m = %d (predicted %.4f)", c, m, predicted)
                    .isCloseTo(predicted, within(0.1 * predicted));
        }
        // Unbiased: the mean error is within 4 standard errors of the mean of 0.
        assertThat(Math.abs(bias))
                .as("mean error at c = %.3f, m = %d", c, m)
                .isLessThanOrEqualTo(4 * predicted / Math.sqrt(estimates));
        assertThat((double) outside / estimates)
                .as("failure rate at Hoeffding's bound")
                .isLessThanOrEqualTo(delta + 3 * Math.sqrt(delta * (1 - delta) / estimates));
    }

    @Test
    void resemblanceIsUnbiasedWithTheHypergeometricError() {
        int trials = 1500;
        int m = 16;
        KnownOverlapPairs pairs = new KnownOverlapPairs(14);
        double sumError = 0;
        double sumSquaredError = 0;
        double sumPredictedVariance = 0;
        double r = 0;
        for (int t = 0; t < trials; t++) {
            KnownOverlapPairs.Pair pair = pairs.next(800, 2400, 800);
            r = pair.resemblance();
            SampleEstimate e =
                    ModMSketch.resemblance(ModMSketch.of(pair.a(), m), ModMSketch.of(pair.b(), m));
            double error = e.value() - r;
            sumError += error;
            sumSquaredError += error * error;
            double se = SampleEstimate.standardError(r, e.sampleSize(), pair.unionSize());
            sumPredictedVariance += se * se;
        }
        double predicted = Math.sqrt(sumPredictedVariance / trials);
        assertThat(Math.sqrt(sumSquaredError / trials))
                .isCloseTo(predicted, within(0.1 * predicted));
        assertThat(Math.abs(sumError / trials)).isLessThan(4 * predicted / Math.sqrt(trials));
    }

    @Test
    void aShortArticleAtTheDigestsModulusIsOftenNotSampledAtAll() {
        // Seed 003's caveat: at the m that keeps a 20,000-shingle digest near 50 to 100 values
        // (m = 256), a 300-shingle article keeps no value with probability (1 - 1/m)^300.
        long m = ModMSketch.suggestModulus(20_300, 50);
        assertThat(m).isEqualTo(256);
        int trials = 2000;
        int unsampled = 0;
        KnownOverlapPairs pairs = new KnownOverlapPairs(15);
        for (int t = 0; t < trials; t++) {
            KnownOverlapPairs.Pair pair = pairs.next(0, 300, 20_000);
            ModMSketch digest = ModMSketch.of(pair.b(), m);
            assertThat(digest.count()).isBetween(30, 130);
            if (ModMSketch.of(pair.a(), m).isEmpty()) {
                unsampled++;
            }
        }
        double expected = Math.pow(1 - 1.0 / m, 300);
        double sigma = Math.sqrt(expected * (1 - expected) / trials);
        assertThat((double) unsampled / trials).isCloseTo(expected, within(4 * sigma));
    }

    @Test
    void suggestedModulusKeepsTheSketchBetweenTargetAndTwiceTarget() {
        assertThat(ModMSketch.suggestModulus(0, 50)).isEqualTo(1);
        assertThat(ModMSketch.suggestModulus(99, 50)).isEqualTo(1);
        assertThat(ModMSketch.suggestModulus(100, 50)).isEqualTo(2);
        assertThat(ModMSketch.suggestModulus(6400, 50)).isEqualTo(128);
        assertThat(ModMSketch.suggestModulus(6399, 50)).isEqualTo(64);
        for (long n = 50; n < 1_000_000; n = n * 3 + 1) {
            long m = ModMSketch.suggestModulus(n, 50);
            assertThat(Long.bitCount(m)).isEqualTo(1);
            assertThat((double) n / m).as("n = %d", n).isBetween(50.0, 100.0);
        }
        assertThat(ModMSketch.suggestModulus(Long.MAX_VALUE, 1)).isEqualTo(1L << 62);
    }

    @Test
    void rejectsBadParametersWithClearMessages() {
        long[] hashes = {1, 2, 3};
        assertThatThrownBy(() -> ModMSketch.of(hashes, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("MOD_m modulus m must be at least 1, got 0");
        assertThatThrownBy(() -> ModMSketch.of(hashes, -4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1, got -4");
        ModMSketch a = ModMSketch.of(hashes, 4, 1);
        assertThatThrownBy(() -> ModMSketch.containment(a, ModMSketch.of(hashes, 8, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("m = 4, seed = 1 and m = 8, seed = 1")
                .hasMessageContaining("withModulus");
        assertThatThrownBy(() -> ModMSketch.resemblance(a, ModMSketch.of(hashes, 4, 2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("m = 4, seed = 1 and m = 4, seed = 2")
                .hasMessageContaining("same seed");
        assertThatThrownBy(() -> a.merge(ModMSketch.of(hashes, 4, 2)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> a.withModulus(6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "a MOD_m sketch with m = 4 can only be coarsened to a multiple of 4, got"
                                + " 6");
        assertThatThrownBy(() -> ModMSketch.suggestModulus(100, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("target");
        assertThatThrownBy(() -> SampleEstimate.errorBound(10, 1.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delta");
        assertThatThrownBy(() -> SampleEstimate.standardError(0.5, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sample size");
    }

    @Test
    void rejectsMalformedBytes() {
        assertThatThrownBy(() -> ModMSketch.fromBytes(MinSSketch.of(new long[] {1}, 4).toBytes()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("malformed MOD_m sketch bytes: starts with kind byte 1, expected 2");
        byte[] zeroM = {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assertThatThrownBy(() -> ModMSketch.fromBytes(zeroM))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("modulus m = 0");
        // m = 2^62, first value 4 * m overflows 2^64.
        byte[] overflow = {
            2, 0, 0, 0, 0, 0, 0, 0, 0, -128, -128, -128, -128, -128, -128, -128, -128, 64, 1, 4
        };
        assertThatThrownBy(() -> ModMSketch.fromBytes(overflow))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("beyond 2^64");
        byte[] huge = {2, 0, 0, 0, 0, 0, 0, 0, 0, 1, -1, -1, -1, -1, 7};
        assertThatThrownBy(() -> ModMSketch.fromBytes(huge))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("values in 0 bytes");
    }

    @Test
    void standardErrorHelpersFollowTheFormulas() {
        assertThat(SampleEstimate.standardError(0.5, 100)).isCloseTo(0.05, within(1e-12));
        // Finite-population correction (N - k) / (N - 1): the whole population has no error.
        assertThat(SampleEstimate.standardError(0.5, 100, 100)).isZero();
        assertThat(SampleEstimate.standardError(0.5, 100, 199))
                .isCloseTo(0.05 * Math.sqrt(99.0 / 198), within(1e-12));
        assertThat(SampleEstimate.errorBound(200, 0.05))
                .isCloseTo(Math.sqrt(Math.log(40) / 400), within(1e-12));
        SampleEstimate e = new SampleEstimate(0.25, 25, 100, false);
        assertThat(e.standardError()).isCloseTo(Math.sqrt(0.25 * 0.75 / 100), within(1e-12));
        assertThatThrownBy(() -> new SampleEstimate(0.5, 5, 4, false))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
