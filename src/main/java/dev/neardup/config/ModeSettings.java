package dev.neardup.config;

import static dev.neardup.config.ConfigException.require;

import java.io.Serializable;
import java.util.List;
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

    /** The options of containment mode only. */
    List<ConfigOption<?>> CONTAINMENT_OPTIONS =
            List.of(NearDupOptions.CONTAINMENT_MAX_RATIO, NearDupOptions.CONTAINMENT_SKETCH_SIZE);

    /** The options of cosine mode only. */
    List<ConfigOption<?>> COSINE_OPTIONS =
            List.of(
                    NearDupOptions.MAX_HAMMING,
                    NearDupOptions.SIMHASH_BITS,
                    NearDupOptions.SIMHASH_BLOCKS,
                    NearDupOptions.SIMHASH_TABLE_HAMMING,
                    NearDupOptions.SIMHASH_VERIFY,
                    NearDupOptions.SIMHASH_VERIFY_BITS,
                    NearDupOptions.SIMHASH_FEATURES);

    /**
     * The options that only one mode takes (each refused by the others), in the order the commands
     * show them: what a command that runs every mode takes besides the shared ones.
     */
    List<ConfigOption<?>> MODE_OPTIONS =
            java.util.stream.Stream.concat(CONTAINMENT_OPTIONS.stream(), COSINE_OPTIONS.stream())
                    .toList();

    /**
     * The options as a batch job reads them: what the streaming job verifies after its buckets, a
     * batch job verifies itself (its own {@code --verify}), so cosine pairs are judged on the bits
     * unless {@code neardup.simhash.verify} says otherwise (which the dedupe refuses).
     */
    static ReadableConfig forBatch(ReadableConfig config) {
        if (config.get(NearDupOptions.SIMILARITY) != SimilarityFamily.COSINE
                || config.getOptional(NearDupOptions.SIMHASH_VERIFY).isPresent()) {
            return config;
        }
        org.apache.flink.configuration.Configuration batch =
                org.apache.flink.configuration.Configuration.fromMap(config.toMap());
        batch.set(NearDupOptions.SIMHASH_VERIFY, CosineVerify.BITS);
        return batch;
    }

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
                    CONTAINMENT_OPTIONS);
        }
        if (cosine == null) {
            refuse(
                    config,
                    "applies to cosine similarity only: add "
                            + NearDupOptions.SIMILARITY.key()
                            + "=COSINE (--similarity cosine), or remove it",
                    COSINE_OPTIONS);
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

    private static void refuse(
            ReadableConfig config, String message, List<ConfigOption<?>> options) {
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
