package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link KorSketch} (Kushilevitz, Ostrovsky and Rabani 2000; seed 004): Lemma 3.2's agreement
 * probability, the decision's error rate against the Hoeffding bound delta it is sized for, the
 * distance estimate against its delta-method standard error, and the GF(2) linearity that makes the
 * dense and sparse forms agree. Vectors are generated with fixed seeds; every trial uses fresh
 * shared randomness (a new sketch seed), as the bound is over that randomness.
 */
class KorSketchTest {

    /**
     * A set of {@code size} random positions and one at symmetric difference exactly {@code hd}.
     */
    private static long[][] pairAtDistance(SplittableRandom r, int size, int hd) {
        Set<Long> seen = new HashSet<>();
        long[] x = new long[size];
        for (int i = 0; i < size; i++) {
            do {
                x[i] = r.nextLong();
            } while (!seen.add(x[i]));
        }
        // Remove `removed` of x's positions and add hd - removed new ones.
        int removed = Math.min(size, r.nextInt(hd + 1));
        long[] y = new long[size - removed + hd - removed];
        System.arraycopy(x, removed, y, 0, size - removed);
        for (int i = size - removed; i < y.length; i++) {
            do {
                y[i] = r.nextLong();
            } while (!seen.add(y[i]));
        }
        return new long[][] {x, y};
    }

    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {2, 5, 20})
    void agreementRateFollowsLemma32(int k) {
        int t = 20_000;
        KorSketch kor = new KorSketch(k, t, 7);
        SplittableRandom r = new SplittableRandom(k);
        for (int hd : new int[] {0, 1, k, 2 * k, 4 * k}) {
            long[][] pair = pairAtDistance(r, 60, hd);
            int agree =
                    kor.agreements(kor.sketchOfPositions(pair[0]), kor.sketchOfPositions(pair[1]));
            double p = kor.agreementProbability(hd);
            double sd = Math.sqrt(p * (1 - p) / t);
            assertThat((double) agree / t)
                    .as("k = %d, HD = %d", k, hd)
                    .isCloseTo(p, within(4 * sd + 1e-12));
        }
    }

    /**
     * The seed's guarantee: at HD &lt;= k accept, at HD &gt;= 2k reject, each wrong with
     * probability at most delta. Over N trials the number of errors is at most Binomial(N, delta);
     * the test allows its mean plus 3 standard deviations. Hoeffding is loose, so the measured rate
     * is far below delta (printed).
     */
    @ParameterizedTest(name = "k = {0}")
    @ValueSource(ints = {2, 4, 10, 50})
    void decisionErrorStaysWithinDelta(int k) {
        double delta = 0.05;
        int t = KorSketch.sketchBits(k, delta);
        int trials = 300;
        SplittableRandom r = new SplittableRandom(1000 + k);
        int[] distances = {0, k / 2, k, 2 * k, 3 * k};
        int[] errors = new int[distances.length];
        for (int trial = 0; trial < trials; trial++) {
            KorSketch kor = new KorSketch(k, t, r.nextLong());
            for (int d = 0; d < distances.length; d++) {
                long[][] pair = pairAtDistance(r, 40, distances[d]);
                boolean accept =
                        kor.accept(kor.sketchOfPositions(pair[0]), kor.sketchOfPositions(pair[1]));
                boolean shouldAccept = distances[d] <= k;
                if (accept != shouldAccept) {
                    errors[d]++;
                }
            }
        }
        double allowed = trials * delta + 3 * Math.sqrt(trials * delta * (1 - delta));
        System.out.printf(
                "KOR k=%d t=%d: errors at HD %s = %s of %d (allowed %.1f each)%n",
                k, t, Arrays.toString(distances), Arrays.toString(errors), trials, allowed);
        for (int d = 0; d < distances.length; d++) {
            assertThat((double) errors[d]).as("HD = %d", distances[d]).isLessThanOrEqualTo(allowed);
        }
    }

    /**
     * The estimate HD^ is within 3 delta-method standard errors of HD in all but a few trials (a
     * normal tail of 0.27%, doubled for the approximation; the allowed count adds 3 binomial
     * standard deviations), and its mean is within 4 standard errors of the mean of HD.
     */
    @ParameterizedTest(name = "HD = {0}")
    @ValueSource(ints = {0, 2, 8, 16})
    void estimateIsWithinItsStandardError(int hd) {
        int k = 8;
        int t = 4096;
        int trials = 200;
        SplittableRandom r = new SplittableRandom(hd);
        double se = new KorSketch(k, t, 0).standardError(hd);
        int outside = 0;
        double sum = 0;
        for (int trial = 0; trial < trials; trial++) {
            KorSketch kor = new KorSketch(k, t, r.nextLong());
            long[][] pair = pairAtDistance(r, 30, hd);
            double estimate =
                    kor.estimateHamming(
                            kor.sketchOfPositions(pair[0]), kor.sketchOfPositions(pair[1]));
            sum += estimate;
            if (Math.abs(estimate - hd) > 3 * se + 1e-9) {
                outside++;
            }
        }
        double rate = 2 * 0.0027;
        System.out.printf(
                "KOR estimate k=%d t=%d HD=%d: se %.3f, mean %.3f, %d of %d beyond 3 se%n",
                k, t, hd, se, sum / trials, outside, trials);
        assertThat((double) outside)
                .isLessThanOrEqualTo(trials * rate + 3 * Math.sqrt(trials * rate) + 1);
        assertThat(sum / trials).isCloseTo(hd, within(4 * se / Math.sqrt(trials) + 0.05 * se));
    }

    @Test
    void sketchIsLinearOverGf2AndDenseEqualsSparse() {
        KorSketch kor = new KorSketch(3, 200, 11);
        SplittableRandom r = new SplittableRandom(12);
        long[] x = r.longs(4).toArray(); // a 256-bit vector
        long[] y = r.longs(4).toArray();
        long[] xor = new long[4];
        for (int i = 0; i < 4; i++) {
            xor[i] = x[i] ^ y[i];
        }
        long[] sx = kor.sketch(x);
        long[] sy = kor.sketch(y);
        long[] sxor = kor.sketch(xor);
        for (int w = 0; w < sx.length; w++) {
            assertThat(sx[w] ^ sy[w]).isEqualTo(sxor[w]);
        }
        long[] positions =
                new long
                        [Long.bitCount(x[0])
                                + Long.bitCount(x[1])
                                + Long.bitCount(x[2])
                                + Long.bitCount(x[3])];
        int n = 0;
        for (int i = 0; i < 256; i++) {
            if ((x[i / 64] >>> (i % 64) & 1) == 1) {
                positions[n++] = i;
            }
        }
        assertThat(kor.sketchOfPositions(positions)).containsExactly(sx);
        // A repeated position cancels; the empty vector has the all-zero sketch.
        long[] twice = {5, 9, 5};
        assertThat(kor.sketchOfPositions(twice))
                .containsExactly(kor.sketchOfPositions(new long[] {9}));
        assertThat(kor.sketch(new long[4])).containsOnly(0L).hasSize(4);
        // Unused high bits of the last word stay 0 (200 = 3 * 64 + 8).
        assertThat(kor.sketchOfPositions(r.longs(500).toArray())[3] >>> 8).isZero();
        // Equal inputs: all bits agree, estimate 0, accepted.
        assertThat(kor.agreements(sx, sx)).isEqualTo(200);
        assertThat(kor.estimateHamming(sx, sx)).isZero();
        assertThat(kor.accept(sx, sx)).isTrue();
    }

    @Test
    void sketchBitsFollowHoeffding() {
        // k = 2: p_2 = 0.625, p_4 = 0.53125, g = 0.046875.
        assertThat(KorSketch.gap(2)).isEqualTo(0.046875);
        assertThat(KorSketch.sketchBits(2, 0.01))
                .isEqualTo((int) Math.ceil(Math.log(100) / (2 * 0.046875 * 0.046875)));
        // Large k: g tends to (1/e - 1/e^2) / 4.
        assertThat(KorSketch.gap(100_000))
                .isCloseTo((Math.exp(-1) - Math.exp(-2)) / 4, within(1e-5));
        assertThat(KorSketch.sketchBits(10, 0.001)).isGreaterThan(KorSketch.sketchBits(10, 0.01));
        for (int k : new int[] {2, 3, 10, 1000}) {
            System.out.printf(
                    "KOR sketch bits at delta 0.01: k=%d t=%d%n", k, KorSketch.sketchBits(k, 0.01));
        }
    }

    @Test
    void invalidArgumentsAreRejected() {
        assertThatThrownBy(() -> new KorSketch(1, 100, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 2");
        assertThatThrownBy(() -> new KorSketch(2, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sketch bits must be between 1");
        assertThatThrownBy(() -> KorSketch.sketchBits(2, 1.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strictly between 0 and 1");
        KorSketch kor = new KorSketch(2, 100, 0);
        assertThatThrownBy(() -> kor.agreements(new long[2], new long[3]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 2");
    }
}
