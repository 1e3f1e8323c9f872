package dev.neardup.cli;

import dev.neardup.config.NearDupOptions;
import dev.neardup.runtime.Durations;
import dev.neardup.runtime.KafkaPropertiesFiles;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Option;

/** The Kafka variant of {@code neardup run}: its options (heading: {@link HelpSections}). */
final class KafkaOptions {
    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT",
            required = true,
            description = "Kafka bootstrap servers: read and write topics instead of files.")
    String bootstrapServers;

    @Option(
            names = "--input-topic",
            paramLabel = "TOPIC",
            description = "Topic of input documents. Default: ${bundle:neardup.kafka.input-topic}.")
    String inputTopic;

    @Option(
            names = "--alerts-topic",
            paramLabel = "TOPIC",
            description = "Topic of alerts. Default: ${bundle:neardup.kafka.alerts-topic}.")
    String alertsTopic;

    @Option(
            names = "--verdicts-topic",
            paramLabel = "TOPIC",
            description = "Topic of verdicts. Default: ${bundle:neardup.kafka.verdicts-topic}.")
    String verdictsTopic;

    @Option(
            names = "--dead-letter-topic",
            paramLabel = "TOPIC",
            description =
                    "Topic of dead letters. Default:"
                            + " ${bundle:neardup.kafka.dead-letter-topic}.")
    String deadLetterTopic;

    @Option(
            names = "--group-id",
            paramLabel = "ID",
            description = "Consumer group id. Default: ${bundle:neardup.kafka.group-id}.")
    String groupId;

    @Option(
            names = "--starting-offsets",
            paramLabel = "WHERE",
            description =
                    "committed (earliest where the group has none), earliest, latest, or"
                            + " timestamp:EPOCH_MILLIS. Default:"
                            + " ${bundle:neardup.kafka.starting-offsets}.")
    String startingOffsets;

    @Option(
            names = "--bounded",
            description =
                    "Stop at the offsets that are the latest at start (read the topic to its"
                            + " end) instead of running until stopped.")
    Boolean bounded;

    @Option(
            names = "--delivery-guarantee",
            paramLabel = "exactly-once|at-least-once",
            description =
                    "exactly-once (Kafka transactions; read outputs with"
                            + " isolation.level=read_committed) or at-least-once. Default:"
                            + " ${bundle:neardup.kafka.delivery-guarantee}.")
    String deliveryGuarantee;

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
    Configuration toConfiguration(JobOptions job, String checkpointInterval) {
        Configuration conf = job.toConfiguration();
        conf.set(NearDupOptions.KAFKA_BOOTSTRAP_SERVERS, bootstrapServers);
        setIfGiven(conf, NearDupOptions.KAFKA_INPUT_TOPIC, inputTopic);
        setIfGiven(conf, NearDupOptions.KAFKA_ALERTS_TOPIC, alertsTopic);
        setIfGiven(conf, NearDupOptions.KAFKA_VERDICTS_TOPIC, verdictsTopic);
        setIfGiven(conf, NearDupOptions.KAFKA_DEAD_LETTER_TOPIC, deadLetterTopic);
        setIfGiven(conf, NearDupOptions.KAFKA_GROUP_ID, groupId);
        setIfGiven(conf, NearDupOptions.KAFKA_STARTING_OFFSETS, startingOffsets);
        setIfGiven(conf, NearDupOptions.KAFKA_BOUNDED, bounded);
        setIfGiven(conf, NearDupOptions.KAFKA_DELIVERY_GUARANTEE, deliveryGuarantee);
        if (checkpointInterval != null) {
            conf.set(
                    CheckpointingOptions.CHECKPOINTING_INTERVAL,
                    Durations.checkpointInterval(checkpointInterval));
        }
        if (propertiesFile != null) {
            KafkaPropertiesFiles.read(propertiesFile)
                    .forEach(
                            (k, v) ->
                                    conf.setString(NearDupOptions.KAFKA_PROPERTIES_PREFIX + k, v));
        }
        properties.forEach((k, v) -> conf.setString(NearDupOptions.KAFKA_PROPERTIES_PREFIX + k, v));
        return conf;
    }

    private static <T> void setIfGiven(
            Configuration conf, org.apache.flink.configuration.ConfigOption<T> option, T value) {
        if (value != null) {
            conf.set(option, value);
        }
    }
}
