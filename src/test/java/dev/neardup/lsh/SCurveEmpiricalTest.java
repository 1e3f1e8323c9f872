package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.MinHashAlgorithm;
import dev.neardup.testing.KnownJaccardPairs;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Over generated pairs of known Jaccard similarity, the measured rate of candidate pairs (a band
 * key in common) follows the S-curve P(s) = 1 - (1 - s^r)^b within sampling error.
 */
class SCurveEmpiricalTest {

    private static final int PAIRS = 500;

    @ParameterizedTest
    @EnumSource(MinHashAlgorithm.class)
    void candidateRateFollowsTheSCurve(MinHashAlgorithm algorithm) {
        MinHash minHash = MinHash.create(algorithm, 128, MinHash.DEFAULT_SEED);
        Banding banding = new Banding(LshParams.suggest(0.8, 128));
        LshParams params = banding.params();
        KnownJaccardPairs pairs = new KnownJaccardPairs(2024);
        for (double s : new double[] {0.4, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95}) {
            int candidates = 0;
            double j = 0;
            for (int i = 0; i < PAIRS; i++) {
                KnownJaccardPairs.Pair pair = pairs.next(s, 1000);
                j = pair.jaccard();
                long[] a = banding.bandKeys(minHash.signature(pair.a()));
                long[] b = banding.bandKeys(minHash.signature(pair.b()));
                if (shareAKey(a, b)) {
                    candidates++;
                }
            }
            double expected = params.probability(j);
            double rate = (double) candidates / PAIRS;
            double sigma = Math.sqrt(Math.max(expected * (1 - expected), 1e-4) / PAIRS);
            assertThat(rate)
                    .as("candidate rate at s=%.2f with %s (expected %.3f)", j, params, expected)
                    .isCloseTo(expected, org.assertj.core.api.Assertions.within(4.5 * sigma));
        }
    }

    private static boolean shareAKey(long[] a, long[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == b[i]) {
                return true;
            }
        }
        return false;
    }
}
