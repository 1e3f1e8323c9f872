package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.eval.ExactSimilarityJoin;
import dev.neardup.io.Json;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.PlantedCorpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A crawl without {@code fetchedAt} is ordered by its lines: the same alerts and verdicts at every
 * parallelism and split count, every pair alerted from the later line to the earlier one, and the
 * same pairs as the same lines with increasing {@code fetchedAt}.
 */
class InputOrderITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .setConfiguration(tmpDirs())
                            .build());

    private static final double THRESHOLD = 0.8;

    private static PlantedCorpus corpus;
    private static Path undated;
    private static Path dated;

    private static Configuration tmpDirs() {
        Configuration conf = new Configuration();
        conf.set(CoreOptions.TMP_DIRS, MiniClusters.TMP.toString());
        return conf;
    }

    @BeforeAll
    static void writeCrawl() throws Exception {
        // Near-copies spread through the file, each after its original; ids in no useful order.
        corpus = new PlantedCorpus(24);
        SplittableRandom random = new SplittableRandom(25);
        for (int b = 0; corpus.docs.size() < 1500; b++) {
            String base = corpus.addBase("p" + Long.toHexString(random.nextLong()), 900);
            int copies = random.nextInt(4);
            for (int c = 0; c < copies; c++) {
                corpus.addVariant(
                        base,
                        "p" + Long.toHexString(random.nextLong()),
                        0.6 + 0.4 * random.nextDouble());
            }
        }
        corpus.shuffleKeepingBasesFirst(); // fetch times increase with the line
        Path dir = Files.createTempDirectory(MiniClusters.TMP, "order");
        dated = dir.resolve("dated.jsonl");
        undated = dir.resolve("undated.jsonl");
        JobFiles.writeInput(dated, corpus.docs, Map.of());
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(dated, StandardCharsets.UTF_8)) {
            ObjectNode doc = (ObjectNode) Json.MAPPER.readTree(line);
            doc.remove("fetchedAt");
            lines.add(Json.MAPPER.writeValueAsString(doc));
        }
        Files.write(undated, lines, StandardCharsets.UTF_8);
    }

    /** The outputs of one run, less the fields that may vary. */
    private record Outputs(
            List<String> alerts,
            List<String> verdicts,
            List<JsonNode> pairs,
            List<String> sources,
            boolean sorted) {}

    private static Outputs run(Path input, int parallelism, MemorySize splitSize) throws Exception {
        return run(input, parallelism, splitSize, new Configuration());
    }

    private static Outputs run(
            Path input, int parallelism, MemorySize splitSize, Configuration conf)
            throws Exception {
        Path dir = Files.createTempDirectory(MiniClusters.TMP, "run");
        conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        if (splitSize != null) {
            conf.set(NearDupOptions.FILE_SPLIT_SIZE, splitSize);
        }
        conf.set(NearDupOptions.THRESHOLD, THRESHOLD);
        EmbeddedJob.run(
                EmbeddedJob.configuration(conf, dir, Duration.ofSeconds(1)),
                NearDupSettings.from(conf),
                input,
                dir.resolve("alerts.jsonl").toString(),
                dir.resolve("verdicts.jsonl").toString(),
                dir.resolve("dead-letters.jsonl").toString());
        List<JsonNode> alerts = JobFiles.read(dir.resolve("alerts.jsonl"));
        List<JsonNode> verdicts = JobFiles.read(dir.resolve("verdicts.jsonl"));
        assertThat(JobFiles.read(dir.resolve("dead-letters.jsonl"))).isEmpty();
        assertThat(verdicts).hasSize(corpus.docs.size());
        List<String> sources = new ArrayList<>();
        verdicts.forEach(
                v -> sources.add(v.get("docId").asText() + " " + v.get("source").asText()));
        sources.sort(null);
        return new Outputs(
                normalized(alerts, "band", "detectedAt"),
                normalized(verdicts, "detectedAt", "source"),
                JobFiles.pairs(alerts),
                sources,
                Files.exists(dir.resolve("tmp").resolve("input-in-fetch-order.jsonl")));
    }

    private static List<String> normalized(List<JsonNode> records, String... variable) {
        List<String> out = new ArrayList<>();
        for (JsonNode r : records) {
            ObjectNode copy = r.deepCopy();
            copy.remove(List.of(variable));
            out.add(copy.toString());
        }
        out.sort(null);
        return out;
    }

    @Test
    void undatedLinesAreOrderedByTheirPlaceInTheInput() throws Exception {
        Outputs one = run(undated, 1, null); // one reader, one split
        Outputs[] others = {
            run(undated, 2, null), // two readers, the default split size: one split here
            run(undated, 2, MemorySize.parse("64kb")),
            run(undated, 4, MemorySize.parse("32kb")),
        };
        for (Outputs other : others) {
            assertThat(other.alerts()).isEqualTo(one.alerts());
            assertThat(other.verdicts()).isEqualTo(one.verdicts());
        }

        Map<String, Integer> line = new HashMap<>();
        for (int i = 0; i < corpus.docs.size(); i++) {
            line.put(corpus.docs.get(i).id(), i + 1);
        }
        assertThat(one.pairs()).isNotEmpty();
        for (JsonNode a : one.pairs()) {
            String later = a.get("docId").asText();
            String earlier = a.get("duplicateOf").asText();
            assertThat(line.get(later))
                    .as("%s after %s", later, earlier)
                    .isGreaterThan(line.get(earlier));
            // An undated line's event time is its line number in milliseconds after the epoch.
            assertThat(a.get("eventTime").asText()).isEqualTo(Json.isoTime(line.get(later)));
        }

        // The same pairs as the same lines with increasing fetchedAt, so the same recall and
        // precision against the exact pairs.
        Outputs timed = run(dated, 2, MemorySize.parse("64kb"));
        Set<String> undatedPairs = pairs(one.pairs());
        assertThat(undatedPairs).isEqualTo(pairs(timed.pairs()));
        double[] quality = recallAndPrecision(undatedPairs);
        assertThat(quality).isEqualTo(recallAndPrecision(pairs(timed.pairs())));
        assertThat(quality[0]).as("pair recall at J >= 0.9").isGreaterThan(0.95);
        assertThat(quality[1]).as("pair precision at J >= 0.7").isGreaterThan(0.95);
    }

    /**
     * Files stream through the job with watermarks from their measured disorder: the same lines
     * with their fetch times a little out of order (neighbours swapped), and shuffled whole, give
     * the outputs of the lines in order, at two readers of small splits.
     */
    @Test
    void aFileOutOfOrderGivesTheOutputsOfTheSameLinesInOrder() throws Exception {
        List<String> lines = Files.readAllLines(dated, StandardCharsets.UTF_8);
        List<String> jittered = new ArrayList<>(lines);
        for (int i = 0; i + 1 < jittered.size(); i += 3) {
            java.util.Collections.swap(jittered, i, i + 1);
        }
        List<String> shuffled = new ArrayList<>(lines);
        java.util.Collections.shuffle(shuffled, new java.util.Random(26));
        Path dir = Files.createTempDirectory(MiniClusters.TMP, "disorder");
        Path jitteredFile = Files.write(dir.resolve("jittered.jsonl"), jittered);
        Path shuffledFile = Files.write(dir.resolve("shuffled.jsonl"), shuffled);

        Outputs ordered = run(dated, 2, MemorySize.parse("64kb"));
        assertThat(ordered.pairs()).isNotEmpty();
        assertThat(ordered.sorted()).as("a file in fetch order is read as it is").isFalse();
        Configuration neverSorted = new Configuration();
        neverSorted.set(NearDupOptions.SORT_ABOVE, Duration.ofDays(36500));
        Outputs waiting = run(shuffledFile, 2, MemorySize.parse("64kb"), neverSorted);
        assertThat(waiting.sorted()).isFalse();
        Outputs copied = run(shuffledFile, 2, MemorySize.parse("64kb"));
        assertThat(copied.sorted()).as("a shuffled file is read as a sorted copy").isTrue();
        assertThat(copied.sources())
                .as("the sorted copy's records keep the file:line of their lines")
                .isEqualTo(waiting.sources());
        Map<String, Outputs> others =
                Map.of(
                        "jittered",
                        run(jitteredFile, 2, MemorySize.parse("64kb")),
                        "shuffled, waiting for its end",
                        waiting,
                        "shuffled, sorted",
                        copied);
        others.forEach(
                (name, o) -> {
                    assertThat(o.alerts()).as("alerts of %s", name).isEqualTo(ordered.alerts());
                    assertThat(o.verdicts())
                            .as("verdicts of %s", name)
                            .isEqualTo(ordered.verdicts());
                });
    }

    private static Set<String> pairs(List<JsonNode> alerts) {
        Set<String> out = new HashSet<>();
        for (JsonNode a : alerts) {
            out.add(a.get("docId").asText() + " " + a.get("duplicateOf").asText());
        }
        return out;
    }

    /**
     * Pair recall (exact pairs at J >= 0.9, later line first, that were alerted) and pair precision
     * (alerted pairs at exact J >= 0.7).
     */
    private static double[] recallAndPrecision(Set<String> alerted) {
        List<ShingleSet> sets = new ArrayList<>();
        corpus.docs.forEach(d -> sets.add(corpus.shingles(d.id())));
        Map<String, Double> exact = new LinkedHashMap<>();
        for (ExactSimilarityJoin.Pair p : ExactSimilarityJoin.allPairs(sets, 0.5)) {
            String earlier = corpus.docs.get(p.first()).id();
            String later = corpus.docs.get(p.second()).id();
            exact.put(later + " " + earlier, p.jaccard());
        }
        long high = exact.values().stream().filter(j -> j >= 0.9).count();
        long found =
                exact.entrySet().stream()
                        .filter(e -> e.getValue() >= 0.9 && alerted.contains(e.getKey()))
                        .count();
        long precise = alerted.stream().filter(p -> exact.getOrDefault(p, 0.0) >= 0.7).count();
        return new double[] {(double) found / high, (double) precise / alerted.size()};
    }
}
