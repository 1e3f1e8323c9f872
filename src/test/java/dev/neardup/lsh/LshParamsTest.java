package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The S-curve and the choice of b and r (seed 001's banding example; datasketch's optimiser). */
class LshParamsTest {

    @Test
    void reproducesTheSeedExampleOfTwentyBandsOfFiveRows() {
        LshParams p = new LshParams(20, 5);
        // Seed 001: "P(S1 == S2 | b) = 0.8^5 = .328 ... P(no band agrees) = .672^20 = .00035"
        assertThat(p.bandAgreement(0.8)).isCloseTo(0.328, within(0.0005));
        // The slide rounds 1 - 0.8^5 to .672 before the 20th power; the exact value is 0.000356.
        assertThat(1 - p.probability(0.8)).isCloseTo(0.00035, within(0.00001));
        assertThat(1 - p.probability(0.8))
                .isCloseTo(Math.pow(1 - Math.pow(0.8, 5), 20), within(1e-15));
        assertThat(p.numHashesUsed()).isEqualTo(100);
        assertThat(p.effectiveThreshold()).isCloseTo(Math.pow(1 / 20.0, 1 / 5.0), within(1e-12));
    }

    @Test
    void sCurveIsMonotoneFromZeroToOne() {
        LshParams p = new LshParams(9, 13);
        assertThat(p.probability(0)).isZero();
        assertThat(p.probability(1)).isEqualTo(1.0);
        double previous = -1;
        for (int i = 0; i <= 100; i++) {
            double v = p.probability(i / 100.0);
            assertThat(v).isGreaterThanOrEqualTo(previous).isBetween(0.0, 1.0);
            previous = v;
        }
    }

    @Test
    void areasMatchAnIndependentIntegration() {
        LshParams p = new LshParams(20, 5);
        double t = 0.8;
        assertThat(p.falsePositiveArea(t)).isCloseTo(trapezoid(p, 0, t, false), within(1e-6));
        assertThat(p.falseNegativeArea(t)).isCloseTo(trapezoid(p, t, 1, true), within(1e-6));
    }

    @ParameterizedTest
    @CsvSource({"0.5,128", "0.7,128", "0.8,128", "0.9,128", "0.8,64", "0.8,256"})
    void suggestFindsTheMinimumOfTheWeightedError(double threshold, int k) {
        LshParams chosen = LshParams.suggest(threshold, k);
        assertThat(chosen.numHashesUsed()).isLessThanOrEqualTo(k);
        double chosenError = error(chosen, threshold, 0.5, 0.5);
        // Brute force with an independent integrator: nothing is better beyond rounding.
        for (int b = 1; b <= k; b++) {
            for (int r = 1; b * r <= k; r++) {
                assertThat(chosenError)
                        .as("(%d,%d) vs (%d,%d)", chosen.bands(), chosen.rows(), b, r)
                        .isLessThanOrEqualTo(
                                error(new LshParams(b, r), threshold, 0.5, 0.5) + 1e-6);
            }
        }
        // And the curve crosses one half near the threshold.
        assertThat(chosen.effectiveThreshold()).isCloseTo(threshold, within(0.08));
    }

    @Test
    void heavierFalseNegativeWeightLeansTowardRecall() {
        LshParams balanced = LshParams.suggest(0.8, 128, 0.5, 0.5);
        LshParams recall = LshParams.suggest(0.8, 128, 0.1, 0.9);
        assertThat(recall.falseNegativeArea(0.8)).isLessThan(balanced.falseNegativeArea(0.8));
        assertThat(recall.probability(0.8)).isGreaterThan(balanced.probability(0.8));
        assertThat(recall.effectiveThreshold()).isLessThan(balanced.effectiveThreshold());
    }

    @Test
    void rejectsUnusableArguments() {
        assertThatThrownBy(() -> LshParams.suggest(1.0, 128))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threshold");
        assertThatThrownBy(() -> LshParams.suggest(0.8, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LshParams.suggest(0.8, 128, 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("weights");
        assertThatThrownBy(() -> new LshParams(0, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LshParams(20, 7).checkFits(128))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("140")
                .hasMessageContaining("K = 128");
    }

    @Test
    void findProbabilityAgreesWithSimulationAndBounds() {
        LshParams p = new LshParams(11, 11);
        java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        for (double s : new double[] {0.6, 0.8, 0.85, 0.9}) {
            int found = 0;
            int trials = 20_000;
            for (int t = 0; t < trials; t++) {
                boolean[] agree = new boolean[128];
                int total = 0;
                for (int i = 0; i < 128; i++) {
                    agree[i] = random.nextDouble() < s;
                    total += agree[i] ? 1 : 0;
                }
                boolean candidate = false;
                for (int b = 0; b < 11 && !candidate; b++) {
                    boolean all = true;
                    for (int i = b * 11; i < (b + 1) * 11; i++) {
                        all &= agree[i];
                    }
                    candidate = all;
                }
                if (candidate && total >= Math.ceil(0.8 * 128)) {
                    found++;
                }
            }
            double exact = p.findProbability(s, 128, 0.8);
            double sigma = Math.sqrt(Math.max(exact * (1 - exact), 1e-4) / trials);
            assertThat((double) found / trials).as("s=%.2f", s).isCloseTo(exact, within(5 * sigma));
            assertThat(exact).isLessThanOrEqualTo(p.probability(s) + 1e-12);
        }
        assertThat(p.findProbability(1.0, 128, 0.8)).isCloseTo(1.0, within(1e-12));
        assertThat(p.findProbability(0.0, 128, 0.8)).isZero();
    }

    private static double error(LshParams p, double t, double fpWeight, double fnWeight) {
        return fpWeight * trapezoid(p, 0, t, false) + fnWeight * trapezoid(p, t, 1, true);
    }

    private static double trapezoid(LshParams p, double a, double b, boolean complement) {
        int n = 20_000;
        double h = (b - a) / n;
        double sum = 0;
        for (int i = 0; i <= n; i++) {
            double s = a + i * h;
            double f = 1 - Math.pow(1 - Math.pow(s, p.rows()), p.bands());
            if (complement) {
                f = 1 - f;
            }
            sum += (i == 0 || i == n) ? f / 2 : f;
        }
        return sum * h;
    }
}
