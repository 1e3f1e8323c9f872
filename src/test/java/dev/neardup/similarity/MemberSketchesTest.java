package dev.neardup.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.lsh.BandKeys;
import dev.neardup.lsh.Banding;
import dev.neardup.lsh.BlockParams;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.PermutedBlocks;
import dev.neardup.sketch.SimHash;
import dev.neardup.sketch.Similarity;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MemberSketchesTest {

    private static final int K = 128;
    private static final Banding BANDING = new Banding(new LshParams(21, 6));

    /** A pair of signatures with each value differing with probability 1 - j. */
    private static long[][] pair(SplittableRandom random, double j) {
        long[] a = new long[K];
        long[] b = new long[K];
        for (int i = 0; i < K; i++) {
            a[i] = random.nextLong();
            b[i] = random.nextDouble() < j ? a[i] : random.nextLong();
        }
        return new long[][] {a, b};
    }

    private static byte[] pack(MemberSketches s, long[] sketch) {
        return s.pack(sketch, s.bandKeys(sketch));
    }

    @Test
    void fullValuesEstimateAndBandExactlyAsTheSignaturesDo() {
        MemberSketches full = MemberSketches.minHash(BANDING, K, 8);
        SplittableRandom random = new SplittableRandom(11);
        int agreeing = 0;
        for (int t = 0; t < 2000; t++) {
            long[][] p = pair(random, random.nextDouble());
            byte[] a = pack(full, p[0]);
            byte[] b = pack(full, p[1]);
            assertThat(full.estimate(a, b)).isEqualTo(Similarity.estimateJaccard(p[0], p[1]));
            int first = BANDING.firstAgreeingBand(p[0], p[1]);
            assertThat(full.firstAgreeingBand(a, b)).isEqualTo(first);
            agreeing += first >= 0 ? 1 : 0;
        }
        assertThat(agreeing).isBetween(200, 1800); // both outcomes exercised
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void slicesExceedTheFullEstimateOnlyByChanceAgreements(int valueBytes) {
        MemberSketches full = MemberSketches.minHash(BANDING, K, 8);
        MemberSketches slices = MemberSketches.minHash(BANDING, K, valueBytes);
        SplittableRandom random = new SplittableRandom(12);
        double excess = 0;
        int pairs = 5000;
        for (int t = 0; t < pairs; t++) {
            long[][] p = pair(random, random.nextDouble());
            double exact = full.estimate(pack(full, p[0]), pack(full, p[1]));
            byte[] a = pack(slices, p[0]);
            byte[] b = pack(slices, p[1]);
            double sliced = slices.estimate(a, b);
            // A differing value agrees in its kept bits by chance (2^-8 or 2^-16): never less than
            // the full estimate, and at most a few positions more.
            assertThat(sliced).isBetween(exact, exact + 6.0 / K);
            excess += sliced - exact;
            assertThat(slices.firstAgreeingBand(a, b))
                    .isEqualTo(BANDING.firstAgreeingBand(p[0], p[1]));
        }
        // Expected excess per pair: E[1 - J] 2^-8b = 2^-(8b+1); about 1,250 chance agreements in
        // all with 1 byte, about 5 with 2.
        double expected = Math.pow(2, -8 * valueBytes - 1);
        assertThat(excess / pairs)
                .isBetween(valueBytes == 1 ? expected / 2 : 0, expected * 3 + 1e-4);
    }

    @Test
    void slicedBandsAreToldByTheirKeyBits() {
        // One row of band 0 differs in its high bytes only: its slice agrees, its band does not.
        long[][] p = pair(new SplittableRandom(15), 1.0);
        p[1][3] ^= 1L << 40;
        for (int valueBytes : new int[] {1, 2}) {
            MemberSketches s = MemberSketches.minHash(BANDING, K, valueBytes);
            byte[] a = pack(s, p[0]);
            byte[] b = pack(s, p[1]);
            assertThat(s.estimate(a, b)).isEqualTo(1.0);
            assertThat(BANDING.firstAgreeingBand(p[0], p[1])).isEqualTo(1);
            assertThat(s.firstAgreeingBand(a, b)).isEqualTo(1);
        }
    }

    @Test
    void keyBitsOnlyWithSlicedValues() {
        long[] sig = pair(new SplittableRandom(13), 0.5)[0];
        assertThat(pack(MemberSketches.minHash(BANDING, K, 1), sig)).hasSize(21 * 4 + K);
        assertThat(pack(MemberSketches.minHash(BANDING, K, 2), sig)).hasSize(21 * 4 + 2 * K);
        assertThat(pack(MemberSketches.minHash(BANDING, K, 8), sig)).hasSize(8 * K);
    }

    @Test
    void simHashFingerprintsEstimateAndBandAsTheFingerprintsDo() {
        BlockParams params = new BlockParams(64, 3, 6);
        BandKeys tables = new PermutedBlocks(params);
        MemberSketches s = MemberSketches.simHash(tables, 1);
        SplittableRandom random = new SplittableRandom(14);
        int candidates = 0;
        for (int t = 0; t < 2000; t++) {
            long[] a = {random.nextLong()};
            long flips = 0;
            for (int f = random.nextInt(8); f > 0; f--) {
                flips |= 1L << random.nextInt(64);
            }
            long[] b = {a[0] ^ flips};
            byte[] pa = pack(s, a);
            byte[] pb = pack(s, b);
            assertThat(s.estimate(pa, pb)).isEqualTo(SimHash.estimateCosine(a, b));
            int first = tables.firstAgreeingBand(a, b);
            assertThat(s.firstAgreeingBand(pa, pb)).isEqualTo(first);
            candidates += first >= 0 ? 1 : 0;
        }
        assertThat(candidates).isBetween(200, 1990);
    }

    @Test
    void rejectsAWrongWidthOrSignatureLength() {
        assertThatThrownBy(() -> MemberSketches.minHash(BANDING, K, 4))
                .hasMessageContaining("valueBytes must be 1, 2 or 8");
        MemberSketches s = MemberSketches.minHash(BANDING, K, 2);
        assertThatThrownBy(() -> s.pack(new long[64], new long[21]))
                .hasMessageContaining("signature of 64 values, expected 128");
    }
}
