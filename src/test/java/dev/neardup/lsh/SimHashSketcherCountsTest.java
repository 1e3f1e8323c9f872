package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.sketch.GaussianSimHash;
import dev.neardup.sketch.SimHash;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The sketcher sorts a document's features once and computes its fingerprints and identity from the
 * term-frequency vector: the same bits and identity as from the features with their repeats (stored
 * state depends on them).
 */
class SimHashSketcherCountsTest {

    /** Features with repeats: {@code n} draws from a vocabulary of {@code vocabulary} hashes. */
    private static long[] features(int n, int vocabulary, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] words = new long[vocabulary];
        for (int i = 0; i < vocabulary; i++) {
            words[i] = random.nextLong();
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            // Skewed: low indexes repeat often, as function words do.
            int j =
                    (int)
                            Math.min(
                                    vocabulary - 1,
                                    Math.abs(random.nextGaussian()) * vocabulary / 4);
            out[i] = words[j];
        }
        return out;
    }

    @Test
    void countsGiveTheSameFingerprintsAndIdentityAsTheFeatures() {
        SimHash d64 = new SimHash(64, SimHash.DEFAULT_SEED);
        SimHash d128 = new SimHash(128, SimHash.DEFAULT_SEED);
        GaussianSimHash v256 = new GaussianSimHash(256, GaussianSimHash.DEFAULT_SEED);
        for (long seed = 0; seed < 200; seed++) {
            long[] f = features(1 + (int) (seed * 7 % 900), 1 + (int) (seed * 13 % 400), seed);
            long[] counts = SimHashSketcher.termFrequencies(f);
            // Each occurrence weighing 1 (the weighted path, summed per occurrence).
            double[] ones = new double[f.length];
            java.util.Arrays.fill(ones, 1);
            assertThat(d64.fingerprintOfCounts(counts)).isEqualTo(d64.fingerprint(f, ones));
            assertThat(d128.fingerprintOfCounts(counts)).isEqualTo(d128.fingerprint(f, ones));
            assertThat(d64.fingerprint(f)).isEqualTo(d64.fingerprint(f, ones));
            assertThat(v256.fingerprintOfCounts(counts)).isEqualTo(v256.fingerprint(f));
            assertThat(SimHashSketcher.identityOfCounts(counts))
                    .isEqualTo(SimHashSketcher.identity(f));
        }
        long[] none = new long[0];
        assertThat(d64.fingerprintOfCounts(none)).isEqualTo(d64.fingerprint(none));
        assertThat(SimHashSketcher.identityOfCounts(none))
                .isEqualTo(SimHashSketcher.identity(none));
    }
}
