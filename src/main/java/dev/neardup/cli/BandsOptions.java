package dev.neardup.cli;

import dev.neardup.config.NearDupOptions;
import dev.neardup.runtime.NeardupException;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Option;

/**
 * {@code --threshold}, {@code --bands} and {@code --rows}, the threshold and the LSH banding of the
 * jobs ({@code run}, {@code evaluate}, {@code dedupe}), shared as a picocli {@code @Mixin}. Like
 * {@link JobOptions}' flags they have no default of their own: a flag sets its {@link
 * NearDupOptions} option only when it is named.
 */
final class BandsOptions {

    @Option(
            names = "--threshold",
            paramLabel = "T",
            description =
                    "Jaccard similarity from which documents are near-duplicates, in (0, 1)."
                            + " With --similarity cosine: a cosine threshold, instead of"
                            + " --max-hamming. Default: ${bundle:neardup.threshold}.")
    Double threshold;

    @Option(
            names = "--bands",
            paramLabel = "B",
            description =
                    "LSH bands. Default: chosen with --rows from the threshold (see 'neardup"
                            + " tune').")
    Integer bands;

    @Option(names = "--rows", paramLabel = "R", description = "LSH rows per band (with --bands).")
    Integer rows;

    /**
     * Sets the options that were given, and only those.
     *
     * @throws NeardupException (usage) for --threshold with --containment, which is the threshold
     */
    void applyTo(Configuration conf, SimilarityOptions similarity) {
        if (threshold != null && similarity.containment != null) {
            throw NeardupException.usage(
                    "--threshold and --containment T both set the threshold: with containment,"
                            + " give only --containment T");
        }
        applyTo(conf);
    }

    /** Sets the options that were given, and only those. */
    void applyTo(Configuration conf) {
        if (threshold != null) {
            conf.set(NearDupOptions.THRESHOLD, threshold);
        }
        if (bands != null) {
            conf.set(NearDupOptions.BANDS, bands);
        }
        if (rows != null) {
            conf.set(NearDupOptions.ROWS, rows);
        }
    }
}
