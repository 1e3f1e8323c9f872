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
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job between Kafka topics on a MiniCluster (RocksDB, parallelism 2) against a real Kafka 4.2
 * broker, outputs read with {@code isolation.level=read_committed}: planted near-duplicates, the
 * bad-input set, and exactly-once recovery after the job is cancelled mid-stream.
 */
class KafkaJobITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.twoSlots();

    private static final Duration WAIT = Duration.ofSeconds(120);

    /** Topics of one test. */
    private record Topics(String documents, String alerts, String verdicts, String deadLetters) {
        static Topics create() throws Exception {
            Topics t =
                    new Topics(
                            KafkaTestBroker.uniqueTopic("documents"),
                            KafkaTestBroker.uniqueTopic("alerts"),
                            KafkaTestBroker.uniqueTopic("verdicts"),
                            KafkaTestBroker.uniqueTopic("dead-letters"));
            KafkaTestBroker.createTopics(2, t.documents, t.alerts, t.verdicts, t.deadLetters);
            return t;
        }
    }

    private static Configuration conf(Topics t, Path work, boolean bounded) {
        Configuration base = new Configuration();
        base.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        base.set(NearDupOptions.KAFKA_BOOTSTRAP_SERVERS, KafkaTestBroker.bootstrapServers());
        base.set(NearDupOptions.KAFKA_INPUT_TOPIC, t.documents);
        base.set(NearDupOptions.KAFKA_ALERTS_TOPIC, t.alerts);
        base.set(NearDupOptions.KAFKA_VERDICTS_TOPIC, t.verdicts);
        base.set(NearDupOptions.KAFKA_DEAD_LETTER_TOPIC, t.deadLetters);
        base.set(NearDupOptions.KAFKA_GROUP_ID, "it-" + t.documents);
        base.set(NearDupOptions.KAFKA_TRANSACTIONAL_ID_PREFIX, "it-" + t.documents);
        base.set(NearDupOptions.KAFKA_STARTING_OFFSETS, "earliest");
        base.set(NearDupOptions.KAFKA_BOUNDED, bounded);
        // Verdicts are final when the watermark passes them: after the last document, once the
        // partitions have been idle this long.
        base.set(NearDupOptions.IDLE_TIMEOUT, java.time.Duration.ofSeconds(3));
        return EmbeddedJob.configuration(base, work, Duration.ofMillis(500));
    }

    /** The cluster merges of an alerts output, as "document: merged > surviving". */
    private static Set<String> merges(List<JsonNode> alerts) {
        return alerts.stream()
                .filter(a -> a.has("event"))
                .map(
                        a ->
                                a.get("docId").asText()
                                        + ": "
                                        + a.get("mergedClusterId").asText()
                                        + ">"
                                        + a.get("clusterId").asText())
                .collect(Collectors.toSet());
    }

    private static Set<String> pairs(List<JsonNode> alerts) {
        return JobFiles.pairs(alerts).stream()
                .map(a -> a.get("docId").asText() + ">" + a.get("duplicateOf").asText())
                .collect(Collectors.toSet());
    }

    /**
     * Issue 10's ordering contract: "earlier" is (fetchedAt, id) whatever the partitioning and the
     * parallelism. The same corpus, through a file and through a 1- and a 4-partition topic at
     * parallelism 1 and 2, gives the same alerts (same pairs, same direction) and the same
     * verdicts. The corpus has near-duplicates between 0.85 and 0.95 (no two documents share a
     * whole signature, see OperatorChainTest for that case) and unrelated pages, in fetchedAt
     * order.
     */
    @Test
    void sameAlertsAndVerdictsFromAFileAndFromOneOrFourPartitionsAtAnyParallelism()
            throws Exception {
        PlantedCorpus corpus = new PlantedCorpus(10);
        for (int i = 0; i < 80; i++) {
            corpus.addBase("base-" + i, 1500);
            if (i % 2 == 0) {
                corpus.addVariant("base-" + i, "near-" + i, 0.85 + 0.1 * (i % 10) / 10.0);
            }
            if (i % 8 == 0 && i > 0) {
                corpus.addVariant("near-" + (i - 8), "chain-" + i, 0.9);
            }
        }
        int n = corpus.docs.size();

        Path work = Files.createTempDirectory(MiniClusters.TMP, "order");
        Path file = work.resolve("corpus.jsonl");
        JobFiles.writeInput(file, corpus.docs, Map.of());
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
        Set<String> expectedPairs = pairs(JobFiles.read(fileAlerts));
        Set<String> expectedMerges = merges(JobFiles.read(fileAlerts));
        Map<String, String> expectedVerdicts = verdicts(JobFiles.read(fileVerdicts));
        assertThat(expectedVerdicts).hasSize(n);
        assertThat(expectedPairs).hasSizeGreaterThan(40);

        for (int partitions : new int[] {1, 4}) {
            String documents = KafkaTestBroker.uniqueTopic("documents");
            KafkaTestBroker.createTopics(partitions, documents);
            KafkaTestBroker.produce(documents, JobFiles.kafkaRecords(corpus.docs));
            for (int parallelism : new int[] {1, 2}) {
                Topics t =
                        new Topics(
                                documents,
                                KafkaTestBroker.uniqueTopic("alerts"),
                                KafkaTestBroker.uniqueTopic("verdicts"),
                                KafkaTestBroker.uniqueTopic("dead-letters"));
                KafkaTestBroker.createTopics(2, t.alerts, t.verdicts, t.deadLetters);
                Configuration conf = conf(t, Files.createTempDirectory(work, "k"), true);
                conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
                conf.set(NearDupOptions.KAFKA_GROUP_ID, "it-" + t.verdicts);
                conf.set(NearDupOptions.KAFKA_TRANSACTIONAL_ID_PREFIX, "it-" + t.verdicts);
                // Each partition is in fetchedAt order: no out-of-orderness to wait for.
                conf.set(NearDupOptions.MAX_OUT_OF_ORDERNESS, Duration.ZERO);
                JobClient job =
                        KafkaJob.start(conf, NearDupSettings.from(conf), KafkaSettings.from(conf));
                job.getJobExecutionResult().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                String run = partitions + " partition(s), parallelism " + parallelism;
                List<JsonNode> verdicts =
                        KafkaTestBroker.values(
                                KafkaTestBroker.readCommitted(
                                        t.verdicts, n, WAIT, Duration.ofSeconds(1)));
                List<JsonNode> alerts =
                        KafkaTestBroker.values(
                                KafkaTestBroker.readCommitted(
                                        t.alerts,
                                        expectedPairs.size() + expectedMerges.size(),
                                        WAIT,
                                        Duration.ofSeconds(1)));
                assertThat(verdicts(verdicts)).as(run).isEqualTo(expectedVerdicts);
                assertThat(pairs(alerts)).as(run).isEqualTo(expectedPairs);
                assertThat(JobFiles.pairs(alerts))
                        .as(run + ": each pair once")
                        .hasSize(expectedPairs.size());
                assertThat(merges(alerts)).as(run + ": cluster merges").isEqualTo(expectedMerges);
                assertThat(alerts).hasSize(expectedPairs.size() + expectedMerges.size());
            }
        }
    }

    private static Map<String, String> verdicts(List<JsonNode> verdicts) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (JsonNode v : verdicts) {
            String was =
                    out.put(
                            v.get("docId").asText(),
                            v.get("verdict").asText()
                                    + " "
                                    + v.get("duplicateOf").asText("")
                                    + " in "
                                    + v.get("clusterId").asText(""));
            assertThat(was).as("one verdict for %s", v.get("docId").asText()).isNull();
        }
        return out;
    }

    @Test
    void plantedDuplicatesAndBadInputBetweenTopics() throws Exception {
        Topics topics = Topics.create();
        PlantedCorpus corpus = new PlantedCorpus(5);
        for (int i = 0; i < 60; i++) {
            corpus.addBase("base-" + i, 2000);
        }
        for (int i = 0; i < 30; i++) {
            corpus.addVariant("base-" + i, "high-" + i, 0.92 + 0.08 * (i % 5) / 5.0);
        }
        for (int i = 30; i < 40; i++) {
            corpus.addVariant("base-" + i, "low-" + i, 0.3 + 0.2 * (i % 5) / 5.0);
        }
        corpus.shuffleKeepingBasesFirst();

        // The bad-input set: each must end in the dead-letter topic, and none may fail the job
        // (the restart strategy is 'none', so any failure would fail the test).
        byte[] garbage = new byte[2000];
        new SplittableRandom(3).nextBytes(garbage);
        garbage[0] = (byte) 0xFF; // never valid UTF-8
        byte[] invalidUtf8 =
                "{\"id\":\"bad-utf8\",\"content\":\"caf\u00e9 X\"}"
                        .getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < invalidUtf8.length; i++) {
            if (invalidUtf8[i] == (byte) 0xA9) {
                invalidUtf8[i] = 0x28; // "é" = 0xC3 0xA9 becomes 0xC3 0x28: not UTF-8
            }
        }
        char[] huge = new char[20 * 1024 * 1024];
        Arrays.fill(huge, 'a');
        for (int i = 5; i < huge.length; i += 6) {
            huge[i] = ' ';
        }
        byte[] twentyMegabytes =
                ("{\"id\":\"huge\",\"content\":\"" + new String(huge) + "\"}")
                        .getBytes(StandardCharsets.UTF_8);
        List<Map.Entry<String, byte[]>> bad = new ArrayList<>();
        bad.add(Map.entry("k1", "{\"id\": \"broken\", ".getBytes(StandardCharsets.UTF_8)));
        bad.add(Map.entry("k2", "{\"content\": \"no id\"}".getBytes(StandardCharsets.UTF_8)));
        bad.add(Map.entry("k3", "{\"id\": \"no-content\"}".getBytes(StandardCharsets.UTF_8)));
        bad.add(
                Map.entry(
                        "k4",
                        "{\"id\": \"empty\", \"content\": \"\"}".getBytes(StandardCharsets.UTF_8)));
        bad.add(Map.entry("k5", twentyMegabytes));
        bad.add(Map.entry("k6", invalidUtf8));
        bad.add(Map.entry("k7", garbage));
        bad.add(Map.entry("k8", "[{\"id\": \"in-array\"}]".getBytes(StandardCharsets.UTF_8)));
        Map<String, String> expectedReasons =
                Map.of(
                        "k1", "MALFORMED_JSON",
                        "k2", "MISSING_ID",
                        "k3", "MISSING_CONTENT",
                        "k4", "EMPTY_CONTENT",
                        "k5", "TOO_LARGE",
                        "k6", "INVALID_UTF8",
                        "k7", "INVALID_UTF8",
                        "k8", "NOT_AN_OBJECT");

        List<Map.Entry<String, byte[]>> input = JobFiles.kafkaRecords(corpus.docs);
        input.addAll(20, bad.subList(0, 4));
        input.addAll(bad.subList(4, 8));
        KafkaTestBroker.produce(topics.documents, input);

        Path work = Files.createTempDirectory(MiniClusters.TMP, "kafka");
        Configuration conf = conf(topics, work, true);
        NearDupSettings settings = NearDupSettings.from(conf);
        JobClient job = KafkaJob.start(conf, settings, KafkaSettings.from(conf));
        job.getJobExecutionResult().get(WAIT.toSeconds(), TimeUnit.SECONDS);

        int valid = corpus.docs.size();
        List<JsonNode> verdicts =
                KafkaTestBroker.values(
                        KafkaTestBroker.readCommitted(
                                topics.verdicts, valid, WAIT, Duration.ofSeconds(2)));
        assertThat(verdicts.stream().map(v -> v.get("docId").asText()))
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(
                        corpus.docs.stream().map(PlantedCorpus.Doc::id).toList());

        List<ConsumerRecord<byte[], byte[]>> alertRecords =
                KafkaTestBroker.readCommitted(topics.alerts, 1, WAIT, Duration.ofSeconds(2));
        List<JsonNode> alerts = KafkaTestBroker.values(alertRecords);
        Set<String> alerted = pairs(alerts);
        assertThat(alerted).as("each pair once").hasSize(alerts.size());
        List<PlantedCorpus.Pair> high =
                corpus.planted.stream().filter(p -> p.jaccard() >= 0.9).toList();
        // Records of different partitions are read in parallel, so a copy may reach a bucket
        // before its original; the pair is still alerted from the later document (by fetchedAt)
        // to the earlier, and never the other way round.
        List<PlantedCorpus.Pair> missed =
                high.stream()
                        .filter(p -> !alerted.contains(p.later() + ">" + p.earlier()))
                        .toList();
        for (PlantedCorpus.Pair p : corpus.planted) {
            assertThat(alerted).doesNotContain(p.earlier() + ">" + p.later());
        }
        assertThat(1.0 - (double) missed.size() / high.size())
                .as("recall at J >= 0.9; missed %s", missed)
                .isGreaterThanOrEqualTo(0.99);
        for (PlantedCorpus.Pair p : corpus.planted) {
            if (p.jaccard() <= 0.5) {
                assertThat(alerted)
                        .doesNotContain(
                                p.later() + ">" + p.earlier(), p.earlier() + ">" + p.later());
            }
        }
        for (ConsumerRecord<byte[], byte[]> r : alertRecords) {
            JsonNode a = Json.MAPPER.readTree(r.value());
            assertThat(new String(r.key(), StandardCharsets.UTF_8))
                    .isEqualTo(a.get("docId").asText());
        }

        List<ConsumerRecord<byte[], byte[]>> dead =
                KafkaTestBroker.readCommitted(
                        topics.deadLetters, bad.size(), WAIT, Duration.ofSeconds(2));
        assertThat(dead).hasSize(bad.size());
        Map<String, String> reasonBySourceKey = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            JsonNode d = Json.MAPPER.readTree(r.value());
            assertThat(header(r, "neardup.dlq.reason")).isEqualTo(d.get("reason").asText());
            assertThat(header(r, "neardup.dlq.topic")).isEqualTo(topics.documents);
            assertThat(d.get("sourceTopic").asText()).isEqualTo(topics.documents);
            assertThat(header(r, "neardup.dlq.offset")).isEqualTo(d.get("sourceOffset").asText());
            assertThat(d.get("message").asText()).isNotBlank();
            reasonBySourceKey.put(originalKey(d, bad), d.get("reason").asText());
            if (d.get("reason").asText().equals("TOO_LARGE")) {
                assertThat(d.get("payloadBytes").asLong()).isEqualTo(twentyMegabytes.length);
                assertThat(d.get("payloadTruncated").asBoolean()).isTrue();
            }
        }
        assertThat(reasonBySourceKey).isEqualTo(expectedReasons);
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** Which bad record a dead letter is about, from its payload (text or base64). */
    private static String originalKey(JsonNode d, List<Map.Entry<String, byte[]>> bad) {
        String payload = d.get("payload").asText();
        byte[] bytes =
                d.get("payloadEncoding").asText().equals("base64")
                        ? Base64.getDecoder().decode(payload)
                        : payload.getBytes(StandardCharsets.UTF_8);
        for (Map.Entry<String, byte[]> e : bad) {
            byte[] original = e.getValue();
            byte[] prefix = Arrays.copyOf(original, Math.min(original.length, bytes.length));
            if (Arrays.equals(prefix, bytes)) {
                return e.getKey();
            }
        }
        throw new AssertionError("dead letter matches no bad record: " + d);
    }

    @Test
    void recoversExactlyOnceAfterCancellationMidStream() throws Exception {
        Topics topics = Topics.create();
        PlantedCorpus corpus = new PlantedCorpus(9);
        for (int i = 0; i < 40; i++) {
            corpus.addBase("a-" + i, 2000);
        }
        List<PlantedCorpus.Doc> batchA = List.copyOf(corpus.docs);
        for (int i = 0; i < 40; i++) {
            corpus.addBase("b-" + i, 2000);
        }
        for (int i = 0; i < 20; i++) {
            corpus.addVariant("a-" + i, "b-copy-" + i, 0.96);
        }
        List<PlantedCorpus.Doc> batchB =
                List.copyOf(corpus.docs.subList(batchA.size(), corpus.docs.size()));
        for (int i = 20; i < 25; i++) {
            corpus.addVariant("a-" + i, "c-copy-" + i, 0.96);
        }
        List<PlantedCorpus.Doc> batchC =
                List.copyOf(corpus.docs.subList(batchA.size() + batchB.size(), corpus.docs.size()));

        Path work = Files.createTempDirectory(MiniClusters.TMP, "recover");
        Configuration conf = conf(topics, work, false);
        conf.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        NearDupSettings settings = NearDupSettings.from(conf);

        JobClient first = KafkaJob.start(conf, settings, KafkaSettings.from(conf));
        KafkaTestBroker.produce(topics.documents, JobFiles.kafkaRecords(batchA));
        KafkaTestBroker.readCommitted(topics.verdicts, batchA.size(), WAIT, Duration.ZERO);
        KafkaTestBroker.produce(topics.documents, JobFiles.kafkaRecords(batchB));
        // Mid-stream: as soon as part of batch B is committed, cancel (no savepoint).
        KafkaTestBroker.readCommitted(topics.verdicts, batchA.size() + 5, WAIT, Duration.ZERO);
        first.cancel().get(60, TimeUnit.SECONDS);

        Path checkpoint = latestCheckpoint(work.resolve("checkpoints"));
        Configuration restore = new Configuration(conf);
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, checkpoint.toUri().toString());
        JobClient second = KafkaJob.start(restore, settings, KafkaSettings.from(restore));
        int afterB = batchA.size() + batchB.size();
        KafkaTestBroker.readCommitted(topics.verdicts, afterB, WAIT, Duration.ZERO);
        // A document after the restart matches documents from before it: state survived.
        KafkaTestBroker.produce(topics.documents, JobFiles.kafkaRecords(batchC));
        int all = corpus.docs.size();
        List<JsonNode> verdicts =
                KafkaTestBroker.values(
                        KafkaTestBroker.readCommitted(
                                topics.verdicts, all, WAIT, Duration.ofSeconds(3)));
        second.cancel().get(60, TimeUnit.SECONDS);

        assertThat(verdicts.stream().map(v -> v.get("docId").asText()))
                .as("exactly one verdict per document: none lost, none duplicated")
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(
                        corpus.docs.stream().map(PlantedCorpus.Doc::id).toList());
        List<JsonNode> alerts =
                KafkaTestBroker.values(
                        KafkaTestBroker.readCommitted(
                                topics.alerts, 25, WAIT, Duration.ofSeconds(2)));
        Set<String> expected =
                corpus.planted.stream()
                        .map(p -> p.later() + ">" + p.earlier())
                        .collect(Collectors.toSet());
        assertThat(alerts).as("no duplicate alert").hasSize(pairs(alerts).size());
        assertThat(pairs(alerts)).isEqualTo(expected);
        for (JsonNode v : verdicts) {
            if (v.get("docId").asText().startsWith("c-copy-")) {
                assertThat(v.get("verdict").asText()).isEqualTo("DUPLICATE");
            }
        }
    }

    private static Path latestCheckpoint(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.getFileName().toString().equals("_metadata"))
                    .map(Path::getParent)
                    .max((a, b) -> Long.compare(number(a), number(b)))
                    .orElseThrow(() -> new AssertionError("no retained checkpoint under " + root));
        }
    }

    private static long number(Path chk) {
        String name = chk.getFileName().toString();
        return name.startsWith("chk-") ? Long.parseLong(name.substring(4)) : -1;
    }
}
