package dev.neardup.cli;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.Setting;
import dev.neardup.runtime.KafkaPropertiesFiles;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The Kafka variant of {@code neardup run}: the settings of its topics, group and delivery (their
 * flags: {@link #SETTINGS}), client properties, and the state directory (heading: {@link
 * HelpSections}). They need {@code --bootstrap-servers}.
 */
final class KafkaOptions {

    /** The Kafka settings that {@code run} takes as flags. */
    static final List<ConfigOption<?>> SETTINGS =
            List.of(
                    NearDupOptions.KAFKA_BOOTSTRAP_SERVERS,
                    NearDupOptions.KAFKA_INPUT_TOPIC,
                    NearDupOptions.KAFKA_ALERTS_TOPIC,
                    NearDupOptions.KAFKA_VERDICTS_TOPIC,
                    NearDupOptions.KAFKA_DEAD_LETTER_TOPIC,
                    NearDupOptions.KAFKA_GROUP_ID,
                    NearDupOptions.KAFKA_STARTING_OFFSETS,
                    NearDupOptions.KAFKA_BOUNDED,
                    NearDupOptions.KAFKA_DELIVERY_GUARANTEE);

    @Option(
            names = "--kafka-property",
            paramLabel = "KEY=VALUE",
            parameterConsumer = KeyValueOption.class,
            description =
                    "A Kafka client property for the consumer and producers, e.g."
                            + " security.protocol=SASL_SSL (repeatable).")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(
            names = "--kafka-properties",
            paramLabel = "FILE|DIR",
            description =
                    "A properties file of Kafka client properties (SASL/SSL settings and"
                            + " secrets; values are never printed), or a directory whose"
                            + " *.properties files are read (none: no properties).")
    Path propertiesFile;

    @Option(
            names = "--state-dir",
            paramLabel = "DIR",
            description =
                    "Where the job keeps its state between runs, in DIR/TOPIC+GROUP (one"
                            + " directory per input topic and group id): its checkpoints, and"
                            + " the savepoint that Ctrl-C takes. A run resumes from the latest."
                            + " Default: $XDG_DATA_HOME/neardup if set, else"
                            + " $HOME/.local/share/neardup.")
    Path stateDir;

    @Option(
            names = "--fresh",
            description =
                    "Start over: delete the state kept in the state directory (earlier"
                            + " documents are forgotten) instead of resuming from it, and read"
                            + " from --starting-offsets.")
    boolean fresh;

    /**
     * The configuration this command line gives a Kafka run: {@code -D}, then the flags that were
     * named (see {@link JobOptions#toConfiguration()}), the Kafka options and properties, and the
     * checkpoint interval when given. Options not named are not set: on a cluster its configuration
     * applies to them ({@link JobOptions#onCluster}), on this machine their defaults.
     */
    Configuration toConfiguration(JobOptions job) {
        Configuration conf = job.toConfiguration();
        Map<String, String> all = new LinkedHashMap<>();
        if (propertiesFile != null) {
            all.putAll(KafkaPropertiesFiles.read(propertiesFile));
        }
        all.putAll(properties);
        all.forEach((k, v) -> conf.setString(NearDupOptions.KAFKA_PROPERTIES_PREFIX + k, v));
        return conf;
    }

    /** The first Kafka flag on {@code command}'s line, or null (they need --bootstrap-servers). */
    String firstGiven(CommandSpec command) {
        for (String key : SettingFlags.given(command).keySet()) {
            if (key.startsWith("neardup.kafka.")) {
                return Setting.forKey(key).flags().get(0);
            }
        }
        return !properties.isEmpty()
                ? "--kafka-property"
                : propertiesFile != null
                        ? "--kafka-properties"
                        : stateDir != null ? "--state-dir" : fresh ? "--fresh" : null;
    }
}
