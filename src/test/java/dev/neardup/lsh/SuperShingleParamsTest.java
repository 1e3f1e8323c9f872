package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The super-shingle S-curve P[Binomial(k, r^l) &gt;= t] (seed 003; Fetterly et al. 2003's 6
 * super-shingles of 14 with 2 shared) and the choice of (k, l, t) by weighted error areas.
 */
class SuperShingleParamsTest {

    @Test
    void sCurveIsTheBinomialTailComputedExactly() {
        MathContext mc = MathContext.DECIMAL128;
        for (int k : new int[] {2, 6, 10, 45}) {
            for (int t = 1; t < Math.min(k, 4); t++) {
                for (int l : new int[] {1, 7, 14}) {
                    for (double r = 0.05; r < 1; r += 0.05) {
                        BigDecimal p = new BigDecimal(r).pow(l, mc);
                        BigDecimal q = BigDecimal.ONE.subtract(p);
                        BigDecimal tail = BigDecimal.ZERO;
                        for (int j = t; j <= k; j++) {
                            tail =
                                    tail.add(
                                            new BigDecimal(binomial(k, j))
                                                    .multiply(p.pow(j, mc))
                                                    .multiply(q.pow(k - j, mc)),
                                            mc);
                        }
                        double exact = tail.doubleValue();
                        assertThat(SuperShingleParams.candidateProbability(r, k, l, t))
                                .as("k=%d l=%d t=%d r=%.2f", k, l, t, r)
                                .isCloseTo(exact, within(1e-12 + 1e-9 * exact));
                    }
                }
            }
        }
    }

    @Test
    void withOneSharedItIsBandingsSCurve() {
        for (double r = 0; r <= 1; r += 0.01) {
            assertThat(new SuperShingleParams(7, 18, 1).probability(r))
                    .isEqualTo(new LshParams(7, 18).probability(r));
        }
    }

    @Test
    void reproducesTheSixSuperShinglesOfFourteenWithTwoShared() {
        SuperShingleParams p = new SuperShingleParams(6, 14, 2);
        assertThat(p.keyCount()).isEqualTo(15);
        assertThat(p.numHashesUsed()).isEqualTo(84);
        // p = r^14; P = 1 - (1-p)^6 - 6 p (1-p)^5.
        for (double r : new double[] {0.8, 0.9, 0.95, 0.98}) {
            double a = Math.pow(r, 14);
            double expected = 1 - Math.pow(1 - a, 6) - 6 * a * Math.pow(1 - a, 5);
            assertThat(p.probability(r)).isCloseTo(expected, within(1e-14));
        }
        assertThat(p.probability(0.95)).isCloseTo(0.8786, within(0.0001));
        assertThat(p.probability(0.8)).isCloseTo(0.0258, within(0.0001));
        // Two shared super-shingles instead of one: far fewer candidates at r = 0.8.
        assertThat(p.probability(0.8))
                .isLessThan(new SuperShingleParams(6, 14, 1).probability(0.8) / 9);
    }

    @Test
    void sCurveIsMonotoneFromZeroToOneWithoutUnderflow() {
        SuperShingleParams p = new SuperShingleParams(45, 2, 2);
        assertThat(p.probability(0)).isZero();
        assertThat(p.probability(1)).isEqualTo(1.0);
        // All terms of the upper tail but the last underflow: computed as 1 - lower tail.
        assertThat(p.probability(1 - 1e-9)).isCloseTo(1.0, within(1e-12));
        assertThat(p.probability(1e-3)).isPositive().isCloseTo(990 * 1e-12, within(1e-13));
        double previous = -1;
        for (int i = 0; i <= 200; i++) {
            double v = new SuperShingleParams(6, 21, 2).probability(i / 200.0);
            assertThat(v).isBetween(0.0, 1.0).isGreaterThanOrEqualTo(previous);
            previous = v;
        }
    }

    @ParameterizedTest
    @CsvSource({"0.9,128,16", "0.95,128,16", "0.98,128,16", "0.95,84,15", "0.9,64,6"})
    void suggestFindsTheMinimumOfTheWeightedError(double threshold, int k, int maxKeys) {
        double fp = LshParams.DEFAULT_FP_WEIGHT;
        double fn = LshParams.DEFAULT_FN_WEIGHT;
        SuperShingleParams chosen = SuperShingleParams.suggest(threshold, k, maxKeys, fp, fn);
        assertThat(chosen.numHashesUsed()).isLessThanOrEqualTo(k);
        assertThat(chosen.keyCount()).isLessThanOrEqualTo(maxKeys);
        double chosenError = error(chosen, threshold, fp, fn);
        // Brute force over every (k, l, t) in budget, with an independent integrator; t = k > 1
        // is one super-shingle of k l rows (t = 1), see allSharedIsOneLongSuperShingle.
        for (int t = 1; t <= k; t++) {
            for (int n = t == 1 ? 1 : t + 1;
                    n <= k && binomial(n, t).intValueExact() <= maxKeys;
                    n++) {
                for (int l = 1; n * l <= k; l++) {
                    assertThat(chosenError)
                            .as("%s vs (%d, %d, %d)", chosen, n, l, t)
                            .isLessThanOrEqualTo(
                                    error(new SuperShingleParams(n, l, t), threshold, fp, fn)
                                            + 1e-6);
                }
            }
        }
    }

    @Test
    void allSharedIsOneLongSuperShingle() {
        for (double r = 0; r <= 1; r += 0.01) {
            assertThat(new SuperShingleParams(4, 5, 4).probability(r))
                    .isCloseTo(new LshParams(1, 20).probability(r), within(1e-12));
        }
    }

    @Test
    void atVeryHighThresholdsTwoSharedSuperShinglesBeatBanding() {
        // With at most 16 keys, requiring two shared super-shingles gives a steeper curve than
        // any banding with at most 16 bands.
        SuperShingleParams chosen = SuperShingleParams.suggest(0.95, 128);
        assertThat(chosen).isEqualTo(new SuperShingleParams(6, 21, 2));
        double fp = LshParams.DEFAULT_FP_WEIGHT;
        double fn = LshParams.DEFAULT_FN_WEIGHT;
        double bestBanding = Double.POSITIVE_INFINITY;
        for (int b = 1; b <= 16; b++) {
            for (int r = 1; b * r <= 128; r++) {
                bestBanding =
                        Math.min(bestBanding, error(new SuperShingleParams(b, r, 1), 0.95, fp, fn));
            }
        }
        assertThat(error(chosen, 0.95, fp, fn)).isLessThan(bestBanding * 0.9);
        assertThat(SuperShingleParams.suggest(0.9, 128).toString())
                .isEqualTo("7 super-shingles x 18 rows, 1 shared (7 keys)");
    }

    @Test
    void rejectsUnusableArguments() {
        assertThatThrownBy(() -> new SuperShingleParams(0, 5, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got k=0 l=5 t=1");
        assertThatThrownBy(() -> new SuperShingleParams(4, 5, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 <= t <= k");
        assertThatThrownBy(() -> new SuperShingleParams(40, 1, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("C(k, t) = 9880 keys per document, more than 1024");
        assertThatThrownBy(() -> new SuperShingleParams(6, 22, 2).checkFits(128))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("132")
                .hasMessageContaining("K = 128");
        assertThatThrownBy(() -> SuperShingleParams.suggest(1.0, 128))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threshold");
        assertThatThrownBy(() -> SuperShingleParams.suggest(0.9, 128, 0, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("keys per document");
        assertThatThrownBy(() -> SuperShingleParams.suggest(0.9, 128, 16, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("weights");
    }

    private static double error(SuperShingleParams p, double t, double fp, double fn) {
        return fp * trapezoid(p, 0, t, false) + fn * trapezoid(p, t, 1, true);
    }

    private static double trapezoid(SuperShingleParams p, double a, double b, boolean complement) {
        int n = 5000;
        double h = (b - a) / n;
        double sum = 0;
        for (int i = 0; i <= n; i++) {
            double v = p.probability(a + i * h);
            v = complement ? 1 - v : v;
            sum += (i == 0 || i == n) ? v / 2 : v;
        }
        return sum * h;
    }

    private static BigInteger binomial(int n, int k) {
        BigInteger result = BigInteger.ONE;
        for (int i = 1; i <= k; i++) {
            result = result.multiply(BigInteger.valueOf(n - k + i)).divide(BigInteger.valueOf(i));
        }
        return result;
    }
}
