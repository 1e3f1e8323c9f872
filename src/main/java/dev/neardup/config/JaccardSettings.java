package dev.neardup.config;

import static dev.neardup.config.ConfigException.require;

import dev.neardup.lsh.LshParams;
import java.util.Optional;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Resemblance: the Jaccard threshold and the LSH banding (given, or tuned for the threshold).
 *
 * @param threshold the Jaccard similarity from which documents are near-duplicates
 * @param banding b bands of r rows
 */
public record JaccardSettings(double threshold, LshParams banding) implements ModeSettings {

    public static JaccardSettings from(ReadableConfig config) {
        double threshold = config.get(NearDupOptions.THRESHOLD);
        int numHashes = config.get(NearDupOptions.NUM_HASHES);
        Optional<Integer> bands = config.getOptional(NearDupOptions.BANDS);
        Optional<Integer> rows = config.getOptional(NearDupOptions.ROWS);
        if (bands.isEmpty()) {
            double fp = config.get(NearDupOptions.FP_WEIGHT);
            double fn = config.get(NearDupOptions.FN_WEIGHT);
            ModeSettings.requireWeights(fp, fn);
            return new JaccardSettings(threshold, LshParams.suggest(threshold, numHashes, fp, fn));
        }
        require(
                bands.get() >= 1 && rows.get() >= 1,
                NearDupOptions.BANDS.key(),
                "bands and rows must be at least 1");
        LshParams banding = new LshParams(bands.get(), rows.get());
        require(
                banding.numHashesUsed() <= numHashes,
                NearDupOptions.BANDS.key(),
                "bands x rows = %s exceeds %s = %s"
                        .formatted(
                                banding.numHashesUsed(),
                                NearDupOptions.NUM_HASHES.key(),
                                numHashes));
        return new JaccardSettings(threshold, banding);
    }

    @Override
    public int bandKeys() {
        return banding.bands();
    }
}
