package dev.neardup.config;

import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.MinHashAlgorithm;
import dev.neardup.text.ShingleOptions;
import java.io.Serializable;
import org.apache.flink.configuration.ReadableConfig;

/**
 * How a document's text becomes a sketch: the shingling, the MinHash algorithm and K, the number of
 * MinHash values.
 */
public record TextSettings(ShingleOptions shingles, MinHashAlgorithm algorithm, int numHashes)
        implements Serializable {

    public static TextSettings from(ReadableConfig config) {
        ShingleOptions.Kind kind = config.get(NearDupOptions.SHINGLE_KIND);
        int size =
                config.getOptional(NearDupOptions.SHINGLE_SIZE)
                        .orElse(
                                kind == ShingleOptions.Kind.WORD
                                        ? ShingleOptions.DEFAULT_WORD_SIZE
                                        : ShingleOptions.DEFAULT_CHAR_SIZE);
        return new TextSettings(
                new ShingleOptions(
                        kind,
                        size,
                        config.get(NearDupOptions.STOP_WORDS),
                        config.get(NearDupOptions.STEMMING),
                        ShingleOptions.DEFAULT_SEED),
                config.get(NearDupOptions.ALGORITHM),
                config.get(NearDupOptions.NUM_HASHES));
    }

    /** A new MinHash of this algorithm and K, with the default seed. */
    public MinHash minHash() {
        return MinHash.create(algorithm, numHashes, MinHash.DEFAULT_SEED);
    }
}
