package dev.neardup.pipeline;

import dev.neardup.io.Alert;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.DocumentParser;
import dev.neardup.io.KafkaDocumentDeserializer;
import dev.neardup.io.KafkaJsonSerializer;
import dev.neardup.io.ParsedRecord;
import dev.neardup.io.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * The Kafka side of the job, read and validated from {@link NearDupOptions}: the documents source
 * and the three sinks. Builders fail fast with a message naming the option. Client properties
 * ({@code neardup.kafka.properties.*}) pass through to the consumer and the producers, so SASL, SSL
 * and tuning need no code; {@link #describe()} shows them with secrets masked.
 */
public final class KafkaSettings {

    /** Default producer transaction timeout: within the broker's default maximum (15 min). */
    static final String TRANSACTION_TIMEOUT_MS = "900000";

    private static final Pattern SECRET =
            Pattern.compile("(?i).*(password|secret|jaas|token|credential|sasl\\.oauthbearer).*");

    private final String bootstrapServers;
    private final String inputTopic;
    private final String alertsTopic;
    private final String verdictsTopic;
    private final String deadLetterTopic;
    private final String groupId;
    private final String startingOffsets;
    private final boolean bounded;
    private final DeliveryGuarantee delivery;
    private final String transactionalIdPrefix;
    private final Properties clientProperties;

    private KafkaSettings(ReadableConfig config, Map<String, String> all) {
        this.bootstrapServers =
                required(
                        config.get(NearDupOptions.KAFKA_BOOTSTRAP_SERVERS),
                        NearDupOptions.KAFKA_BOOTSTRAP_SERVERS.key());
        this.inputTopic =
                topic(
                        config.get(NearDupOptions.KAFKA_INPUT_TOPIC),
                        NearDupOptions.KAFKA_INPUT_TOPIC.key());
        this.alertsTopic =
                topic(
                        config.get(NearDupOptions.KAFKA_ALERTS_TOPIC),
                        NearDupOptions.KAFKA_ALERTS_TOPIC.key());
        this.verdictsTopic =
                topic(
                        config.get(NearDupOptions.KAFKA_VERDICTS_TOPIC),
                        NearDupOptions.KAFKA_VERDICTS_TOPIC.key());
        this.deadLetterTopic =
                topic(
                        config.get(NearDupOptions.KAFKA_DEAD_LETTER_TOPIC),
                        NearDupOptions.KAFKA_DEAD_LETTER_TOPIC.key());
        if (inputTopic.equals(alertsTopic)
                || inputTopic.equals(verdictsTopic)
                || inputTopic.equals(deadLetterTopic)) {
            throw invalid(
                    NearDupOptions.KAFKA_INPUT_TOPIC.key(),
                    "the input topic '" + inputTopic + "' must differ from the output topics");
        }
        this.groupId =
                required(
                        config.get(NearDupOptions.KAFKA_GROUP_ID),
                        NearDupOptions.KAFKA_GROUP_ID.key());
        this.startingOffsets = config.get(NearDupOptions.KAFKA_STARTING_OFFSETS).strip();
        startingOffsetsInitializer(); // validates
        this.bounded = config.get(NearDupOptions.KAFKA_BOUNDED);
        String guarantee =
                config.get(NearDupOptions.KAFKA_DELIVERY_GUARANTEE)
                        .strip()
                        .toLowerCase(Locale.ROOT);
        switch (guarantee) {
            case "exactly-once":
            case "exactly_once":
                this.delivery = DeliveryGuarantee.EXACTLY_ONCE;
                break;
            case "at-least-once":
            case "at_least_once":
                this.delivery = DeliveryGuarantee.AT_LEAST_ONCE;
                break;
            default:
                throw invalid(
                        NearDupOptions.KAFKA_DELIVERY_GUARANTEE.key(),
                        "must be exactly-once or at-least-once, got '" + guarantee + "'");
        }
        this.transactionalIdPrefix =
                required(
                        config.get(NearDupOptions.KAFKA_TRANSACTIONAL_ID_PREFIX),
                        NearDupOptions.KAFKA_TRANSACTIONAL_ID_PREFIX.key());
        this.clientProperties = new Properties();
        all.forEach(
                (k, v) -> {
                    if (k.startsWith(NearDupOptions.KAFKA_PROPERTIES_PREFIX)) {
                        clientProperties.setProperty(
                                k.substring(NearDupOptions.KAFKA_PROPERTIES_PREFIX.length()), v);
                    }
                });
    }

    /** True when the configuration asks for the Kafka variant (bootstrap servers are set). */
    public static boolean isConfigured(ReadableConfig config) {
        return config.getOptional(NearDupOptions.KAFKA_BOOTSTRAP_SERVERS).isPresent();
    }

    /**
     * Reads and validates the Kafka options.
     *
     * @throws IllegalArgumentException naming the offending option
     */
    public static KafkaSettings from(Configuration config) {
        return new KafkaSettings(config, config.toMap());
    }

    /** The documents source, parsing each record with {@code parser}. */
    public KafkaSource<ParsedRecord> source(DocumentParser parser) {
        var builder =
                KafkaSource.<ParsedRecord>builder()
                        .setBootstrapServers(bootstrapServers)
                        .setTopics(inputTopic)
                        .setGroupId(groupId)
                        .setStartingOffsets(startingOffsetsInitializer())
                        .setDeserializer(new KafkaDocumentDeserializer(parser))
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
        producer.putIfAbsent("transaction.timeout.ms", TRANSACTION_TIMEOUT_MS);
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
        if (s.equals("committed")) {
            return OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
        }
        if (s.equals("earliest")) {
            return OffsetsInitializer.earliest();
        }
        if (s.equals("latest")) {
            return OffsetsInitializer.latest();
        }
        if (s.startsWith("timestamp:")) {
            try {
                return OffsetsInitializer.timestamp(Long.parseLong(s.substring(10).strip()));
            } catch (NumberFormatException e) {
                // fall through to the error
            }
        }
        throw invalid(
                NearDupOptions.KAFKA_STARTING_OFFSETS.key(),
                "must be committed, earliest, latest or timestamp:EPOCH_MILLIS, got '"
                        + startingOffsets
                        + "'");
    }

    /**
     * Checks, before the job starts, that the brokers answer and that the four topics exist, so
     * that a wrong address or a missing topic fails the submission at once with a message a user
     * can act on (the job itself would otherwise retry forever or restart until it gives up).
     *
     * @throws IllegalStateException naming the address or the missing topics
     */
    public void checkTopics(Duration timeout) {
        Properties props = new Properties();
        props.putAll(clientProperties);
        props.put("bootstrap.servers", bootstrapServers);
        props.put("request.timeout.ms", String.valueOf(timeout.toMillis()));
        props.put("default.api.timeout.ms", String.valueOf(timeout.toMillis()));
        List<String> topics = List.of(inputTopic, alertsTopic, verdictsTopic, deadLetterTopic);
        try (Admin admin = Admin.create(props)) {
            Set<String> existing;
            try {
                existing =
                        admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                throw new IllegalStateException(
                        "cannot reach Kafka at "
                                + bootstrapServers
                                + " within "
                                + timeout.toSeconds()
                                + " s: check --bootstrap-servers and the client properties"
                                + " (security.protocol, SASL)",
                        e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while checking Kafka", e);
            }
            List<String> missing = topics.stream().filter(t -> !existing.contains(t)).toList();
            if (!missing.isEmpty()) {
                throw new IllegalStateException(
                        "Kafka at "
                                + bootstrapServers
                                + " has no topic "
                                + String.join(", ", missing)
                                + ": create the topics first (deploy/local/kafka-topics.sh shows"
                                + " how)");
            }
        }
    }

    public DeliveryGuarantee delivery() {
        return delivery;
    }

    public boolean bounded() {
        return bounded;
    }

    /**
     * One line for logs: topics, group, offsets, delivery and client properties, secrets masked.
     */
    public String describe() {
        Map<String, String> props = new TreeMap<>();
        clientProperties.forEach((k, v) -> props.put((String) k, redact((String) k, (String) v)));
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

    /** The value, or "****" when the key names a secret. */
    static String redact(String key, String value) {
        return SECRET.matcher(key).matches() ? "****" : value;
    }

    private static String required(String value, String key) {
        if (value == null || value.isBlank()) {
            throw invalid(key, "must be set");
        }
        return value.strip();
    }

    private static String topic(String value, String key) {
        String t = required(value, key);
        if (!t.matches("[a-zA-Z0-9._-]{1,249}")) {
            throw invalid(key, "'" + t + "' is not a valid Kafka topic name");
        }
        return t;
    }

    private static IllegalArgumentException invalid(String key, String message) {
        return new IllegalArgumentException("invalid option " + key + ": " + message);
    }
}
