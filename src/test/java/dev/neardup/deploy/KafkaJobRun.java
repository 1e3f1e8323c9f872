package dev.neardup.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.KafkaTestBroker;
import dev.neardup.testing.PlantedCorpus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * One neardup streaming job on a test cluster, seen from Kafka: its topics (unique to this run, on
 * the test broker), the program arguments that submit it (checkpoints every second, exactly-once
 * sinks), the planted documents it is fed, and its committed outputs, read with {@code
 * isolation.level=read_committed} and checked against the planted pairs.
 */
final class KafkaJobRun {

    static final Duration WAIT = Duration.ofMinutes(2);

    final PlantedCorpus corpus;
    final String run = UUID.randomUUID().toString().substring(0, 8);
    final String documents = "documents-" + run;
    final String alerts = "alerts-" + run;
    final String verdicts = "verdicts-" + run;
    final String deadLetters = "dead-letters-" + run;
    private final String name;

    /**
     * @param name names the run's consumer group and transactional ids ({@code NAME-RUN})
     * @param seed the planted corpus's seed
     */
    KafkaJobRun(String name, long seed) {
        this.name = name;
        this.corpus = new PlantedCorpus(seed);
    }

    /** Creates the four topics, each with {@code partitions} partitions. */
    void createTopics(int partitions) throws Exception {
        KafkaTestBroker.createTopics(partitions, documents, alerts, verdicts, deadLetters);
    }

    /**
     * The program arguments of the job jar for these topics (reading from the earliest offsets,
     * checkpoints every second), followed by {@code more}.
     */
    List<String> jobArgs(String... more) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "--bootstrap-servers",
                                KafkaTestBroker.bootstrapServers(),
                                "--input-topic",
                                documents,
                                "--alerts-topic",
                                alerts,
                                "--verdicts-topic",
                                verdicts,
                                "--dead-letter-topic",
                                deadLetters,
                                "--group-id",
                                name + "-" + run,
                                "--starting-offsets",
                                "earliest",
                                "--checkpoint-interval",
                                "1s",
                                "-D",
                                "neardup.kafka.transactional-id-prefix=" + name + "-" + run,
                                "-D",
                                "neardup.watermark.idle-timeout=3s"));
        args.addAll(List.of(more));
        return args;
    }

    /** Runs {@code add} and returns the documents it added to the corpus. */
    List<PlantedCorpus.Doc> added(Runnable add) {
        int from = corpus.docs.size();
        add.run();
        return List.copyOf(corpus.docs.subList(from, corpus.docs.size()));
    }

    /** Adds near-duplicates (Jaccard ~0.96) of documents {@code base + i}, i in [from, to). */
    void copies(String base, int from, int to, String prefix) {
        for (int i = from; i < to; i++) {
            corpus.addVariant(base + i, prefix + i, 0.96);
        }
    }

    /** Produces documents to the documents topic (keyed by id), waiting for their acks. */
    void produce(List<PlantedCorpus.Doc> docs) throws Exception {
        KafkaTestBroker.produce(documents, JobFiles.kafkaRecords(docs));
    }

    /**
     * The committed verdicts, once at least {@code expected} are there (and 2 s more, to catch any
     * extra); fails after {@link #WAIT}.
     */
    List<JsonNode> awaitVerdicts(int expected) {
        return KafkaTestBroker.values(
                KafkaTestBroker.readCommitted(verdicts, expected, WAIT, Duration.ofSeconds(2)));
    }

    /** Exactly one committed verdict per document of the corpus: none lost, none duplicated. */
    void assertOneVerdictPerDocument(List<JsonNode> verdictValues) {
        assertThat(verdictValues.stream().map(v -> v.get("docId").asText()))
                .as("exactly one verdict per document: none lost, none duplicated")
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(
                        corpus.docs.stream().map(PlantedCorpus.Doc::id).toList());
    }

    /**
     * Asserts that the committed alerts are the planted pairs, each exactly once (early alerts
     * included); returns the documents alerted early.
     */
    List<String> assertAlertsArePlantedPairs() {
        List<JsonNode> alertValues =
                KafkaTestBroker.values(
                        KafkaTestBroker.readCommitted(
                                alerts, corpus.planted.size(), WAIT, Duration.ofSeconds(2)));
        Set<String> pairs =
                alertValues.stream()
                        .map(a -> a.get("docId").asText() + ">" + a.get("duplicateOf").asText())
                        .collect(Collectors.toSet());
        assertThat(alertValues).as("no duplicate alert").hasSize(pairs.size());
        assertThat(pairs)
                .isEqualTo(
                        corpus.planted.stream()
                                .map(p -> p.later() + ">" + p.earlier())
                                .collect(Collectors.toSet()));
        return alertValues.stream()
                .filter(a -> a.path("early").asBoolean())
                .map(a -> a.get("docId").asText())
                .toList();
    }
}
