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
        assertThat(LshParams.candidateProbability(0.8, 1, 5)).isCloseTo(0.328, within(0.0005));
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
        double fp = LshParams.DEFAULT_FP_WEIGHT;
        double fn = LshParams.DEFAULT_FN_WEIGHT;
        double chosenError = error(chosen, threshold, fp, fn);
        // Brute force with an independent integrator: nothing is better beyond rounding.
        for (int b = 1; b <= k; b++) {
            for (int r = 1; b * r <= k; r++) {
                assertThat(chosenError)
                        .as("(%d,%d) vs (%d,%d)", chosen.bands(), chosen.rows(), b, r)
                        .isLessThanOrEqualTo(error(new LshParams(b, r), threshold, fp, fn) + 1e-6);
            }
        }
        // And the curve crosses one half near the threshold.
        assertThat(chosen.effectiveThreshold()).isCloseTo(threshold, within(0.08));
    }

    @Test
    void theDefaultWeightsAreTheJobsAndGiveElevenByElevenAtPointEight() {
        // One default banding for the library, the job (neardup.tune.*-weight) and every command.
        assertThat(LshParams.DEFAULT_FP_WEIGHT).isEqualTo(0.25);
        assertThat(LshParams.DEFAULT_FN_WEIGHT).isEqualTo(0.75);
        assertThat(LshParams.suggest(0.8, 128)).isEqualTo(new LshParams(11, 11));
        assertThat(LshParams.suggest(0.8, 128).toString()).isEqualTo("11 bands x 11 rows");
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

    // ---- findProbability with b-bit verification ----

    @Test
    void findProbabilityWithFullValuesIsTheThreeArgumentOverload() {
        for (LshParams p : new LshParams[] {new LshParams(11, 11), new LshParams(20, 5)}) {
            for (double t : new double[] {0.5, 0.8, 0.9}) {
                for (int i = 0; i <= 20; i++) {
                    double s = i / 20.0;
                    assertThat(p.findProbability(s, 128, t, 64))
                            .as("%s s=%.2f t=%.1f", p, s, t)
                            .isEqualTo(p.findProbability(s, 128, t));
                }
            }
        }
    }

    /**
     * Monte-Carlo simulation of the model: each of the K positions agrees fully with probability s,
     * else its b low bits agree by chance with probability 2^-b; the pair is found when all r rows
     * of some band agree fully and the b-bit estimate (P̂ - C) / (1 - C) reaches the threshold.
     */
    @ParameterizedTest
    @CsvSource({"2, 0.7", "2, 0.8", "2, 0.85", "2, 0.9", "4, 0.7", "4, 0.8", "4, 0.85", "4, 0.9"})
    void findProbabilityWithFewBitsAgreesWithSimulation(int bits, double s) {
        LshParams p = new LshParams(11, 11);
        int k = 128;
        double threshold = 0.8;
        double chance = Math.scalb(1.0, -bits);
        java.util.SplittableRandom random =
                new java.util.SplittableRandom(1000L * bits + Math.round(s * 100));
        int trials = 20_000;
        int found = 0;
        for (int t = 0; t < trials; t++) {
            boolean[] full = new boolean[k];
            int agreeing = 0;
            for (int i = 0; i < k; i++) {
                full[i] = random.nextDouble() < s;
                if (full[i] || random.nextDouble() < chance) {
                    agreeing++;
                }
            }
            boolean candidate = false;
            for (int b = 0; b < p.bands() && !candidate; b++) {
                boolean all = true;
                for (int i = b * p.rows(); i < (b + 1) * p.rows(); i++) {
                    all &= full[i];
                }
                candidate = all;
            }
            if (candidate
                    && dev.neardup.sketch.BbitMinHash.estimateJaccard(agreeing, k, bits)
                            >= threshold) {
                found++;
            }
        }
        double exact = p.findProbability(s, k, threshold, bits);
        double sigma = Math.sqrt(Math.max(exact * (1 - exact), 1e-4) / trials);
        assertThat((double) found / trials)
                .as("b=%d s=%.2f", bits, s)
                .isCloseTo(exact, within(4 * sigma));
        assertThat(exact).isLessThanOrEqualTo(p.probability(s) + 1e-12);
    }

    /**
     * Exact enumeration on small configurations: every one of the 3^K assignments of "agrees
     * fully", "agrees in the low b bits only" and "differs" to the positions, with its probability.
     */
    @ParameterizedTest
    @CsvSource({"2, 2, 6", "2, 3, 7", "1, 3, 5", "3, 1, 4", "2, 2, 4", "1, 1, 1", "3, 2, 7"})
    void findProbabilityEqualsExactEnumerationOnSmallConfigurations(int bands, int rows, int k) {
        LshParams p = new LshParams(bands, rows);
        for (int bits : new int[] {1, 2, 4, 16, 64}) {
            double chance = bits >= 64 ? 0 : Math.scalb(1.0, -bits);
            for (double threshold : new double[] {0.3, 0.5, 0.6, 0.7, 0.9}) {
                for (double s : new double[] {0.0, 0.2, 0.5, 0.75, 0.9, 1.0}) {
                    double total = 0;
                    int states = (int) Math.pow(3, k);
                    for (int code = 0; code < states; code++) {
                        int[] state = new int[k]; // 0 full, 1 chance only, 2 differs
                        int c = code;
                        double prob = 1;
                        int agreeing = 0;
                        for (int i = 0; i < k; i++) {
                            state[i] = c % 3;
                            c /= 3;
                            prob *=
                                    state[i] == 0
                                            ? s
                                            : state[i] == 1
                                                    ? (1 - s) * chance
                                                    : (1 - s) * (1 - chance);
                            agreeing += state[i] <= 1 ? 1 : 0;
                        }
                        boolean candidate = false;
                        for (int b = 0; b < bands; b++) {
                            boolean all = true;
                            for (int i = b * rows; i < (b + 1) * rows; i++) {
                                all &= state[i] == 0;
                            }
                            candidate |= all;
                        }
                        double estimate = ((double) agreeing / k - chance) / (1 - chance);
                        if (candidate && estimate >= threshold - 1e-12) {
                            total += prob;
                        }
                    }
                    assertThat(p.findProbability(s, k, threshold, bits))
                            .as("%s K=%d b=%d t=%.1f s=%.2f", p, k, bits, threshold, s)
                            .isCloseTo(total, within(1e-12));
                }
            }
        }
    }

    @Test
    void findProbabilityWithFewBitsAtTheEnds() {
        LshParams p = new LshParams(11, 11);
        for (int bits : new int[] {1, 2, 4, 8, 16, 64}) {
            assertThat(p.findProbability(1.0, 128, 0.8, bits)).isCloseTo(1.0, within(1e-12));
            // No band ever agrees fully at s = 0, whatever the chance agreements.
            assertThat(p.findProbability(0.0, 128, 0.8, bits)).isZero();
        }
        assertThatThrownBy(() -> p.findProbability(0.9, 100, 0.8, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("121");
    }

    /**
     * How recall depends on b at 11 x 11, K = 128, threshold 0.8. Measured values of P(found) (b =
     * 1, 2, 4, 8, 16, 64): at s = 0.85, 0.7488, 0.8164, 0.8374, 0.8335, 0.8321, 0.8321; at s = 0.7
     * (false positives), 0.0164, 0.0104, 0.0061, 0.0038, 0.0036, 0.0036. So it is not monotone in b
     * above the threshold: b = 4 finds slightly more pairs at s = 0.85 than full values do (the
     * rounding of the needed agreement count and the chance agreements), while 1 and 2 bits lose
     * recall; below the threshold, fewer bits always let more dissimilar pairs through.
     */
    @Test
    void howTheNumberOfBitsChangesRecallAndFalsePositives() {
        LshParams p = new LshParams(11, 11);
        int[] widths = {1, 2, 4, 8, 16, 64};
        double[] at85 = new double[widths.length];
        double[] at70 = new double[widths.length];
        for (int w = 0; w < widths.length; w++) {
            at85[w] = p.findProbability(0.85, 128, 0.8, widths[w]);
            at70[w] = p.findProbability(0.7, 128, 0.8, widths[w]);
            assertThat(at85[w]).isLessThanOrEqualTo(p.probability(0.85) + 1e-12);
        }
        // Recall at s = 0.85 rises from b = 1 to b = 4...
        assertThat(at85[0]).isLessThan(at85[1]);
        assertThat(at85[1]).isLessThan(at85[2]);
        assertThat(at85[0]).isCloseTo(0.7488, within(0.0005));
        assertThat(at85[1]).isCloseTo(0.8164, within(0.0005));
        // ...and beyond it stays within 0.01 of full values, converging to them.
        for (int w = 2; w < widths.length; w++) {
            assertThat(at85[w]).isCloseTo(at85[5], within(0.01));
        }
        assertThat(at85[4]).isCloseTo(at85[5], within(1e-4));
        assertThat(at85[5]).isCloseTo(0.8321, within(0.0005));
        // Not monotone: b = 4 beats full values slightly at s = 0.85.
        assertThat(at85[2]).isGreaterThan(at85[5]);
        // False positives at s = 0.7 never increase with more bits.
        for (int w = 1; w < widths.length; w++) {
            assertThat(at70[w]).as("b=%d", widths[w]).isLessThanOrEqualTo(at70[w - 1]);
        }
        assertThat(at70[0]).isGreaterThan(4 * at70[5]);
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

    @Test
    void forRecallTakesTheMostRowsWhoseSCurveReachesTheRecallAtTheThreshold() {
        LshParams p = LshParams.forRecall(0.8, 128, 0.99);
        // 21 x 6: P(0.8) = 0.9983; 18 x 7 gives only 0.9855.
        assertThat(p).isEqualTo(new LshParams(21, 6));
        assertThat(p.probability(0.8)).isCloseTo(0.9983, within(0.0001));
        assertThat(new LshParams(18, 7).probability(0.8)).isLessThan(0.99);
        // The tuned default of the streaming job finds far fewer pairs at the threshold.
        assertThat(LshParams.suggest(0.8, 128).probability(0.8)).isLessThan(0.65);
        // Seed 001's 20 x 5 reaches 0.9996; at 0.9999 the choice falls to 5 rows.
        assertThat(LshParams.forRecall(0.8, 128, 0.9999)).isEqualTo(new LshParams(25, 5));
        assertThat(LshParams.forRecall(0.5, 16, 0.999999)).isEqualTo(new LshParams(16, 1));
        assertThatThrownBy(() -> LshParams.forRecall(0.8, 128, 1.0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("recall");
    }
}
