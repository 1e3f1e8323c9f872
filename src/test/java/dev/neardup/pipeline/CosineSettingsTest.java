package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.CosineSettings;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.Settings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.lsh.BlockParams;
import dev.neardup.similarity.Estimate;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.similarity.Verification;
import dev.neardup.sketch.SimHash;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The cosine family's settings (defaults, the block-layout rule, validation messages) and its
 * {@link Verification}: the bucket's strategy that packs fingerprints, estimates cosine from their
 * Hamming distance and accepts pairs within k, against the Jaccard one.
 */
class CosineSettingsTest {

    private static NearDupSettings settings(String... keyValues) {
        return Settings.of(keyValues);
    }

    private static NearDupSettings cosine(String... keyValues) {
        return Settings.cosine(keyValues);
    }

    private static BlockParams blocks(NearDupSettings settings) {
        return ((CosineSettings) settings.similarity()).blocks();
    }

    @Test
    void defaultsAreJaccardAsBeforeAndCosineIs64BitsK3In10Tables() {
        NearDupSettings jaccard = settings();
        assertThat(SimilarityMode.of(jaccard).family()).isEqualTo(SimilarityFamily.JACCARD);
        assertThat(jaccard.similarity().bandKeys()).isEqualTo(11);
        assertThat(SimilarityMode.of(jaccard).verification())
                .isInstanceOf(Verification.Jaccard.class);

        NearDupSettings c = cosine();
        assertThat(blocks(c).bits()).isEqualTo(64);
        assertThat(blocks(c).maxHamming()).isEqualTo(3);
        // suggestForCorpus(64, 3, 1,000,000, 1): 4 blocks give 61 random candidates, 5 give 0.2.
        assertThat(blocks(c)).isEqualTo(new BlockParams(64, 3, 5));
        assertThat(new BlockParams(64, 3, 4).expectedRandomCandidates(1_000_000)).isGreaterThan(1);
        assertThat(blocks(c).expectedRandomCandidates(1_000_000)).isLessThan(1);
        assertThat(c.similarity().bandKeys()).isEqualTo(10);
        assertThat(c.similarity().threshold()).isEqualTo(SimHash.cosine(3, 64));
        assertThat(SimilarityMode.of(c).describe())
                .startsWith("similarity=cosine simhash-bits=64 max-hamming=3 (cosine >= 0.989)")
                .contains("5 blocks, 10 tables (keys of 25-26 bits) features=words");
    }

    @Test
    void theCorpusSizeChoosesTheLayoutAndExplicitBlocksOverrideIt() {
        assertThat(blocks(cosine("neardup.simhash.corpus-size", "1000")).blocks()).isEqualTo(4);
        assertThat(blocks(cosine("neardup.simhash.corpus-size", "100000000")).blocks())
                .isEqualTo(6);
        assertThat(blocks(cosine("neardup.simhash.blocks", "8")))
                .isEqualTo(new BlockParams(64, 3, 8));
    }

    @Test
    void anExplicitThresholdChoosesKButNotTogetherWithMaxHamming() {
        assertThat(blocks(cosine("neardup.threshold", "0.95")).maxHamming())
                .isEqualTo(SimHash.maxHamming(0.95, 64))
                .isEqualTo(6);
        assertThatThrownBy(() -> cosine("neardup.threshold", "0.95", "neardup.max-hamming", "3"))
                .hasMessageStartingWith("invalid option neardup.max-hamming: set it or")
                .hasMessageContaining("0.9892 for k = 3 at D = 64");
    }

    @Test
    void badCosineValuesAreRefusedWithWhatToDo() {
        assertThatThrownBy(() -> cosine("neardup.max-hamming", "32"))
                .hasMessageStartingWith(
                        "invalid option neardup.max-hamming: must be below half the fingerprint"
                                + " length (32 of 64 bits)")
                .hasMessageContaining("3 of 64 (cosine 0.989)");
        assertThatThrownBy(() -> cosine("neardup.max-hamming", "-1"))
                .hasMessageStartingWith("invalid option neardup.max-hamming: must be at least 0");
        assertThatThrownBy(() -> cosine("neardup.simhash.bits", "100"))
                .hasMessage(
                        "invalid option neardup.simhash.bits: must be a multiple of 64 from 64 to"
                                + " 1024, got 100");
        assertThatThrownBy(() -> cosine("neardup.simhash.blocks", "3"))
                .hasMessageStartingWith("invalid option neardup.simhash.blocks: must exceed k = 3");
        assertThatThrownBy(
                        () ->
                                cosine(
                                        "neardup.simhash.bits",
                                        "1024",
                                        "neardup.max-hamming",
                                        "40",
                                        "neardup.simhash.blocks",
                                        "60"))
                .hasMessageStartingWith("invalid option neardup.simhash.blocks: 60 blocks at k")
                .hasMessageContaining("use fewer blocks");
        assertThatThrownBy(() -> cosine("neardup.bands", "4", "neardup.rows", "2"))
                .hasMessageContaining("LSH bands are for Jaccard similarity");
        assertThatThrownBy(() -> settings("neardup.max-hamming", "3"))
                .hasMessage(
                        "invalid option neardup.max-hamming: applies to cosine similarity only:"
                                + " add neardup.similarity=COSINE (--similarity cosine), or remove"
                                + " it");
    }

    @Test
    void theCosineStrategyAcceptsExactlyTheDistancesUpToKAndReportsThem() {
        for (int bits : new int[] {64, 128, 1024}) {
            int k = bits / 16;
            Verification.Cosine v = new Verification.Cosine(bits, k);
            assertThat(v.packedBytes()).isEqualTo(bits / 8);
            SplittableRandom random = new SplittableRandom(bits);
            for (int trial = 0; trial < 200; trial++) {
                long[] a = new long[bits / 64];
                for (int w = 0; w < a.length; w++) {
                    a[w] = random.nextLong();
                }
                long[] b = a.clone();
                int h = random.nextInt(2 * k + 2);
                // flip h distinct bits
                java.util.BitSet flipped = new java.util.BitSet();
                while (flipped.cardinality() < h) {
                    flipped.set(random.nextInt(bits));
                }
                flipped.stream().forEach(i -> b[i >>> 6] ^= 1L << (i & 63));
                byte[] pa = v.pack(a);
                byte[] pb = v.pack(b);
                assertThat(Verification.Cosine.unpack(pa)).containsExactly(a);
                assertThat(v.distance(pa, pb)).isEqualTo(SimHash.hamming(a, b)).isEqualTo(h);
                Estimate e = v.estimate(pa, pb);
                assertThat(e.direction()).isNull();
                double estimate = e.similarity();
                assertThat(estimate).isEqualTo(SimHash.estimateCosine(a, b));
                assertThat(v.accepts(estimate)).as("h = %d, k = %d", h, k).isEqualTo(h <= k);
                assertThat(v.hamming(estimate)).isEqualTo(h);
            }
        }
        Verification.Cosine v = new Verification.Cosine(64, 3);
        assertThat(v.hamming(1.0)).isZero();
        assertThat(v.accepts(1.0)).isTrue();
        assertThatThrownBy(() -> new Verification.Cosine(64, 32))
                .hasMessageContaining("between 0 and 31");
    }

    @Test
    void theJaccardStrategyIsTheBbitEstimateAtTheThresholdWithoutHamming() {
        Verification.Jaccard v = new Verification.Jaccard(8, 16, 0.8);
        long[] a = {1, 2, 3, 4, 5, 6, 7, 8};
        long[] b = {1, 2, 3, 4, 5, 6, 7, 9};
        long[] c = {1, 2, 3, 4, 5, 6, 10, 9};
        assertThat(v.packedBytes()).isEqualTo(16);
        Estimate e = v.estimate(v.pack(a), v.pack(b));
        assertThat(e.direction()).isNull();
        double ab = e.similarity();
        assertThat(ab)
                .isEqualTo(dev.neardup.sketch.BbitMinHash.estimateJaccard(7, 8, 16))
                .isGreaterThan(0.8);
        assertThat(v.accepts(ab)).isTrue();
        assertThat(v.accepts(v.estimate(v.pack(a), v.pack(c)).similarity())).isFalse();
        assertThat(v.hamming(ab)).isNull();
    }

    /**
     * Containment is typed: the estimate in its direction, exact, and accepted at the threshold in
     * every direction (a direction packed into the double, value + 2 x code, lost the last bits:
     * 0.8 came back as 0.7999999999999998 and was refused unless the first was the contained one).
     */
    @Test
    void theContainmentStrategyGivesTheExactEstimateAndItsDirection() {
        Verification.Containment v = new Verification.Containment(16, 0.8);
        byte[] five = v.pack(new long[] {1, 2, 3, 4, 5});
        byte[] otherFive = v.pack(new long[] {1, 2, 3, 4, 6});
        byte[] ten = v.pack(new long[] {1, 2, 3, 4, 7, 8, 9, 10, 11, 12});
        Estimate mutual = v.estimate(five, otherFive);
        assertThat(mutual).isEqualTo(new Estimate(0.8, Estimate.Direction.MUTUAL));
        assertThat(mutual.reversed()).isEqualTo(mutual);
        assertThat(v.accepts(mutual.similarity())).isTrue();
        Estimate secondInFirst = v.estimate(ten, five);
        assertThat(secondInFirst).isEqualTo(new Estimate(0.8, Estimate.Direction.SECOND_IN_FIRST));
        assertThat(secondInFirst.reversed())
                .isEqualTo(new Estimate(0.8, Estimate.Direction.FIRST_IN_SECOND))
                .isEqualTo(v.estimate(five, ten));
        assertThat(secondInFirst.label()).isEqualTo(dev.neardup.io.Alert.DUPLICATE_IN_DOC);
        assertThat(secondInFirst.reversed().label())
                .isEqualTo(dev.neardup.io.Alert.DOC_IN_DUPLICATE);
        assertThat(v.estimate(five, v.pack(new long[] {1, 2, 3, 20, 21})).similarity())
                .as("3 of 5 both ways: no match")
                .isEqualTo(0.6);
        assertThat(v.identical()).isEqualTo(new Estimate(1.0, Estimate.Direction.MUTUAL));
        assertThat(v.hamming(0.8)).isNull();
    }
}
