package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.ContainmentSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.lsh.ContainmentBanding;
import dev.neardup.lsh.LshParams;
import dev.neardup.similarity.SimilarityMode;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Containment settings: the size-partitioned bandings and their key count (what the verdicts
 * count), the state shape that keeps containment state apart from resemblance state (whose shape is
 * unchanged), and the fail-fast messages of bad combinations.
 */
class ContainmentSettingsTest {

    private static Configuration containment(double t) {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.SIMILARITY, SimilarityFamily.CONTAINMENT);
        conf.set(NearDupOptions.THRESHOLD, t);
        return conf;
    }

    @Test
    void bandingsPerPartitionOffsetAndTheKeysTheVerdictsCount() {
        NearDupSettings s = NearDupSettings.from(containment(0.8));
        ContainmentBanding banding = ((ContainmentSettings) s.similarity()).banding();
        LshParams[] perOffset = banding.bandings();
        assertThat(perOffset).hasSize(3); // R = 4: offsets 0, 1, 2
        assertThat(banding.resemblanceThreshold(0)).isCloseTo(0.8 / 2.2, within());
        assertThat(banding.resemblanceThreshold(1)).isCloseTo(0.8 / 4.2, within());
        assertThat(banding.resemblanceThreshold(2)).isCloseTo(0.8 / 4.2, within());
        int keys = perOffset[0].bands() + 2 * (perOffset[1].bands() + perOffset[2].bands());
        assertThat(s.similarity().bandKeys()).isEqualTo(keys).isEqualTo(banding.keysPerDocument());
        assertThat(SimilarityMode.of(s).verification().packedBytes()).isEqualTo(2 + 4 * 128);
        assertThat(SimilarityMode.of(s).describe())
                .startsWith("containment=0.80")
                .contains("bottom-128");
    }

    private static org.assertj.core.data.Offset<Double> within() {
        return org.assertj.core.data.Offset.offset(1e-4);
    }

    @Test
    void theStateShapeNamesTheFamilyTheSketchAndTheSampleStoreAndResemblanceShapeIsUnchanged() {
        var shape = StateCompatibility.shape(NearDupSettings.from(containment(0.8)));
        assertThat(shape)
                .containsEntry("neardup.similarity", "CONTAINMENT")
                .containsEntry("neardup.containment.sketch-size", "128")
                .containsEntry("containment.bandings", "37x3,55x2,55x2")
                .containsEntry("containment.samples", "intake")
                .doesNotContainKey("neardup.bucket.signature-bits");
        var jaccard = StateCompatibility.shape(NearDupSettings.from(new Configuration()));
        assertThat(StateCompatibility.encode(jaccard))
                .isEqualTo(
                        "state-layout=6 neardup.similarity=JACCARD neardup.num-hashes=128"
                                + " neardup.minhash=OPH minhash-seed="
                                + Long.toHexString(dev.neardup.sketch.MinHash.DEFAULT_SEED)
                                + " neardup.bands=11 neardup.rows=11 band-key-seed="
                                + Long.toHexString(dev.neardup.lsh.Banding.DEFAULT_SEED)
                                + " neardup.shingle.kind=WORD neardup.shingle.size=5"
                                + " neardup.text.stop-words=false neardup.text.stemming=NONE"
                                + " shingle-seed="
                                + Long.toHexString(dev.neardup.text.ShingleOptions.DEFAULT_SEED)
                                + " neardup.bucket.signature-bits=2 tokenizer-version="
                                + dev.neardup.text.Tokenizer.CONTRACT_VERSION);
    }

    @Test
    void badCombinationsFailFastNamingTheOption() {
        Configuration bands = containment(0.8);
        bands.set(NearDupOptions.BANDS, 10);
        bands.set(NearDupOptions.ROWS, 2);
        assertThatThrownBy(() -> NearDupSettings.from(bands))
                .hasMessageContaining("neardup.bands")
                .hasMessageContaining("tuned per pair of size partitions");
        Configuration sketchWithoutContainment = new Configuration();
        sketchWithoutContainment.set(NearDupOptions.CONTAINMENT_SKETCH_SIZE, 64);
        assertThatThrownBy(() -> NearDupSettings.from(sketchWithoutContainment))
                .hasMessageContaining("neardup.containment.sketch-size")
                .hasMessageContaining("applies to containment only");
        Configuration ratio = containment(0.8);
        ratio.set(NearDupOptions.CONTAINMENT_MAX_RATIO, 100.0);
        assertThatThrownBy(() -> NearDupSettings.from(ratio))
                .hasMessageContaining("neardup.containment.max-size-ratio");
        Configuration tiny = containment(0.8);
        tiny.set(NearDupOptions.CONTAINMENT_SKETCH_SIZE, 4);
        assertThatThrownBy(() -> NearDupSettings.from(tiny))
                .hasMessageContaining("between 16 and 4096");
        assertThatThrownBy(() -> NearDupSettings.from(containment(1.0)))
                .hasMessageContaining("neardup.threshold");
    }
}
