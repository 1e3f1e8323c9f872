package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.testing.KnownJaccardPairs;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seed 001's error bound, checked statistically with fixed seeds: over many pairs of known Jaccard
 * similarity J, the MinHash estimate is unbiased and its RMSE is within 1.3 times the binomial
 * standard error sqrt(J (1 - J) / K) that K independent min-wise samples give. Both
 * implementations, long documents and short ones (fewer shingles than K).
 */
class MinHashAccuracyTest {

    private static final int K = 128;

    /**
     * Pairs per case. Short documents need more: one-permutation hashing with optimal densification
     * measures about 1.22 times the binomial error at 4 to 16 shingles (few non-empty bins, whose
     * densification probes overlap), and the RMSE of n pairs is itself uncertain by about
     * 1/sqrt(2n); 2000 pairs keep that noise well inside the 1.3 margin.
     */
    private static int pairsFor(int union) {
        return union <= K ? 2000 : 400;
    }

    static Stream<Arguments> cases() {
        Stream.Builder<Arguments> cases = Stream.builder();
        for (MinHashAlgorithm algorithm : MinHashAlgorithm.values()) {
            for (int union : new int[] {2000, 128, 40, 8}) {
                for (double j : new double[] {0.1, 0.3, 0.5, 0.75, 0.9}) {
                    cases.add(Arguments.of(algorithm, union, j));
                }
            }
        }
        return cases.build();
    }

    @ParameterizedTest(name = "{0}, |A u B| = {1}, J = {2}")
    @MethodSource("cases")
    void estimateIsUnbiasedWithinTheBinomialErrorBound(
            MinHashAlgorithm algorithm, int union, double targetJ) {
        MinHash minHash = MinHash.create(algorithm, K, MinHash.DEFAULT_SEED);
        KnownJaccardPairs pairs = new KnownJaccardPairs(union * 1000L + (long) (targetJ * 100));
        int pairCount = pairsFor(union);
        double sumError = 0;
        double sumSquaredError = 0;
        double j = 0;
        for (int p = 0; p < pairCount; p++) {
            KnownJaccardPairs.Pair pair = pairs.next(targetJ, union);
            j = pair.jaccard();
            double estimate =
                    Similarity.estimateJaccard(
                            minHash.signature(pair.a()), minHash.signature(pair.b()));
            sumError += estimate - j;
            sumSquaredError += (estimate - j) * (estimate - j);
        }
        double bias = sumError / pairCount;
        double rmse = Math.sqrt(sumSquaredError / pairCount);
        double standardError = Similarity.standardError(j, K);

        assertThat(rmse)
                .as("RMSE for J=%.3f (bound 1.3 * %.4f)", j, standardError)
                .isLessThanOrEqualTo(1.3 * standardError);
        // The mean of pairCount estimates has standard error ~ standardError / sqrt(PAIRS);
        // allow 4 of those (a failure here means a real bias, not bad luck).
        assertThat(Math.abs(bias))
                .as("bias for J=%.3f", j)
                .isLessThanOrEqualTo(4 * standardError / Math.sqrt(pairCount) + 1e-9);
    }
}
