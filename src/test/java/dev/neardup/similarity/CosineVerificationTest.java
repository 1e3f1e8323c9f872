package dev.neardup.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.CosineSettings;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.Settings;
import dev.neardup.lsh.BlockParams;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.PermutedBlocks;
import dev.neardup.lsh.SimHashSketcher;
import dev.neardup.pipeline.StateCompatibility;
import dev.neardup.sketch.GaussianSimHash;
import dev.neardup.sketch.SimHash;
import dev.neardup.text.ShingleOptions;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Cosine mode's verification bits: the option and its checks, the sketch [D table bits | V
 * verification bits], the threshold cos(pi k / D) scaled to V bits, the state shape, and the
 * offline dedupe's sketches judging as the buckets do.
 */
class CosineVerificationTest {

    private static NearDupSettings cosine(String... keyValues) {
        return Settings.cosine(
                Settings.concat(new String[] {"neardup.simhash.verify", "BITS"}, keyValues));
    }

    private static CosineSettings settings(NearDupSettings s) {
        return (CosineSettings) s.similarity();
    }

    @Test
    void theDefaultIs256VerificationBitsJudgedAtDistance12() {
        NearDupSettings s = cosine();
        assertThat(settings(s).verifyBits()).isEqualTo(256);
        assertThat(settings(s).verifyMaxHamming()).isEqualTo(12);
        Verification.Cosine v = (Verification.Cosine) SimilarityMode.of(s).verification();
        assertThat(v.packedBytes()).isEqualTo(8 + 32);
        assertThat(v.maxDistance()).isEqualTo(12);
        assertThat(SimilarityMode.of(s).describe())
                .contains("verify-bits=256 (Gaussian h <= 12, cosine +/- 0.0061 at the threshold)");
    }

    @Test
    void theThresholdScalesToTheVerificationBits() {
        // cos(pi k / D) stays the threshold; K is the largest distance of V bits that reaches it.
        assertThat(new Verification.Cosine(64, 3, 192).maxDistance()).isEqualTo(9);
        assertThat(new Verification.Cosine(64, 3, 960).maxDistance()).isEqualTo(45);
        assertThat(new Verification.Cosine(64, 3, 64).maxDistance()).isEqualTo(3);
        assertThat(new Verification.Cosine(128, 5, 256).maxDistance()).isEqualTo(10);
        assertThat(new Verification.Cosine(64, 3).maxDistance()).isEqualTo(3);
        for (int verify : new int[] {64, 192, 256, 320, 448, 960, 1024}) {
            Verification.Cosine v = new Verification.Cosine(64, 3, verify);
            int k = v.maxDistance();
            assertThat(SimHash.cosine(k, verify)).isGreaterThan(SimHash.cosine(3, 64) - 1e-12);
            assertThat(SimHash.cosine(k + 1, verify)).isLessThan(SimHash.cosine(3, 64));
        }
    }

    /** Sketches of 1 + 4 words that differ in {@code index} table bits and {@code verify} bits. */
    private static byte[][] pair(Verification.Cosine v, int index, int verify) {
        SplittableRandom random = new SplittableRandom(index * 1000L + verify);
        long[] a = random.longs(5).toArray();
        long[] b = a.clone();
        b[0] ^= index == 0 ? 0 : -1L >>> (64 - index);
        for (int i = 0; i < verify; i++) {
            b[1 + i / 64] ^= 1L << (i % 64);
        }
        return new byte[][] {v.pack(a), v.pack(b)};
    }

    @Test
    void aPairIsJudgedOnTheVerificationBitsOnly() {
        Verification.Cosine v = new Verification.Cosine(64, 3, 256);
        for (int h = 0; h <= 40; h++) {
            for (int index : new int[] {0, 3, 20}) {
                byte[][] p = pair(v, index, h);
                Estimate e = v.estimate(p[0], p[1]);
                assertThat(e.similarity()).isEqualTo(v.cosine(h));
                assertThat(v.accepts(e.similarity())).as("h = %s", h).isEqualTo(h <= 12);
                assertThat(v.hamming(e.similarity())).isEqualTo(h);
            }
        }
        assertThat(v.cosine(12)).isEqualTo(SimHash.cosine(3, 64));
        assertThatThrownBy(() -> v.pack(new long[1]))
                .hasMessageContaining("has 64 bits, expected 320");
    }

    @Test
    void withoutVerificationBitsPairsAreJudgedOnTheFingerprintAsBefore() {
        Verification.Cosine v = new Verification.Cosine(64, 3, 0);
        long[] a = {0x0123_4567_89AB_CDEFL};
        for (int h = 0; h <= 8; h++) {
            long[] b = {a[0] ^ (h == 0 ? 0 : -1L >>> (64 - h))};
            double s = v.estimate(v.pack(a), v.pack(b)).similarity();
            assertThat(s).isEqualTo(SimHash.cosine(h, 64));
            assertThat(v.accepts(s)).isEqualTo(h <= 3);
        }
    }

    @Test
    void theOptionIsCheckedAndBelongsToCosine() {
        assertThatThrownBy(() -> cosine("neardup.simhash.verify-bits", "100"))
                .hasMessageContaining("neardup.simhash.verify-bits")
                .hasMessageContaining("multiple of 64 from 0");
        assertThatThrownBy(() -> cosine("neardup.simhash.verify-bits", "1088"))
                .hasMessageContaining("to 1024, got 1088");
        assertThatThrownBy(() -> cosine("neardup.simhash.verify-bits", "-64"))
                .hasMessageContaining("neardup.simhash.verify-bits");
        Configuration jaccard = new Configuration();
        jaccard.setString("neardup.simhash.verify-bits", "512");
        assertThatThrownBy(() -> NearDupSettings.from(jaccard))
                .hasMessageContaining("neardup.simhash.verify-bits")
                .hasMessageContaining("applies to cosine similarity only");
        assertThat(settings(cosine("neardup.simhash.verify-bits", "0")).verifyBits()).isZero();
    }

    @Test
    void theVerificationBitsShapeTheStateAndZeroIsTheEarlierShape() {
        String verifyKey = "neardup.simhash.verify-bits";
        assertThat(StateCompatibility.shape(cosine())).containsEntry(verifyKey, "256");
        assertThat(StateCompatibility.shape(cosine(verifyKey, "512")))
                .containsEntry(verifyKey, "512");
        // State recorded before the option existed has no key: V = 0 restores it.
        assertThat(StateCompatibility.shape(cosine(verifyKey, "0"))).doesNotContainKey(verifyKey);
    }

    @Test
    void theSketchIsTheTableFingerprintThenTheVerificationBits() {
        BlockParams layout = new BlockParams(64, 3, 5);
        ShingleOptions words =
                SimHashSketcher.featureOptions(
                        SimHashSketcher.Features.WORDS, ShingleOptions.defaults());
        SimHash simHash = SimHash.defaults();
        GaussianSimHash gaussian = new GaussianSimHash(256, GaussianSimHash.DEFAULT_SEED);
        SimHashSketcher plain = new SimHashSketcher(words, simHash, new PermutedBlocks(layout));
        SimHashSketcher verified =
                new SimHashSketcher(words, simHash, new PermutedBlocks(layout), gaussian);
        long[] features = new SplittableRandom(5).longs(200).toArray();
        DocumentSketcher.Sketch a = plain.sketch(features);
        DocumentSketcher.Sketch b = verified.sketch(features);
        assertThat(b.signature()).hasSize(5);
        assertThat(Arrays.copyOf(b.signature(), 1)).isEqualTo(a.signature());
        assertThat(Arrays.copyOfRange(b.signature(), 1, 5))
                .isEqualTo(gaussian.fingerprint(features));
        assertThat(b.bandKeys()).isEqualTo(a.bandKeys());
        assertThat(b.identity()).isEqualTo(a.identity());
    }

    @Test
    void theDedupeJudgesAndBandsAsTheBuckets() {
        NearDupSettings s = cosine();
        CosineMode mode = (CosineMode) SimilarityMode.of(s);
        Verification.Cosine v = mode.bitsVerification();
        MemberSketches sketches = mode.memberSketches(mode.candidateBanding(false, 0.95), false);
        PermutedBlocks tables = new PermutedBlocks(settings(s).blocks());
        for (int h = 0; h <= 20; h += 4) {
            for (int index : new int[] {0, 2, 30}) {
                byte[][] p = pair(v, index, h);
                long[] a = Verification.Cosine.unpack(p[0]);
                long[] b = Verification.Cosine.unpack(p[1]);
                assertThat(sketches.estimate(p[0], p[1]))
                        .isEqualTo(v.estimate(p[0], p[1]).similarity())
                        .isEqualTo(mode.estimate(a, b));
                assertThat(sketches.bandKeys(a)).isEqualTo(tables.bandKeys(new long[] {a[0]}));
                assertThat(sketches.firstAgreeingBand(p[0], p[1]))
                        .isEqualTo(tables.firstAgreeingBand(new long[] {a[0]}, new long[] {b[0]}));
            }
        }
    }
}
