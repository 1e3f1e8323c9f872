package dev.neardup.cli;

import static dev.neardup.config.NearDupOptions.*;

import dev.neardup.config.ConfigException;
import dev.neardup.config.ConfigKeys;
import dev.neardup.config.ModeSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.RuntimeOptions;
import dev.neardup.config.Setting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The configuration of a command that runs or describes the job ({@code run}, {@code evaluate},
 * {@code dedupe}, {@code bench}, {@code tune}, {@code compare}), shared as a picocli
 * {@code @Mixin}: {@code -D}, {@code --containment} and the flags of the settings the command takes
 * ({@link SettingFlags}). {@link #toConfiguration()} puts them into one Flink configuration, the
 * flags over {@code -D}.
 *
 * <p>The flags have no default of their own: a flag sets its option only when it is named, so that
 * a value from {@code -D} or the cluster's {@code config.yaml} stays in force otherwise, and the
 * defaults live with the options. Precedence: a flag, then {@code -D key=value}, then the cluster's
 * configuration (job jar on a cluster), then the option's default.
 */
final class JobOptions {

    /** The similarity settings: mode, threshold, text, sketch and bands. */
    static final List<ConfigOption<?>> SIMILARITY_SETTINGS =
            concat(
                    List.of(THRESHOLD, SIMILARITY),
                    ModeSettings.MODE_OPTIONS,
                    List.of(
                            SHINGLE_KIND,
                            SHINGLE_SIZE,
                            STOP_WORDS,
                            STEMMING,
                            NUM_HASHES,
                            ALGORITHM,
                            BANDS,
                            ROWS));

    /** What {@code run} and {@code evaluate} take: the similarity, buckets, watermarks, runtime. */
    static final List<ConfigOption<?>> JOB_SETTINGS =
            concat(
                    SIMILARITY_SETTINGS,
                    List.of(
                            BUCKET_CAPACITY,
                            RETENTION,
                            SIGNATURE_BITS,
                            MAX_OUT_OF_ORDERNESS,
                            IDLE_TIMEOUT,
                            RuntimeOptions.PARALLELISM,
                            RuntimeOptions.STATE_BACKEND,
                            INPUT_FORMAT));

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(
            names = "--containment",
            paramLabel = "T",
            description =
                    "Containment mode: find pages contained in others, |A n B| / |A| >= T"
                            + " (a quoted article, a page inside a digest), either way round;"
                            + " alerts and verdicts say which is in which (direction)."
                            + " Candidates from MinHash bands tuned per pair of size partitions"
                            + " (LSH Ensemble), verified on bottom-s samples. Sets --similarity"
                            + " containment and --threshold T. E.g. --containment 0.8.")
    String containment;

    @Option(
            names = {"-D"},
            paramLabel = "KEY=VALUE",
            parameterConsumer = KeyValueOption.class,
            description =
                    "Any Flink or neardup configuration option (repeatable). A flag beats -D for"
                            + " its option; -D beats the cluster's config.yaml.")
    Map<String, String> properties = new LinkedHashMap<>();

    /**
     * The options as a Flink configuration: the {@code -D} properties, then the flags that were
     * given (a flag beats {@code -D} for its option). Options not named are not set, so that the
     * cluster's configuration or the option's default applies. Each value is checked where the
     * settings are read; an unknown key or a duration without its unit fails here.
     */
    Configuration toConfiguration() {
        ConfigKeys.check(properties, "-D");
        Configuration conf = new Configuration();
        properties.forEach(conf::setString);
        Map<String, String> flags = SettingFlags.given(command);
        if (containment != null) {
            for (var e : NearDupOptions.containment(containment).entrySet()) {
                if (flags.containsKey(e.getKey())) {
                    throw new ConfigException(
                            Setting.forKey(e.getKey()).flags().get(0)
                                    + " and --containment both set "
                                    + e.getKey()
                                    + ": give only one of them");
                }
                flags.put(e.getKey(), e.getValue());
            }
        }
        flags.forEach(conf::setString);
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

    @SafeVarargs
    static List<ConfigOption<?>> concat(List<ConfigOption<?>>... lists) {
        return java.util.Arrays.stream(lists).flatMap(List::stream).toList();
    }
}
