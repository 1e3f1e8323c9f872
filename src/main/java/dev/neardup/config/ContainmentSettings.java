package dev.neardup.config;

import static dev.neardup.config.ConfigException.require;

import dev.neardup.lsh.ContainmentBanding;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Containment: the threshold t, the bottom-s sample a document is verified with, R and the weights
 * that tune the size-partitioned bandings.
 *
 * @param threshold t, the containment from which one document is a near-duplicate in another
 * @param numHashes K, the MinHash values the bandings cut
 * @param sketchSize s, the bottom-s sample kept per document
 * @param maxRatio R, the largest size ratio searched
 * @param fpWeight weight of false positives when tuning each banding
 * @param fnWeight weight of false negatives
 */
public record ContainmentSettings(
        double threshold,
        int numHashes,
        int sketchSize,
        double maxRatio,
        double fpWeight,
        double fnWeight)
        implements ModeSettings {

    public static ContainmentSettings from(ReadableConfig config) {
        require(
                config.getOptional(NearDupOptions.BANDS).isEmpty(),
                NearDupOptions.BANDS.key() + "/" + NearDupOptions.ROWS.key(),
                "with containment the bands are tuned per pair of size partitions from"
                        + " the threshold and "
                        + NearDupOptions.CONTAINMENT_MAX_RATIO.key()
                        + " (see 'neardup tune --containment T'); remove them");
        ContainmentSettings settings =
                new ContainmentSettings(
                        config.get(NearDupOptions.THRESHOLD),
                        config.get(NearDupOptions.NUM_HASHES),
                        config.get(NearDupOptions.CONTAINMENT_SKETCH_SIZE),
                        config.get(NearDupOptions.CONTAINMENT_MAX_RATIO),
                        config.get(NearDupOptions.FP_WEIGHT),
                        config.get(NearDupOptions.FN_WEIGHT));
        ModeSettings.requireWeights(settings.fpWeight, settings.fnWeight);
        try {
            settings.banding();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "invalid option %s: %s"
                            .formatted(NearDupOptions.CONTAINMENT_MAX_RATIO.key(), e.getMessage()));
        }
        return settings;
    }

    public ContainmentBanding banding() {
        return new ContainmentBanding(threshold, maxRatio, numHashes, fpWeight, fnWeight);
    }

    /** The size-partitioned keys play the part of b bands of one row (what verdicts count). */
    @Override
    public int bandKeys() {
        return banding().keysPerDocument();
    }
}
