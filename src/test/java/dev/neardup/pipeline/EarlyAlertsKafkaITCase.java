package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.io.Json;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.KafkaJob;
import dev.neardup.runtime.KafkaSettings;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.KafkaTestBroker;
import dev.neardup.testing.PlantedCorpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Early alerts on a live stream, against a real Kafka broker (MiniCluster, RocksDB, parallelism 2,
 * checkpoints every 500 ms, outputs read with {@code isolation.level=read_committed}): pages are
 * produced at a steady rate (60/s for 76 s), stamped with the time they are sent, with an
 * out-of-orderness of 30 s; after 36 s, one page in five is a near copy of a page sent 36 s before
 * it. The copies' alerts are committed within 2 s of their send (p99) although their verdicts wait
 * for the watermark; at the end the verdicts and the alerted pairs are those of the same pages read
 * from a file.
 */
class EarlyAlertsKafkaITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.twoSlots();

    private static final Duration WAIT = Duration.ofSeconds(120);

    /** Pages per second, and for how long: bases only first, then one copy in five. */
    private static final int RATE = 60;

    private static final int BASES_ONLY_SECONDS = 36;
    private static final int MIXED_SECONDS = 40;

    /** How long before its copy a copied page was sent (more than the out-of-orderness). */
    private static final int COPY_AGE_SECONDS = 36;

    @Test
    void copiesOfSettledPagesAreAlertedWithinSecondsAndTheEndStateIsThatOfAFileRun()
            throws Exception {
        String documents = KafkaTestBroker.uniqueTopic("documents");
        String alerts = KafkaTestBroker.uniqueTopic("alerts");
        String verdicts = KafkaTestBroker.uniqueTopic("verdicts");
        String dead = KafkaTestBroker.uniqueTopic("dead-letters");
        KafkaTestBroker.createTopics(2, documents, alerts, verdicts, dead);

        Path work = Files.createTempDirectory(MiniClusters.TMP, "early");
        Configuration base = new Configuration();
        base.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        base.set(NearDupOptions.KAFKA_BOOTSTRAP_SERVERS, KafkaTestBroker.bootstrapServers());
        base.set(NearDupOptions.KAFKA_INPUT_TOPIC, documents);
        base.set(NearDupOptions.KAFKA_ALERTS_TOPIC, alerts);
        base.set(NearDupOptions.KAFKA_VERDICTS_TOPIC, verdicts);
        base.set(NearDupOptions.KAFKA_DEAD_LETTER_TOPIC, dead);
        base.set(NearDupOptions.KAFKA_GROUP_ID, "it-" + documents);
        base.set(NearDupOptions.KAFKA_TRANSACTIONAL_ID_PREFIX, "it-" + documents);
        base.set(NearDupOptions.KAFKA_STARTING_OFFSETS, "earliest");
        base.set(NearDupOptions.MAX_OUT_OF_ORDERNESS, Duration.ofSeconds(30));
        base.set(NearDupOptions.IDLE_TIMEOUT, Duration.ofSeconds(3));
        Configuration conf = EmbeddedJob.configuration(base, work, Duration.ofMillis(500));
        JobClient job = KafkaJob.start(conf, NearDupSettings.from(conf), KafkaSettings.from(conf));

        // The pages, made before the clock starts: bases, and copies of earlier bases.
        int total = RATE * (BASES_ONLY_SECONDS + MIXED_SECONDS);
        PlantedCorpus corpus = new PlantedCorpus(31);
        List<String> order = new ArrayList<>();
        Map<String, String> copyOf = new HashMap<>();
        for (int i = 0; i < total; i++) {
            boolean copy = i >= RATE * BASES_ONLY_SECONDS && i % 5 == 0;
            if (copy) {
                String original = order.get(i - RATE * COPY_AGE_SECONDS);
                String id = "copy-of-" + original;
                corpus.addVariant(original, id, 0.95);
                copyOf.put(id, original);
                order.add(id);
            } else {
                order.add(corpus.addBase("page-" + i, 1500));
            }
        }
        Map<String, PlantedCorpus.Doc> byId = new HashMap<>();
        corpus.docs.forEach(d -> byId.put(d.id(), d));

        Map<String, Long> received = new ConcurrentHashMap<>();
        Map<String, Long> verdictAt = new ConcurrentHashMap<>();
        List<JsonNode> alertRecords = Collections.synchronizedList(new ArrayList<>());
        List<JsonNode> verdictRecords = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean();
        Thread alertReader = reader(alerts, stop, alertRecords, received, true);
        Thread verdictReader = reader(verdicts, stop, verdictRecords, verdictAt, false);
        alertReader.start();
        verdictReader.start();

        // Produce live: each page stamped with the time it is sent.
        Map<String, Long> sentAt = new HashMap<>();
        List<PlantedCorpus.Doc> sent = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            long start = System.nanoTime();
            for (int i = 0; i < total; i++) {
                long due = start + TimeUnit.SECONDS.toNanos(1) * i / RATE;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                PlantedCorpus.Doc d = byId.get(order.get(i));
                long now = System.currentTimeMillis();
                PlantedCorpus.Doc stamped = new PlantedCorpus.Doc(d.id(), d.content(), now);
                sent.add(stamped);
                sentAt.put(d.id(), now);
                producer.send(
                        new ProducerRecord<>(
                                documents,
                                d.id().getBytes(StandardCharsets.UTF_8),
                                JobFiles.json(stamped).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }

        long deadline = System.nanoTime() + WAIT.toNanos();
        while (verdictAt.size() < total && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        Thread.sleep(3000); // anything extra (a duplicate) would come by now
        stop.set(true);
        alertReader.join();
        verdictReader.join();
        job.cancel().get(60, TimeUnit.SECONDS);
        assertThat(verdictAt).as("verdicts").hasSize(total);

        // Latency from the send of a copy to its committed alert, and to its verdict.
        List<Long> alertLatency = new ArrayList<>();
        List<Long> verdictLatency = new ArrayList<>();
        int early = 0;
        for (JsonNode a : JobFiles.pairs(alertRecords)) {
            String doc = a.get("docId").asText();
            if (copyOf.containsKey(doc) && a.get("duplicateOf").asText().equals(copyOf.get(doc))) {
                alertLatency.add(received.get(doc + ">" + copyOf.get(doc)) - sentAt.get(doc));
                early += a.path("early").asBoolean() ? 1 : 0;
            }
        }
        // Verdicts wait for the watermark, 30 s behind the latest page; those of the last 30 s
        // come when the input has been idle for 3 s at the end.
        long lastSent = java.util.Collections.max(sentAt.values());
        List<Long> verdictLatencyMidStream = new ArrayList<>();
        for (String doc : copyOf.keySet()) {
            long latency = verdictAt.get(doc) - sentAt.get(doc);
            verdictLatency.add(latency);
            if (sentAt.get(doc) < lastSent - 35_000) {
                verdictLatencyMidStream.add(latency);
            }
        }
        long alertP50 = percentile(alertLatency, 0.5);
        long alertP99 = percentile(alertLatency, 0.99);
        System.out.printf(
                "early alerts: %d copies, %d alerted (%d early); alert latency p50 %d ms, p99 %d"
                        + " ms; verdict latency p50 %d ms, p99 %d ms%n",
                copyOf.size(),
                alertLatency.size(),
                early,
                alertP50,
                alertP99,
                percentile(verdictLatency, 0.5),
                percentile(verdictLatency, 0.99));
        assertThat(alertLatency)
                .as("every copy alerted against its original")
                .hasSize(copyOf.size());
        assertThat(early).as("all early").isEqualTo(copyOf.size());
        assertThat(alertP99).as("p99 alert latency, ms").isLessThan(2000);
        assertThat(verdictLatencyMidStream).isNotEmpty();
        assertThat(percentile(verdictLatencyMidStream, 0.0))
                .as("verdicts mid-stream wait for the watermark")
                .isGreaterThanOrEqualTo(29_000);

        // The same pages, stamped as they were sent, from a file: same verdicts, same pairs.
        Path file = work.resolve("pages.jsonl");
        JobFiles.writeInput(file, sent, Map.of());
        Configuration fileConf =
                EmbeddedJob.configuration(new Configuration(), work, Duration.ofSeconds(1));
        fileConf.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        Path fileAlerts = work.resolve("alerts.jsonl");
        Path fileVerdicts = work.resolve("verdicts.jsonl");
        EmbeddedJob.run(
                fileConf,
                NearDupSettings.from(fileConf),
                file,
                fileAlerts.toString(),
                fileVerdicts.toString(),
                null);
        assertThat(verdicts(verdictRecords))
                .as("verdicts")
                .isEqualTo(verdicts(JobFiles.read(fileVerdicts)));
        Set<String> streamPairs = pairs(alertRecords);
        assertThat(JobFiles.pairs(alertRecords)).as("each pair once").hasSize(streamPairs.size());
        assertThat(streamPairs).isEqualTo(pairs(JobFiles.read(fileAlerts)));
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        Properties p = new Properties();
        p.put("bootstrap.servers", KafkaTestBroker.bootstrapServers());
        p.put("key.serializer", ByteArraySerializer.class.getName());
        p.put("value.serializer", ByteArraySerializer.class.getName());
        p.put("acks", "all");
        p.put("linger.ms", "0");
        return new KafkaProducer<>(p);
    }

    /**
     * Reads {@code topic} (read_committed) until {@code stop}: every record into {@code out}, and
     * the time each key ("doc>match" for pairs, else the document id) was first received.
     */
    private static Thread reader(
            String topic,
            AtomicBoolean stop,
            List<JsonNode> out,
            Map<String, Long> firstReceived,
            boolean pairs) {
        return new Thread(
                () -> {
                    Properties p = KafkaTestBroker.readCommittedConsumer();
                    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
                        consumer.subscribe(List.of(topic));
                        while (!stop.get()) {
                            for (ConsumerRecord<byte[], byte[]> r :
                                    consumer.poll(Duration.ofMillis(50))) {
                                long now = System.currentTimeMillis();
                                JsonNode v = Json.MAPPER.readTree(r.value());
                                out.add(v);
                                String key =
                                        !pairs
                                                ? v.get("docId").asText()
                                                : v.has("event")
                                                        ? "merge:" + v.get("docId").asText()
                                                        : v.get("docId").asText()
                                                                + ">"
                                                                + v.get("duplicateOf").asText();
                                firstReceived.putIfAbsent(key, now);
                            }
                        }
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                },
                "reader-" + topic);
    }

    private static long percentile(List<Long> values, double q) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.isEmpty()
                ? -1
                : sorted.get(
                        Math.max(
                                0,
                                Math.min(
                                        sorted.size() - 1,
                                        (int) Math.ceil(q * sorted.size()) - 1)));
    }

    private static Set<String> pairs(List<JsonNode> alerts) {
        return JobFiles.pairs(alerts).stream()
                .map(a -> a.get("docId").asText() + ">" + a.get("duplicateOf").asText())
                .collect(Collectors.toSet());
    }

    private static Map<String, String> verdicts(List<JsonNode> verdicts) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode v : verdicts) {
            String was =
                    out.put(
                            v.get("docId").asText(),
                            v.get("verdict").asText()
                                    + " "
                                    + v.get("duplicateOf").asText("")
                                    + " "
                                    + v.get("similarity").asText("")
                                    + " in "
                                    + v.get("clusterId").asText(""));
            assertThat(was).as("one verdict for %s", v.get("docId").asText()).isNull();
        }
        return out;
    }
}
