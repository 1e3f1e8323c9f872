package dev.neardup.cli;

import dev.neardup.pipeline.NearDupOptions;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Option;

/**
 * {@code --bands} and {@code --rows}, the LSH banding of the jobs ({@code run}, {@code evaluate},
 * {@code dedupe}), shared as a picocli {@code @Mixin}. Like {@link JobOptions}' flags they have no
 * default of their own: a flag sets its {@link NearDupOptions} option only when it is named.
 */
final class BandsOptions {

    @Option(
            names = "--bands",
            paramLabel = "B",
            description =
                    "LSH bands. Default: chosen with --rows from the threshold (see 'neardup"
                            + " tune').")
    Integer bands;

    @Option(names = "--rows", paramLabel = "R", description = "LSH rows per band (with --bands).")
    Integer rows;

    /** Sets the options that were given, and only those. */
    void applyTo(Configuration conf) {
        if (bands != null) {
            conf.set(NearDupOptions.BANDS, bands);
        }
        if (rows != null) {
            conf.set(NearDupOptions.ROWS, rows);
        }
    }
}
