package dev.neardup.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.CosineSettings;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.Settings;
import dev.neardup.lsh.BandKeys;
import dev.neardup.lsh.BlockParams;
import dev.neardup.pipeline.StateCompatibility;
import dev.neardup.sketch.SimHash;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * {@code neardup.simhash.table-hamming}: the tables' radius k_t apart from the threshold's k. The
 * threshold, the verification and the screen stay at k; the layout is chosen for k_t, so that every
 * pair within k_t is a candidate; the refusals; the state shape and the restore of state recorded
 * before the setting existed.
 */
class CosineTableHammingTest {

    private static final String KT = "neardup.simhash.table-hamming";

    private static NearDupSettings cosine(String... keyValues) {
        return Settings.cosine(keyValues);
    }

    private static CosineSettings settings(NearDupSettings s) {
        return (CosineSettings) s.similarity();
    }

    @Test
    void byDefaultTheTablesHaveTheThresholdsRadius() {
        CosineSettings c = settings(cosine());
        assertThat(c.maxHamming()).isEqualTo(3);
        assertThat(c.tableHamming()).isEqualTo(3);
        assertThat(c.blocks()).isEqualTo(new BlockParams(64, 3, 5));
        assertThat(c.bandKeys()).isEqualTo(10);
        assertThat(SimilarityMode.of(cosine()).describe())
                .doesNotContain("table-hamming")
                .contains("max-hamming=3 (cosine >= 0.989) 5 blocks, 10 tables");
    }

    @Test
    void aWiderRadiusChangesTheTablesButNotTheThresholdOrTheVerification() {
        NearDupSettings s = cosine(KT, "4");
        CosineSettings c = settings(s);
        assertThat(c.maxHamming()).isEqualTo(3);
        assertThat(c.tableHamming()).isEqualTo(4);
        assertThat(c.threshold()).isEqualTo(SimHash.cosine(3, 64));
        // suggestForCorpus(64, 4, 1,000,000, 1): 6 blocks give 6.2 random candidates, 7 give 0.2.
        assertThat(c.blocks()).isEqualTo(new BlockParams(64, 4, 7));
        assertThat(c.bandKeys()).as("C(7, 4) tables").isEqualTo(35);
        SimilarityMode mode = SimilarityMode.of(s);
        var exact = (Verification.CosineExact) mode.verification();
        assertThat(exact.threshold()).isEqualTo(SimHash.cosine(3, 64));
        assertThat(exact.screenMaxHamming())
                .isEqualTo(
                        ((Verification.CosineExact) SimilarityMode.of(cosine()).verification())
                                .screenMaxHamming());
        assertThat(mode.describe())
                .contains("max-hamming=3 (cosine >= 0.989) table-hamming=4 7 blocks, 35 tables");
        assertThat(settings(cosine(KT, "4", "neardup.simhash.blocks", "8")).blocks())
                .isEqualTo(new BlockParams(64, 4, 8));
        assertThat(settings(cosine(KT, "5")).blocks()).isEqualTo(new BlockParams(64, 5, 9));
    }

    @Test
    void withBitsTheVerificationBitsStillJudgeAtTheThreshold() {
        NearDupSettings s =
                cosine(
                        KT,
                        "4",
                        "neardup.simhash.verify",
                        "BITS",
                        "neardup.simhash.verify-bits",
                        "256");
        CosineSettings c = settings(s);
        assertThat(c.verifyMaxHamming()).as("k V / D = 3 * 256 / 64").isEqualTo(12);
        var bits = (Verification.Cosine) SimilarityMode.of(s).verification();
        assertThat(bits.maxDistance()).isEqualTo(12);
        assertThat(bits.accepts(SimHash.cosine(3, 64))).isTrue();
        assertThat(bits.accepts(bits.cosine(13))).as("13 of 256: below the threshold").isFalse();
    }

    @Test
    void everyPairWithinTheTablesRadiusSharesAKeyWhichTheDefaultTablesMiss() {
        BandKeys wide = ((CosineMode) SimilarityMode.of(cosine(KT, "4"))).bandKeys(null);
        BandKeys narrow = ((CosineMode) SimilarityMode.of(cosine())).bandKeys(null);
        SplittableRandom random = new SplittableRandom(46);
        int missedByNarrow = 0;
        for (int trial = 0; trial < 20_000; trial++) {
            long[] a = {random.nextLong()};
            long[] b = a.clone();
            int h = 4 - trial % 2; // 4 and 3 apart
            java.util.BitSet flipped = new java.util.BitSet();
            while (flipped.cardinality() < h) {
                flipped.set(random.nextInt(64));
            }
            flipped.stream().forEach(i -> b[0] ^= 1L << i);
            assertThat(shareKey(wide.bandKeys(a), wide.bandKeys(b)))
                    .as("%d bits apart", h)
                    .isTrue();
            assertThat(wide.firstAgreeingBand(a, b)).isNotNegative();
            boolean narrowShares = shareKey(narrow.bandKeys(a), narrow.bandKeys(b));
            if (h == 3) {
                assertThat(narrowShares).isTrue();
            } else if (!narrowShares) {
                missedByNarrow++;
            }
        }
        // 4 flips in 4 of the 5 blocks leave one block whole, and each of the 10 tables keys 2:
        // (13^4 + 4 * 13^3 * 12) / C(64, 4) = 0.211 of the 10,000 pairs 4 bits apart.
        assertThat(missedByNarrow).isBetween(1_900, 2_330);
    }

    private static boolean shareKey(long[] ka, long[] kb) {
        for (int t = 0; t < ka.length; t++) {
            if (ka[t] == kb[t]) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aWiderRadiusMakesAPairJustAboveTheThresholdMoreOftenACandidate() {
        BlockParams narrow = settings(cosine()).blocks();
        BlockParams wide = settings(cosine(KT, "4")).blocks();
        // A pair 2.5 bits apart on average: the middle of the first range above the threshold.
        double p = 2.5 / 64;
        assertThat(narrow.candidateProbability(p)).isBetween(0.85, 0.95);
        assertThat(wide.candidateProbability(p))
                .isBetween(0.95, 0.99)
                .isGreaterThan(narrow.candidateProbability(p) + 0.04);
    }

    @Test
    void aRadiusBelowKOrTooWideIsRefused() {
        assertThatThrownBy(() -> cosine(KT, "2"))
                .hasMessageStartingWith("invalid option " + KT + ": must be at least k = 3")
                .hasMessageContaining("got 2");
        assertThatThrownBy(() -> cosine("neardup.max-hamming", "5", KT, "4"))
                .hasMessageContaining("must be at least k = 5");
        assertThatThrownBy(() -> cosine(KT, "32"))
                .hasMessageStartingWith(
                        "invalid option " + KT + ": must be below half the fingerprint length");
        assertThatThrownBy(() -> cosine(KT, "4", "neardup.simhash.blocks", "4"))
                .hasMessageStartingWith(
                        "invalid option neardup.simhash.blocks: must exceed the tables' radius "
                                + KT
                                + " = 4");
        assertThatThrownBy(() -> cosine(KT, "12", "neardup.simhash.blocks", "40"))
                .hasMessageStartingWith("invalid option neardup.simhash.blocks: 40 blocks at k")
                .hasMessageContaining("use fewer blocks");
        Configuration jaccard = new Configuration();
        jaccard.setString(KT, "4");
        assertThatThrownBy(() -> NearDupSettings.from(jaccard))
                .hasMessageStartingWith(
                        "invalid option " + KT + ": applies to cosine similarity only");
    }

    @Test
    void onTheFingerprintAloneAWiderRadiusIsRefusedSinceTheFingerprintRejectsWhatItAdds() {
        assertThatThrownBy(
                        () ->
                                cosine(
                                        KT,
                                        "4",
                                        "neardup.simhash.verify",
                                        "BITS",
                                        "neardup.simhash.verify-bits",
                                        "0"))
                .hasMessageStartingWith("invalid option " + KT + ": 4 above k = 3")
                .hasMessageContaining("Keep it at 3");
        assertThat(
                        settings(
                                        cosine(
                                                KT,
                                                "3",
                                                "neardup.simhash.verify",
                                                "BITS",
                                                "neardup.simhash.verify-bits",
                                                "0"))
                                .blocks())
                .isEqualTo(new BlockParams(64, 3, 5));
        // Exact verification without a screen judges on the vectors: allowed.
        assertThat(settings(cosine(KT, "4", "neardup.simhash.verify-bits", "0")).bandKeys())
                .isEqualTo(35);
    }

    @Test
    void theStateRecordsTheRadiusAndStateFromBeforeItRestoresAtK() {
        NearDupSettings standard = cosine();
        NearDupSettings wide = cosine(KT, "4");
        assertThat(StateCompatibility.shape(standard))
                .containsEntry("neardup.max-hamming", "3")
                .containsEntry(KT, "3")
                .containsEntry("neardup.simhash.blocks", "5");
        assertThat(StateCompatibility.shape(wide))
                .containsEntry("neardup.max-hamming", "3")
                .containsEntry(KT, "4")
                .containsEntry("neardup.simhash.blocks", "7");
        // State from before the setting recorded no radius: its tables had radius k.
        Map<String, String> before = new LinkedHashMap<>(StateCompatibility.shape(standard));
        before.remove(KT);
        String beforeState = StateCompatibility.encode(before);
        assertThat(StateCompatibility.check(List.of(beforeState), standard)).isEmpty();
        assertThatThrownBy(() -> StateCompatibility.check(List.of(beforeState), wide))
                .rootCause()
                .hasMessageContaining(KT + " was 3, now 4")
                .hasMessageContaining("neardup.simhash.blocks was 5, now 7");
        String wideState = StateCompatibility.encode(StateCompatibility.shape(wide));
        assertThatThrownBy(() -> StateCompatibility.check(List.of(wideState), standard))
                .rootCause()
                .hasMessageContaining(KT + " was 4, now 3");
        assertThat(StateCompatibility.check(List.of(wideState), cosine(KT, "4"))).isEmpty();
    }
}
