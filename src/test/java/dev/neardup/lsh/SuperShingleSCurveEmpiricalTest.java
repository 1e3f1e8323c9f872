package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.MinHashAlgorithm;
import dev.neardup.testing.KnownJaccardPairs;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Over generated pairs of known resemblance r, the measured rate of pairs that share a
 * super-shingle key follows P[Binomial(k, r^l) &gt;= t] within a binomial bound (4.5 standard
 * deviations of the rate), for one and for two shared super-shingles (seed 003; Fetterly et al.
 * 2003).
 */
class SuperShingleSCurveEmpiricalTest {

    private static final int PAIRS = 500;

    @ParameterizedTest
    @EnumSource(MinHashAlgorithm.class)
    void collisionRateFollowsTheFormula(MinHashAlgorithm algorithm) {
        MinHash minHash = MinHash.create(algorithm, 128, MinHash.DEFAULT_SEED);
        SuperShingles[] schemes = {
            new SuperShingles(SuperShingleParams.suggest(0.9, 128)), // 7 x 18, 1 shared
            new SuperShingles(SuperShingleParams.suggest(0.95, 128)), // 6 x 21, 2 shared
            new SuperShingles(new SuperShingleParams(6, 14, 2)), // 84 values, 2 shared
            new SuperShingles(new SuperShingleParams(5, 8, 3))
        };
        KnownJaccardPairs pairs = new KnownJaccardPairs(2026);
        for (double s : new double[] {0.6, 0.75, 0.85, 0.9, 0.95, 0.98}) {
            int[] collisions = new int[schemes.length];
            double r = 0;
            for (int i = 0; i < PAIRS; i++) {
                KnownJaccardPairs.Pair pair = pairs.next(s, 500);
                r = pair.jaccard();
                long[] a = minHash.signature(pair.a());
                long[] b = minHash.signature(pair.b());
                for (int k = 0; k < schemes.length; k++) {
                    if (SuperShinglesTest.shareAKey(schemes[k].keys(a), schemes[k].keys(b))) {
                        collisions[k]++;
                    }
                }
            }
            for (int k = 0; k < schemes.length; k++) {
                SuperShingleParams params = schemes[k].params();
                double expected = params.probability(r);
                double rate = (double) collisions[k] / PAIRS;
                double sigma = Math.sqrt(Math.max(expected * (1 - expected), 1e-4) / PAIRS);
                assertThat(rate)
                        .as("rate at r=%.3f with %s (expected %.4f)", r, params, expected)
                        .isCloseTo(expected, within(4.5 * sigma));
            }
        }
    }
}
