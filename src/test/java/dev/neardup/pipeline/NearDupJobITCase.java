package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.PlantedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole job on a MiniCluster with RocksDB and parallelism 2: a generated stream with planted
 * near-duplicates at known Jaccard levels and malformed lines mixed in.
 */
class NearDupJobITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.twoSlots();

    @Test
    void findsPlantedDuplicatesAndNothingDissimilar() throws Exception {
        PlantedCorpus corpus = new PlantedCorpus(42);
        int bases = 120;
        for (int i = 0; i < bases; i++) {
            corpus.addBase("base-" + i, 2500);
        }
        for (int i = 0; i < 60; i++) {
            corpus.addVariant("base-" + i, "high-" + i, 0.9 + 0.1 * (i % 10) / 10.0);
        }
        for (int i = 60; i < 100; i++) {
            corpus.addVariant("base-" + i, "low-" + i, 0.25 + 0.25 * (i % 10) / 10.0);
        }
        corpus.shuffleKeepingBasesFirst();
        Map<Integer, String> malformed =
                Map.of(
                        3, "{\"id\": \"broken\", ",
                        10, "[1, 2, 3]",
                        20, "{\"content\": \"no id here\"}",
                        30, "{\"id\": \"empty\", \"content\": \"   \"}",
                        40, "not json at all");

        Path dir = Files.createTempDirectory(MiniClusters.TMP, "job");
        Path input = dir.resolve("docs.jsonl");
        JobFiles.writeInput(input, corpus.docs, malformed);
        Configuration base = new Configuration();
        base.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        NearDupSettings settings = NearDupSettings.from(base);
        EmbeddedJob.run(
                EmbeddedJob.configuration(base, dir, Duration.ofMillis(500)),
                settings,
                input,
                dir.resolve("alerts.jsonl").toString(),
                dir.resolve("verdicts.jsonl").toString(),
                dir.resolve("dead-letters.jsonl").toString());

        List<JsonNode> alerts = JobFiles.read(dir.resolve("alerts.jsonl"));
        List<JsonNode> verdicts = JobFiles.read(dir.resolve("verdicts.jsonl"));
        List<JsonNode> deadLetters = JobFiles.read(dir.resolve("dead-letters.jsonl"));
        Set<String> alerted =
                alerts.stream()
                        .map(a -> a.get("docId").asText() + ">" + a.get("duplicateOf").asText())
                        .collect(Collectors.toSet());

        // Recall for planted pairs well above the threshold.
        List<PlantedCorpus.Pair> high =
                corpus.planted.stream().filter(p -> p.jaccard() >= 0.9).toList();
        assertThat(high).hasSizeGreaterThan(40);
        long found =
                high.stream().filter(p -> alerted.contains(p.later() + ">" + p.earlier())).count();
        assertThat((double) found / high.size())
                .as("recall at J >= 0.9")
                .isGreaterThanOrEqualTo(0.99);

        // No alert for planted pairs well below it, nor for any pair that is not similar.
        for (PlantedCorpus.Pair p : corpus.planted) {
            if (p.jaccard() <= 0.5) {
                assertThat(alerted).doesNotContain(p.later() + ">" + p.earlier());
            }
        }
        for (JsonNode a : alerts) {
            assertThat(corpus.jaccard(a.get("docId").asText(), a.get("duplicateOf").asText()))
                    .as("exact Jaccard of alerted pair %s", a)
                    .isGreaterThan(0.5);
        }
        assertThat(alerted).as("each pair alerted once").hasSize(alerts.size());

        // Exactly one verdict per valid document.
        Set<String> ids =
                corpus.docs.stream().map(PlantedCorpus.Doc::id).collect(Collectors.toSet());
        List<String> verdictIds = verdicts.stream().map(v -> v.get("docId").asText()).toList();
        assertThat(verdictIds).hasSize(ids.size()).doesNotHaveDuplicates();
        assertThat(new HashSet<>(verdictIds)).isEqualTo(ids);
        for (JsonNode v : verdicts) {
            String id = v.get("docId").asText();
            boolean alertedDoc = alerted.stream().anyMatch(k -> k.startsWith(id + ">"));
            if (alertedDoc) {
                assertThat(v.get("verdict").asText()).as(id).isEqualTo("DUPLICATE");
            }
            if (id.startsWith("base-")) {
                assertThat(v.get("verdict").asText()).as(id).isEqualTo("UNIQUE");
            }
        }

        // Dead letters for the malformed lines, with reasons.
        assertThat(deadLetters).hasSize(malformed.size());
        assertThat(deadLetters.stream().map(d -> d.get("reason").asText()))
                .containsExactlyInAnyOrder(
                        "MALFORMED_JSON",
                        "NOT_AN_OBJECT",
                        "MISSING_ID",
                        "EMPTY_CONTENT",
                        "MALFORMED_JSON");
        assertThat(deadLetters).allSatisfy(d -> assertThat(d.get("payload").asText()).isNotEmpty());
    }

    /**
     * A file read as many line-aligned splits by two readers gives exactly the outputs of one
     * reader of one split: the same alerts, verdicts and dead letters, with the same file:line
     * sources.
     */
    @Test
    void sameOutputsFromOneSplitAndFromManySplitsReadInParallel() throws Exception {
        PlantedCorpus corpus = new PlantedCorpus(9);
        for (int i = 0; i < 80; i++) {
            corpus.addBase("base-" + i, 1500);
        }
        for (int i = 0; i < 60; i++) {
            corpus.addVariant("base-" + (i % 80), "copy-" + i, 0.75 + 0.25 * (i % 10) / 10.0);
        }
        corpus.shuffleKeepingBasesFirst();
        Map<Integer, String> malformed =
                Map.of(5, "{\"id\": \"broken\", ", 77, "[1]", 130, "{\"content\": \"no id\"}");
        Path dir = Files.createTempDirectory(MiniClusters.TMP, "splits");
        Path input = dir.resolve("docs.jsonl");
        JobFiles.writeInput(input, corpus.docs, malformed);
        long splitBytes = Files.size(input) / 25;
        assertThat(dev.neardup.io.LineSplits.plan(input, splitBytes).count())
                .isGreaterThanOrEqualTo(20);

        List<List<String>> oneSplit = runSplit(input, dir.resolve("one"), 1, 1L << 40);
        List<List<String>> manySplits = runSplit(input, dir.resolve("many"), 2, splitBytes);

        assertThat(oneSplit.get(0)).as("alerts").hasSizeGreaterThan(40);
        assertThat(oneSplit.get(2)).as("dead letters").hasSize(3);
        assertThat(manySplits.get(0)).as("alerts").isEqualTo(oneSplit.get(0));
        assertThat(manySplits.get(1)).as("verdicts").isEqualTo(oneSplit.get(1));
        assertThat(manySplits.get(2)).as("dead letters").isEqualTo(oneSplit.get(2));
    }

    /**
     * Alerts, verdicts and dead letters, sorted, without what depends on arrival order: detection
     * times, the alerts' band (the band that reported the pair first) and the verdicts' candidate
     * count (comparisons made when the document reached its buckets).
     */
    private static List<List<String>> runSplit(
            Path input, Path dir, int parallelism, long splitBytes) throws Exception {
        Files.createDirectories(dir);
        Configuration base = new Configuration();
        base.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        base.set(
                NearDupOptions.FILE_SPLIT_SIZE,
                new org.apache.flink.configuration.MemorySize(splitBytes));
        EmbeddedJob.run(
                EmbeddedJob.configuration(base, dir, Duration.ofMillis(500)),
                NearDupSettings.from(base),
                input,
                dir.resolve("alerts.jsonl").toString(),
                dir.resolve("verdicts.jsonl").toString(),
                dir.resolve("dead-letters.jsonl").toString());
        List<List<String>> out = new java.util.ArrayList<>();
        for (String name : new String[] {"alerts.jsonl", "verdicts.jsonl", "dead-letters.jsonl"}) {
            out.add(
                    JobFiles.read(dir.resolve(name)).stream()
                            .map(
                                    n -> {
                                        var o = (com.fasterxml.jackson.databind.node.ObjectNode) n;
                                        o.remove("detectedAt");
                                        o.remove("band");
                                        o.remove("candidates");
                                        return o.toString();
                                    })
                            .sorted()
                            .toList());
        }
        return out;
    }
}
