package dev.neardup.similarity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.CosineSettings;
import dev.neardup.config.CosineVerify;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.Settings;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.SimHashSketcher;
import dev.neardup.pipeline.StateCompatibility;
import dev.neardup.text.ContentType;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * {@code neardup.simhash.verify}: EXACT by default (384 screen bits), BITS judging on 256 bits;
 * EXACT verifying through the sample store on the term-frequency vectors, screened in the buckets
 * on the verification bits, the refusals, the settings line and the state shape.
 */
class CosineExactSettingsTest {

    private static NearDupSettings cosine(String... keyValues) {
        return Settings.cosine(keyValues);
    }

    private static final String VERIFY = "neardup.simhash.verify";

    @Test
    void bitsVerifiesInTheBucketsOn256Bits() {
        NearDupSettings s = cosine(VERIFY, "BITS");
        assertThat(((CosineSettings) s.similarity()).verify()).isEqualTo(CosineVerify.BITS);
        assertThat(((CosineSettings) s.similarity()).verifyBits()).isEqualTo(256);
        SimilarityMode mode = SimilarityMode.of(s);
        assertThat(mode.candidateSite()).isEqualTo(CandidateSite.BUCKETS);
        assertThat(mode.verification()).isInstanceOf(Verification.Cosine.class);
        assertThat(StateCompatibility.shape(s))
                .containsEntry(VERIFY, "BITS")
                .containsEntry("neardup.simhash.verify-bits", "256");
    }

    @Test
    void exactIsTheDefaultAndVerifiesTheTermFrequencyVectorsInTheSampleStore() {
        NearDupSettings s = cosine();
        CosineSettings c = (CosineSettings) s.similarity();
        assertThat(c.exact()).isTrue();
        assertThat(c.verifyBits()).as("384 bits screen the candidates").isEqualTo(384);
        SimilarityMode mode = SimilarityMode.of(s);
        assertThat(mode.candidateSite()).isEqualTo(CandidateSite.SAMPLE_STORE);
        var exact = (Verification.CosineExact) mode.verification();
        assertThat(exact.screenBytes()).isEqualTo(48);
        assertThat(exact.screenMaxHamming()).isEqualTo(35);
        assertThat(mode.describe())
                .contains(" verify=exact ")
                .contains("candidates screened on 384 Gaussian bits, h <= 35")
                .doesNotContain("verify-bits")
                .contains("5 blocks, 10 tables");
        assertThat(mode.describeEstimate(0.995)).contains("exact cosine");
        Map<String, String> shape = StateCompatibility.shape(s);
        assertThat(shape)
                .containsEntry(VERIFY, "EXACT")
                .containsEntry("neardup.simhash.verify-bits", "384");
        assertThat(
                        ((CosineSettings) cosine("neardup.simhash.verify-bits", "256").similarity())
                                .verifyBits())
                .isEqualTo(256);
    }

    @Test
    void aBatchJobJudgesCosineOnTheBitsUnlessTold() {
        Configuration conf = new Configuration();
        conf.setString("neardup.similarity", "COSINE");
        var batch = NearDupSettings.from(dev.neardup.config.ModeSettings.forBatch(conf));
        assertThat(((CosineSettings) batch.similarity()).verify()).isEqualTo(CosineVerify.BITS);
        assertThat(((CosineSettings) batch.similarity()).verifyBits()).isEqualTo(256);
        conf.setString(VERIFY, "EXACT");
        assertThat(dev.neardup.config.ModeSettings.forBatch(conf)).isSameAs(conf);
        Configuration jaccard = new Configuration();
        assertThat(dev.neardup.config.ModeSettings.forBatch(jaccard)).isSameAs(jaccard);
    }

    @Test
    void exactWithoutScreenSendsEveryCandidateAndRestoresItsEarlierState() {
        NearDupSettings s = cosine(VERIFY, "EXACT", "neardup.simhash.verify-bits", "0");
        SimilarityMode mode = SimilarityMode.of(s);
        assertThat(mode.verification().screenBytes()).isZero();
        assertThat(mode.describe()).contains("every candidate");
        assertThat(StateCompatibility.shape(s)).doesNotContainKey("neardup.simhash.verify-bits");
        // Exact state of the release before screens recorded no verification bits: refused with
        // the default screen, naming the setting; restored without a screen.
        Map<String, String> before = StateCompatibility.shape(s);
        String beforeState = StateCompatibility.encode(before);
        assertThat(StateCompatibility.check(List.of(beforeState), s)).isEmpty();
        assertThatThrownBy(
                        () ->
                                StateCompatibility.check(
                                        List.of(beforeState), cosine(VERIFY, "EXACT")))
                .rootCause()
                .hasMessageContaining("neardup.simhash.verify-bits was (not recorded), now 384");
    }

    @Test
    void theSketchIsTheTermFrequencyVectorWithTheSameTableKeys() {
        String text = "the quick brown fox jumps over the lazy dog and the fox sleeps";
        DocumentSketcher.Sketch bits =
                SimilarityMode.of(cosine(VERIFY, "BITS"))
                        .newSketcher()
                        .sketch(text, ContentType.TEXT);
        DocumentSketcher.Sketch exact =
                SimilarityMode.of(cosine(VERIFY, "EXACT", "neardup.simhash.verify-bits", "256"))
                        .newSketcher()
                        .sketch(text, ContentType.TEXT);
        assertThat(exact.bandKeys()).containsExactly(bits.bandKeys());
        assertThat(exact.identity()).isEqualTo(bits.identity());
        long[] sketch = exact.signature();
        // The vector, then the 4 words of the screen: the same Gaussian bits as BITS verifies on.
        assertThat(java.util.Arrays.copyOfRange(sketch, sketch.length - 4, sketch.length))
                .containsExactly(
                        java.util.Arrays.copyOfRange(bits.signature(), 1, bits.signature().length));
        long[] tf = java.util.Arrays.copyOf(sketch, sketch.length - 4);
        assertThat(tf).hasSize(2 * 10); // 10 distinct words of 13
        long total = 0;
        for (int i = 0; i < tf.length; i += 2) {
            total += tf[i + 1];
        }
        assertThat(total).isEqualTo(13);
        assertThat(tf)
                .isEqualTo(
                        SimHashSketcher.termFrequencies(
                                new dev.neardup.text.Shingler(
                                                SimilarityMode.of(cosine()).features())
                                        .shingleHashes(text, ContentType.TEXT)));
    }

    @Test
    void screenBitsOutOfRangeAreRefusedSayingWhatZeroDoes() {
        assertThatThrownBy(() -> cosine(VERIFY, "EXACT", "neardup.simhash.verify-bits", "100"))
                .hasMessageContaining("neardup.simhash.verify-bits")
                .hasMessageContaining("verify every candidate");
    }

    @Test
    void theSettingIsCosineOnly() {
        Configuration conf = new Configuration();
        conf.setString(VERIFY, "EXACT");
        assertThatThrownBy(() -> NearDupSettings.from(conf))
                .hasMessageContaining(VERIFY)
                .hasMessageContaining("cosine");
    }

    @Test
    void dedupeRefusesExactNamingTheSetting() {
        SimilarityMode mode = SimilarityMode.of(cosine(VERIFY, "EXACT"));
        assertThatThrownBy(mode::batch).hasMessageContaining(VERIFY).hasMessageContaining("BITS");
        assertThat(SimilarityMode.of(cosine(VERIFY, "BITS")).batch()).isNotNull();
    }

    @Test
    void stateOfTheOtherVerificationIsRefusedAndOlderCosineStateIsBits() {
        NearDupSettings bits = cosine(VERIFY, "BITS");
        NearDupSettings exact = cosine(VERIFY, "EXACT", "neardup.simhash.verify-bits", "256");
        String bitsState = StateCompatibility.encode(StateCompatibility.shape(bits));
        assertThatThrownBy(() -> StateCompatibility.check(List.of(bitsState), exact))
                .rootCause()
                .hasMessageContaining("neardup.simhash.verify was BITS, now EXACT");
        String exactState = StateCompatibility.encode(StateCompatibility.shape(exact));
        assertThatThrownBy(() -> StateCompatibility.check(List.of(exactState), bits))
                .rootCause()
                .hasMessageContaining("neardup.simhash.verify was EXACT, now BITS");
        // State from before the setting existed did not record it: it verified on bits.
        Map<String, String> older = new java.util.LinkedHashMap<>(StateCompatibility.shape(bits));
        older.remove(VERIFY);
        String olderState = StateCompatibility.encode(older);
        assertThat(StateCompatibility.check(List.of(olderState), bits)).isEmpty();
        assertThatThrownBy(() -> StateCompatibility.check(List.of(olderState), exact))
                .rootCause()
                .hasMessageContaining("neardup.simhash.verify was BITS, now EXACT");
    }
}
