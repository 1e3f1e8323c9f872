package dev.neardup.config;

import static dev.neardup.config.ConfigException.require;

import java.io.Serializable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The settings of the similarity mode ({@code neardup.similarity}): each mode's record holds only
 * what that mode uses.
 */
public sealed interface ModeSettings extends Serializable
        permits JaccardSettings, CosineSettings, ContainmentSettings {

    /**
     * The similarity from which documents are near-duplicates: the Jaccard or containment
     * threshold, or for cosine cos(pi k / D).
     */
    double threshold();

    /** Band keys per document: b bands, the T tables of cosine, the keys of containment. */
    int bandKeys();

    /**
     * Reads and validates the mode's options, refusing those of the other modes.
     *
     * @throws IllegalArgumentException naming the offending option and its allowed values
     */
    static ModeSettings from(ReadableConfig config) {
        SimilarityFamily family = config.get(NearDupOptions.SIMILARITY);
        CosineSettings cosine =
                family == SimilarityFamily.COSINE ? CosineSettings.from(config) : null;
        if (family != SimilarityFamily.CONTAINMENT) {
            refuse(
                    config,
                    "applies to containment only: add "
                            + NearDupOptions.SIMILARITY.key()
                            + "=CONTAINMENT (--containment T), or remove it",
                    NearDupOptions.CONTAINMENT_SKETCH_SIZE,
                    NearDupOptions.CONTAINMENT_MAX_RATIO);
        }
        if (cosine == null) {
            refuse(
                    config,
                    "applies to cosine similarity only: add "
                            + NearDupOptions.SIMILARITY.key()
                            + "=COSINE (--similarity cosine), or remove it",
                    NearDupOptions.MAX_HAMMING,
                    NearDupOptions.SIMHASH_BITS,
                    NearDupOptions.SIMHASH_BLOCKS,
                    NearDupOptions.SIMHASH_VERIFY_BITS,
                    NearDupOptions.SIMHASH_FEATURES);
        }
        boolean bands = config.getOptional(NearDupOptions.BANDS).isPresent();
        require(
                bands == config.getOptional(NearDupOptions.ROWS).isPresent(),
                NearDupOptions.BANDS.key() + "/" + NearDupOptions.ROWS.key(),
                "set both or neither (neither: chosen from the threshold)");
        if (cosine != null) {
            require(
                    !bands,
                    NearDupOptions.BANDS.key() + "/" + NearDupOptions.ROWS.key(),
                    "LSH bands are for Jaccard similarity; with cosine the tables come from "
                            + NearDupOptions.MAX_HAMMING.key()
                            + " and "
                            + NearDupOptions.SIMHASH_BLOCKS.key());
            return cosine;
        }
        return family == SimilarityFamily.CONTAINMENT
                ? ContainmentSettings.from(config)
                : JaccardSettings.from(config);
    }

    private static void refuse(ReadableConfig config, String message, ConfigOption<?>... options) {
        for (ConfigOption<?> only : options) {
            require(config.getOptional(only).isEmpty(), only.key(), message);
        }
    }

    /** Checks the weights of the false positives and negatives that tune a banding. */
    static void requireWeights(double fp, double fn) {
        require(
                fp >= 0 && fn >= 0 && fp + fn > 0,
                NearDupOptions.FP_WEIGHT.key(),
                "weights must be >= 0 and not both 0");
    }
}
