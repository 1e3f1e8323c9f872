package dev.neardup.runtime;

import dev.neardup.config.ConfigException;
import dev.neardup.config.InputSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.Secrets;
import dev.neardup.config.Setting;
import dev.neardup.io.Alert;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.KafkaDocumentDeserializer;
import dev.neardup.io.KafkaJsonSerializer;
import dev.neardup.io.ParsedRecord;
import dev.neardup.io.Verdict;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.config.ConfigResource;

/**
 * The Kafka side of the job, read and validated from {@link NearDupOptions}: the documents source
 * and the three sinks. Builders fail fast with a message naming the option. Client properties
 * ({@code neardup.kafka.properties.*}) pass through to the consumer and the producers, so SASL, SSL
 * and tuning need no code; {@link #describe()} shows them with secrets masked.
 *
 * @param transactionTimeout the producers' {@code transaction.timeout.ms}: {@link
 *     #DEFAULT_TRANSACTION_TIMEOUT} unless set
 */
public record KafkaSettings(
        String bootstrapServers,
        String inputTopic,
        String alertsTopic,
        String verdictsTopic,
        String deadLetterTopic,
        String groupId,
        String startingOffsets,
        boolean bounded,
        DeliveryGuarantee delivery,
        String transactionalIdPrefix,
        Properties clientProperties,
        Duration transactionTimeout) {

    /**
     * Default producer transaction timeout ({@code transaction.timeout.ms}): the broker's default
     * maximum ({@code transaction.max.timeout.ms}, 15 min). Why: docs/design/kafka-transactions.md.
     */
    public static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofMinutes(15);

    /** Default checkpoint timeout of the Kafka job ({@code execution.checkpointing.timeout}). */
    public static final Duration DEFAULT_CHECKPOINT_TIMEOUT = Duration.ofMinutes(2);

    /** The least time the transaction timeout must leave, beyond the longest transaction. */
    static final Duration MIN_RESTART_WINDOW = Duration.ofMinutes(1);

    static final String TRANSACTION_TIMEOUT_KEY = "transaction.timeout.ms";

    /**
     * The checkpointing settings that bound how long an exactly-once Kafka transaction stays open.
     *
     * @param interval {@code execution.checkpointing.interval}
     * @param timeout {@code execution.checkpointing.timeout}
     * @param minPause {@code execution.checkpointing.min-pause}
     * @param tolerableFailures {@code execution.checkpointing.tolerable-failed-checkpoints}
     */
    public record CheckpointTiming(
            Duration interval, Duration timeout, Duration minPause, int tolerableFailures) {

        /** The timing of {@code config}, {@link #DEFAULT_CHECKPOINT_TIMEOUT} if it sets none. */
        public static CheckpointTiming of(ReadableConfig config) {
            return new CheckpointTiming(
                    config.getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL)
                            .orElse(Duration.ZERO),
                    config.getOptional(CheckpointingOptions.CHECKPOINTING_TIMEOUT)
                            .orElse(DEFAULT_CHECKPOINT_TIMEOUT),
                    config.get(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS),
                    config.get(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER));
        }

        /**
         * The longest a transaction stays open while the job runs: {@code max(interval, timeout +
         * min-pause) x (tolerable failures + 1) + timeout}.
         */
        public Duration longestTransaction() {
            Duration gap = Collections.max(List.of(interval, timeout.plus(minPause)));
            return gap.multipliedBy(tolerableFailures + 1L).plus(timeout);
        }
    }

    /**
     * How long an exactly-once job may stay down after a crash without losing output: the
     * transaction timeout less the longest transaction.
     */
    public Duration allowedDowntime(CheckpointTiming timing) {
        return transactionTimeout.minus(timing.longestTransaction());
    }

    /** The transaction timeout as messages name it: its key, milliseconds and duration. */
    private String transactionTimeoutSetting() {
        return "%s%s = %s, %s"
                .formatted(
                        NearDupOptions.KAFKA_PROPERTIES_PREFIX,
                        TRANSACTION_TIMEOUT_KEY,
                        transactionTimeout.toMillis(),
                        human(transactionTimeout));
    }

    /**
     * Checks, for exactly-once delivery, that transactions outlive the checkpoints that commit them
     * with at least {@link #MIN_RESTART_WINDOW} to spare for a restart.
     *
     * @throws IllegalArgumentException naming the settings and what to change
     */
    public void checkTransactionTimeout(CheckpointTiming timing) {
        if (delivery != DeliveryGuarantee.EXACTLY_ONCE) {
            return;
        }
        if (allowedDowntime(timing).compareTo(MIN_RESTART_WINDOW) < 0) {
            String timeoutKey = CheckpointingOptions.CHECKPOINTING_TIMEOUT.key();
            throw new IllegalArgumentException(
                    ("inconsistent exactly-once settings: the Kafka transaction timeout (%s) must"
                         + " exceed the longest a transaction stays open, %s (max(interval %s, %s"
                         + " %s%s)%s + the timeout), by at least %s for a restart: lower %s or"
                         + " raise %s (at most the broker's transaction.max.timeout.ms, 15 min by"
                         + " default)")
                            .formatted(
                                    transactionTimeoutSetting(),
                                    human(timing.longestTransaction()),
                                    human(timing.interval()),
                                    timeoutKey,
                                    human(timing.timeout()),
                                    timing.minPause().isZero()
                                            ? ""
                                            : " + min-pause " + human(timing.minPause()),
                                    timing.tolerableFailures() == 0
                                            ? ""
                                            : " x %s (tolerable failed checkpoints + 1)"
                                                    .formatted(timing.tolerableFailures() + 1),
                                    human(MIN_RESTART_WINDOW),
                                    timeoutKey,
                                    TRANSACTION_TIMEOUT_KEY));
        }
    }

    /** "15 min", "2 min 30 s", "10 s", "500 ms". */
    public static String human(Duration d) {
        long ms = d.toMillis();
        if (ms % 1000 != 0 || ms == 0) {
            return ms + " ms";
        }
        return ((d.toHours() > 0 ? " " + d.toHours() + " h" : "")
                        + (d.toMinutesPart() > 0 ? " " + d.toMinutesPart() + " min" : "")
                        + (d.toSecondsPart() > 0 ? " " + d.toSecondsPart() + " s" : ""))
                .strip();
    }

    /**
     * Reads and validates the Kafka options.
     *
     * @throws IllegalArgumentException naming the offending option
     */
    public static KafkaSettings from(Configuration config) {
        ConfigException.require(
                config.getOptional(NearDupOptions.KAFKA_BOOTSTRAP_SERVERS).isPresent(),
                NearDupOptions.KAFKA_BOOTSTRAP_SERVERS.key(),
                "must be set");
        String bootstrapServers = checked(config, NearDupOptions.KAFKA_BOOTSTRAP_SERVERS);
        String inputTopic = checked(config, NearDupOptions.KAFKA_INPUT_TOPIC);
        String alertsTopic = checked(config, NearDupOptions.KAFKA_ALERTS_TOPIC);
        String verdictsTopic = checked(config, NearDupOptions.KAFKA_VERDICTS_TOPIC);
        String deadLetterTopic = checked(config, NearDupOptions.KAFKA_DEAD_LETTER_TOPIC);
        if (inputTopic.equals(alertsTopic)
                || inputTopic.equals(verdictsTopic)
                || inputTopic.equals(deadLetterTopic)) {
            throw invalid(
                    NearDupOptions.KAFKA_INPUT_TOPIC.key(),
                    "the input topic '" + inputTopic + "' must differ from the output topics");
        }
        Properties clientProperties = new Properties();
        String prefix = NearDupOptions.KAFKA_PROPERTIES_PREFIX;
        config.toMap().entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .forEach(
                        e ->
                                clientProperties.setProperty(
                                        e.getKey().substring(prefix.length()), e.getValue()));
        // Arguments are checked in this order, so the first bad option is the one named.
        return new KafkaSettings(
                bootstrapServers,
                inputTopic,
                alertsTopic,
                verdictsTopic,
                deadLetterTopic,
                checked(config, NearDupOptions.KAFKA_GROUP_ID),
                checked(config, NearDupOptions.KAFKA_STARTING_OFFSETS),
                config.get(NearDupOptions.KAFKA_BOUNDED),
                checked(config, NearDupOptions.KAFKA_DELIVERY_GUARANTEE)
                                .toLowerCase(Locale.ROOT)
                                .startsWith("exactly")
                        ? DeliveryGuarantee.EXACTLY_ONCE
                        : DeliveryGuarantee.AT_LEAST_ONCE,
                checked(config, NearDupOptions.KAFKA_TRANSACTIONAL_ID_PREFIX),
                clientProperties,
                transactionTimeout(clientProperties.getProperty(TRANSACTION_TIMEOUT_KEY)));
    }

    /** The producers' transaction timeout: {@code timeout} ms, else the default. */
    private static Duration transactionTimeout(String timeout) {
        if (timeout == null) {
            return DEFAULT_TRANSACTION_TIMEOUT;
        }
        long ms;
        try {
            ms = Long.parseLong(timeout.strip());
        } catch (NumberFormatException e) {
            ms = -1;
        }
        if (ms <= 0) {
            throw invalid(
                    NearDupOptions.KAFKA_PROPERTIES_PREFIX + TRANSACTION_TIMEOUT_KEY,
                    "must be a positive number of milliseconds, got '" + timeout + "'");
        }
        return Duration.ofMillis(ms);
    }

    /**
     * The documents source, reading each record as {@code input} says: JSON, or WARC records
     * ({@code neardup.input.format}).
     */
    public KafkaSource<ParsedRecord> source(InputSettings input) {
        return source(
                new KafkaDocumentDeserializer(
                        input.parser(), input.format(), input.warcReadSettings()));
    }

    /** The documents source, parsing each record with {@code values}. */
    public KafkaSource<ParsedRecord> source(KafkaDocumentDeserializer values) {
        var builder =
                KafkaSource.<ParsedRecord>builder()
                        .setBootstrapServers(bootstrapServers)
                        .setTopics(inputTopic)
                        .setGroupId(groupId)
                        .setStartingOffsets(startingOffsetsInitializer())
                        .setDeserializer(values)
                        .setProperties(clientProperties)
                        .setProperty("commit.offsets.on.checkpoint", "true");
        if (bounded) {
            builder.setBounded(OffsetsInitializer.latest());
        }
        return builder.build();
    }

    public KafkaSink<Alert> alertSink() {
        return sink(KafkaJsonSerializer.alerts(alertsTopic), "alerts");
    }

    public KafkaSink<Verdict> verdictSink() {
        return sink(KafkaJsonSerializer.verdicts(verdictsTopic), "verdicts");
    }

    public KafkaSink<DeadLetter> deadLetterSink() {
        return sink(KafkaJsonSerializer.deadLetters(deadLetterTopic), "dead-letters");
    }

    private <T> KafkaSink<T> sink(KafkaJsonSerializer<T> serializer, String name) {
        Properties producer = new Properties();
        producer.putAll(clientProperties);
        producer.putIfAbsent(
                TRANSACTION_TIMEOUT_KEY, String.valueOf(DEFAULT_TRANSACTION_TIMEOUT.toMillis()));
        producer.putIfAbsent("max.request.size", String.valueOf(32 << 20));
        return KafkaSink.<T>builder()
                .setBootstrapServers(bootstrapServers)
                .setRecordSerializer(serializer)
                .setDeliveryGuarantee(delivery)
                .setTransactionalIdPrefix(transactionalIdPrefix + "-" + name)
                .setKafkaProducerConfig(producer)
                .build();
    }

    private OffsetsInitializer startingOffsetsInitializer() {
        String s = startingOffsets.toLowerCase(Locale.ROOT);
        return switch (s) {
            case "committed" -> OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
            case "earliest" -> OffsetsInitializer.earliest();
            case "latest" -> OffsetsInitializer.latest();
            default -> OffsetsInitializer.timestamp(Long.parseLong(s.substring(10).strip()));
        };
    }

    /**
     * Checks, before the job starts, that the brokers answer and that the four topics exist, so
     * that a wrong address or a missing topic fails the submission at once (the job itself would
     * retry forever or restart until it gives up).
     *
     * <p>With exactly-once delivery it also compares the transaction timeout with the broker's
     * {@code transaction.max.timeout.ms} where the broker lets it be read.
     *
     * @throws IllegalStateException naming the address or the missing topics
     * @throws IllegalArgumentException when the transaction timeout is above the broker's maximum
     */
    public void checkTopics(Duration timeout) {
        List<String> topics = List.of(inputTopic, alertsTopic, verdictsTopic, deadLetterTopic);
        try (Admin admin = Admin.create(adminProperties(timeout))) {
            Set<String> existing;
            try {
                existing =
                        admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                throw new IllegalStateException(
                        ("cannot reach Kafka at %s within %s s: check --bootstrap-servers and the"
                                        + " client properties (security.protocol, SASL)")
                                .formatted(bootstrapServers, timeout.toSeconds()),
                        e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while checking Kafka", e);
            }
            List<String> missing = topics.stream().filter(t -> !existing.contains(t)).toList();
            if (!missing.isEmpty()) {
                throw new IllegalStateException(
                        ("Kafka at %s has no topic %s: create the topics first"
                                        + " (deploy/local/kafka-topics.sh shows how)")
                                .formatted(bootstrapServers, String.join(", ", missing)));
            }
            Optional<Duration> max =
                    delivery == DeliveryGuarantee.EXACTLY_ONCE
                            ? brokerMaxTransactionTimeout(admin, timeout)
                            : Optional.empty();
            if (max.isPresent() && transactionTimeout.compareTo(max.get()) > 0) {
                throw new IllegalArgumentException(
                        ("the Kafka transaction timeout (%s) is above the broker's"
                                        + " transaction.max.timeout.ms (%s, %s), which makes the"
                                        + " broker refuse the job's producers: lower it, or raise"
                                        + " the broker's maximum")
                                .formatted(
                                        transactionTimeoutSetting(),
                                        max.get().toMillis(),
                                        human(max.get())));
            }
        }
    }

    /**
     * The broker's {@code transaction.max.timeout.ms}, or empty when it cannot be read (the client
     * may lack the DescribeConfigs permission; the broker then still refuses a producer whose
     * timeout is above it, which the job reports).
     */
    static Optional<Duration> brokerMaxTransactionTimeout(Admin admin, Duration timeout) {
        try {
            var nodes =
                    admin.describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (nodes.isEmpty()) {
                return Optional.empty();
            }
            var broker =
                    new ConfigResource(
                            ConfigResource.Type.BROKER,
                            String.valueOf(nodes.iterator().next().id()));
            var config =
                    admin.describeConfigs(List.of(broker))
                            .all()
                            .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                            .get(broker);
            return Optional.ofNullable(config)
                    .map(c -> c.get("transaction.max.timeout.ms"))
                    .map(ConfigEntry::value)
                    .map(v -> Duration.ofMillis(Long.parseLong(v)));
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Properties for an admin client of these brokers (client properties included). */
    public Properties adminProperties(Duration timeout) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put("bootstrap.servers", bootstrapServers);
        props.put("request.timeout.ms", String.valueOf(timeout.toMillis()));
        props.put("default.api.timeout.ms", String.valueOf(timeout.toMillis()));
        return props;
    }

    /**
     * One line for logs: topics, group, offsets, delivery and client properties, secrets masked.
     * Also the record's {@code toString}, so that no secret is printed.
     */
    @Override
    public String toString() {
        return describe();
    }

    public String describe() {
        Map<String, String> props = new TreeMap<>();
        clientProperties.forEach(
                (k, v) -> props.put((String) k, Secrets.redact((String) k, (String) v)));
        return String.format(
                "kafka %s: %s -> %s, %s, %s; group %s, start %s%s, %s%s",
                bootstrapServers,
                inputTopic,
                alertsTopic,
                verdictsTopic,
                deadLetterTopic,
                groupId,
                startingOffsets,
                bounded ? " (bounded: to the latest offsets)" : "",
                delivery == DeliveryGuarantee.EXACTLY_ONCE ? "exactly-once" : "at-least-once",
                props.isEmpty() ? "" : ", properties " + props);
    }

    /** The option's value, checked against its range ({@link Setting#check}), stripped. */
    private static String checked(ReadableConfig config, ConfigOption<String> option) {
        return Setting.checked(config, option).strip();
    }

    private static IllegalArgumentException invalid(String key, String message) {
        return new ConfigException("invalid option " + key + ": " + message);
    }
}
