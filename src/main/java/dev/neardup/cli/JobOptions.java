package dev.neardup.cli;

import dev.neardup.pipeline.NearDupOptions;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.runtime.Durations;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.NeardupException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.StateBackendOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options of the job itself, shared as a picocli {@code @Mixin} by the commands that run it
 * ({@code run}, {@code evaluate}): threshold, text and sketch options, banding, bucket bounds,
 * parallelism, state backend, and any Flink or neardup option with {@code -D}. {@link
 * #toConfiguration()} maps them onto {@link NearDupOptions} and Flink's options.
 *
 * <p>The flags have no default of their own (null: not given): a flag sets its option only when it
 * is named, so that a value from {@code -D} or the cluster's {@code config.yaml} stays in force
 * otherwise, and the defaults live in one place, {@link NearDupOptions} (which {@code --help} shows
 * through {@link OptionDefaults}). Precedence: a flag, then {@code -D key=value}, then the
 * cluster's configuration (job jar on a cluster), then the option's default.
 */
final class JobOptions {

    @Mixin SketchOptions sketch;

    @Mixin SimilarityOptions similarity;

    @Mixin BandsOptions banding;

    @Option(
            names = "--bucket-capacity",
            paramLabel = "N",
            description =
                    "Most documents a band bucket keeps: the earliest (by fetchedAt, then id);"
                        + " exact copies count once. Default: ${bundle:neardup.bucket.capacity}.")
    Integer bucketCapacity;

    @Option(
            names = "--retention",
            paramLabel = "DURATION",
            description =
                    "How far apart in event time two documents may be and still be compared,"
                            + " e.g. 7d, 12h. Default: ${bundle:neardup.retention}.")
    String retention;

    @Option(
            names = "--signature-bits",
            paramLabel = "B",
            description =
                    "Bits of each MinHash value a bucket keeps per member to verify candidates:"
                            + " 1, 2, 4, 8 or 16. More bits, a slightly more precise estimate and"
                            + " more state. Default: ${bundle:neardup.bucket.signature-bits}.")
    Integer signatureBits;

    @Option(
            names = "--max-out-of-orderness",
            paramLabel = "DURATION",
            description =
                    "Kafka: how far fetchedAt may go back within one partition; a verdict is"
                            + " final this long after its document's fetchedAt. Default:"
                            + " ${bundle:neardup.watermark.max-out-of-orderness}.")
    String maxOutOfOrderness;

    @Option(
            names = "--idle-timeout",
            paramLabel = "DURATION",
            description =
                    "Kafka: a partition without records for this long counts as caught up, so"
                            + " the last documents before a pause get their verdicts."
                            + " Default: ${bundle:neardup.watermark.idle-timeout}.")
    String idleTimeout;

    @Option(
            names = {"--parallelism", "-p"},
            paramLabel = "N",
            description = "Parallelism of the job. Default: the number of CPU cores.")
    Integer parallelism;

    @Option(
            names = "--state-backend",
            paramLabel = "rocksdb|hashmap",
            description =
                    "Keyed state backend: rocksdb (on disk, scales) or hashmap (on the heap,"
                            + " fast for small inputs). Default: rocksdb (on a Flink cluster: the"
                            + " cluster's state.backend.type).")
    String stateBackend;

    @Option(
            names = {"-D"},
            paramLabel = "KEY=VALUE",
            parameterConsumer = KeyValueOption.class,
            description =
                    "Any Flink or neardup configuration option (repeatable). A flag above beats"
                            + " -D for its option; -D beats the cluster's config.yaml.")
    Map<String, String> properties = new LinkedHashMap<>();

    /**
     * The options as a Flink configuration: the {@code -D} properties, then the flags that were
     * given (a flag beats {@code -D} for its option). Options not named are not set, so that the
     * cluster's configuration or the option's default applies. A usage error names the bad option.
     */
    Configuration toConfiguration() {
        Configuration conf = new Configuration();
        ConfigKeys.check(properties, "-D");
        properties.forEach(conf::setString);
        sketch.applyTo(conf);
        similarity.applyTo(conf);
        banding.applyTo(conf, similarity);
        if (bucketCapacity != null) {
            conf.set(NearDupOptions.BUCKET_CAPACITY, bucketCapacity);
        }
        if (retention != null) {
            conf.set(NearDupOptions.RETENTION, Durations.parse("--retention", retention));
        }
        if (signatureBits != null) {
            conf.set(NearDupOptions.SIGNATURE_BITS, signatureBits);
        }
        if (maxOutOfOrderness != null) {
            conf.set(
                    NearDupOptions.MAX_OUT_OF_ORDERNESS,
                    Durations.parse("--max-out-of-orderness", maxOutOfOrderness));
        }
        if (idleTimeout != null) {
            conf.set(NearDupOptions.IDLE_TIMEOUT, Durations.parse("--idle-timeout", idleTimeout));
        }
        if (stateBackend != null) {
            if (!stateBackend.equalsIgnoreCase("rocksdb")
                    && !stateBackend.equalsIgnoreCase("hashmap")) {
                throw NeardupException.usage(
                        "--state-backend must be rocksdb or hashmap, got " + stateBackend);
            }
            conf.set(StateBackendOptions.STATE_BACKEND, stateBackend.toLowerCase(Locale.ROOT));
        }
        if (parallelism != null) {
            if (parallelism < 1) {
                throw NeardupException.usage(
                        "--parallelism must be at least 1, got " + parallelism);
            }
            conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        }
        return conf;
    }

    /**
     * The configuration the job runs with on a Flink cluster: {@code cluster} (its config.yaml and
     * the {@code flink run -D} options), overridden by {@code job} (this command line's {@code -D}
     * and flags). An unknown {@code neardup.*} key in the cluster's configuration is a usage error,
     * as it is in {@code -D}.
     */
    static Configuration onCluster(Configuration cluster, Configuration job) {
        ConfigKeys.check(cluster, "in the cluster's configuration: config.yaml or 'flink run -D'");
        Configuration merged = new Configuration(cluster);
        merged.addAll(job);
        return merged;
    }

    /** The validated job settings of {@code conf}; an invalid option is a usage error. */
    static NearDupSettings settings(Configuration conf) {
        return EmbeddedJob.settings(conf);
    }
}
