package dev.neardup.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

/**
 * One real Apache Kafka 4.2 broker (combined broker and controller, KRaft) in the test JVM, on
 * loopback, started on first use and shared by every test of the run; each test makes its own
 * topics. No Docker, no mocks.
 */
public final class KafkaTestBroker {

    private static KafkaClusterTestKit cluster;

    private KafkaTestBroker() {}

    /** The broker's bootstrap servers, starting it if needed. */
    public static synchronized String bootstrapServers() {
        if (cluster == null) {
            try {
                KafkaClusterTestKit kit =
                        new KafkaClusterTestKit.Builder(
                                        new TestKitNodes.Builder()
                                                .setCombined(true)
                                                .setNumBrokerNodes(1)
                                                .setNumControllerNodes(1)
                                                .build())
                                .setConfigProp("offsets.topic.replication.factor", "1")
                                .setConfigProp("offsets.topic.num.partitions", "1")
                                .setConfigProp("transaction.state.log.replication.factor", "1")
                                .setConfigProp("transaction.state.log.min.isr", "1")
                                .setConfigProp("transaction.state.log.num.partitions", "1")
                                .setConfigProp("min.insync.replicas", "1")
                                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                                .setConfigProp("message.max.bytes", String.valueOf(32 << 20))
                                .setConfigProp("replica.fetch.max.bytes", String.valueOf(32 << 20))
                                .build();
                kit.format();
                kit.startup();
                kit.waitForReadyBrokers();
                cluster = kit;
                // Normally closed by TestRunEnd when the test run ends, before the JVM exits; the
                // hook covers a run without the JUnit launcher session (an IDE, say).
                Runtime.getRuntime().addShutdownHook(new Thread(KafkaTestBroker::shutdown));
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the test Kafka broker", e);
            }
        }
        return cluster.bootstrapServers();
    }

    /**
     * Stops the broker if it was started (and deletes its files); a later {@link #bootstrapServers}
     * starts a new one. Called at the end of the test run by {@link TestRunEnd}.
     */
    public static synchronized void shutdown() {
        if (cluster == null) {
            return;
        }
        KafkaClusterTestKit kit = cluster;
        cluster = null;
        try {
            kit.close();
        } catch (Exception e) {
            System.err.println("KafkaTestBroker: closing the test broker failed: " + e);
        }
    }

    /** A topic name unique to this test run. */
    public static String uniqueTopic(String base) {
        return base + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Creates topics with the given partition count, accepting records up to 32 MiB. */
    public static void createTopics(int partitions, String... names) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
            List<NewTopic> topics = new ArrayList<>();
            for (String name : names) {
                topics.add(
                        new NewTopic(name, partitions, (short) 1)
                                .configs(Map.of("max.message.bytes", String.valueOf(32 << 20))));
            }
            admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
            // A new topic's partitions get their leader a moment later; a producer that writes
            // before then can see NotLeaderOrFollower and out-of-order sequence errors.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                Map<String, org.apache.kafka.clients.admin.TopicDescription> described;
                try {
                    described = admin.describeTopics(List.of(names)).allTopicNames().get();
                } catch (java.util.concurrent.ExecutionException e) {
                    // The broker's metadata can lag the creation (seen on a loaded machine):
                    // "This server does not host this topic-partition". Ask again.
                    if (!(e.getCause()
                                    instanceof
                                    org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                            || System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.sleep(50);
                    continue;
                }
                boolean ready =
                        described.values().stream()
                                .allMatch(
                                        d ->
                                                d.partitions().size() == partitions
                                                        && d.partitions().stream()
                                                                .allMatch(p -> p.leader() != null));
                if (ready) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "topics without leaders after 60 s: " + described);
                }
                Thread.sleep(50);
            }
        }
    }

    /**
     * A record to produce: key and value may be null (a null value is a tombstone), and so may the
     * timestamp (then the producer's clock stamps it).
     */
    public record Message(String key, byte[] value, Long timestamp) {}

    /** Produces records (key may be null), waiting until all are acknowledged. */
    public static void produce(String topic, List<Map.Entry<String, byte[]>> records)
            throws Exception {
        List<Message> messages = new ArrayList<>();
        for (Map.Entry<String, byte[]> r : records) {
            messages.add(new Message(r.getKey(), r.getValue(), null));
        }
        produceMessages(topic, messages);
    }

    /** Produces messages in order, waiting until all are acknowledged. */
    public static void produceMessages(String topic, List<Message> messages) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers());
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        p.put("max.request.size", String.valueOf(32 << 20));
        p.put("acks", "all");
        // Right after a topic is created, its first produce can still meet NOT_LEADER_OR_FOLLOWER;
        // the idempotent producer's retry of that batch then loops on OUT_OF_ORDER_SEQUENCE until
        // delivery times out (seen on a loaded machine). One request in flight keeps the order
        // without idempotence, and plain retries get through.
        p.put("enable.idempotence", "false");
        p.put("max.in.flight.requests.per.connection", "1");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (Message m : messages) {
                byte[] key = m.key() == null ? null : m.key().getBytes(StandardCharsets.UTF_8);
                sent.add(
                        producer.send(
                                new ProducerRecord<>(topic, null, m.timestamp(), key, m.value())));
            }
            producer.flush();
            for (java.util.concurrent.Future<?> f : sent) {
                f.get(60, TimeUnit.SECONDS); // a record the broker refused fails the test here
            }
        }
    }

    /**
     * The properties of a consumer of this broker in a group of its own that reads every committed
     * record from the earliest offset, as bytes, and commits nothing.
     */
    public static Properties readCommittedConsumer() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers());
        p.put("group.id", "test-reader-" + UUID.randomUUID());
        p.put("auto.offset.reset", "earliest");
        p.put("enable.auto.commit", "false");
        p.put("isolation.level", "read_committed");
        p.put("key.deserializer", ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", ByteArrayDeserializer.class.getName());
        return p;
    }

    /**
     * Reads a topic from the beginning with {@code isolation.level=read_committed} until at least
     * {@code expected} records arrived, then keeps reading for {@code settle} to catch any extra
     * (duplicate) records.
     *
     * @throws AssertionError when fewer than expected arrive within {@code timeout}
     */
    public static List<ConsumerRecord<byte[], byte[]>> readCommitted(
            String topic, int expected, Duration timeout, Duration settle) {
        Properties p = readCommittedConsumer();
        p.put("max.partition.fetch.bytes", String.valueOf(32 << 20));
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (out.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            if (out.size() < expected) {
                throw new AssertionError(
                        "only "
                                + out.size()
                                + " of "
                                + expected
                                + " records on "
                                + topic
                                + " after "
                                + timeout);
            }
            long settleEnd = System.nanoTime() + settle.toNanos();
            while (System.nanoTime() < settleEnd) {
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    /** The values of records, parsed as JSON. */
    public static List<com.fasterxml.jackson.databind.JsonNode> values(
            List<ConsumerRecord<byte[], byte[]>> records) {
        List<com.fasterxml.jackson.databind.JsonNode> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            try {
                out.add(dev.neardup.io.Json.MAPPER.readTree(r.value()));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return out;
    }

    /**
     * The command line of {@code neardup run} in Kafka mode against this broker, with these topics,
     * followed by {@code more}.
     */
    public static java.util.List<String> runArgs(
            String input, String alerts, String verdicts, String deadLetters, String... more) {
        java.util.List<String> args =
                new java.util.ArrayList<>(
                        java.util.List.of(
                                "run",
                                "--bootstrap-servers",
                                bootstrapServers(),
                                "--input-topic",
                                input,
                                "--alerts-topic",
                                alerts,
                                "--verdicts-topic",
                                verdicts,
                                "--dead-letter-topic",
                                deadLetters));
        args.addAll(java.util.List.of(more));
        return java.util.List.copyOf(args);
    }
}
