package dev.neardup.dedupe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.pipeline.NearDupOptions;
import dev.neardup.pipeline.SimilarityFamily;
import dev.neardup.sketch.SimHash;
import dev.neardup.testing.CosineCorpus;
import dev.neardup.testing.JobFiles;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code dedupe --similarity cosine --max-hamming 3} on a MiniCluster (parallelism 2), with both
 * candidate generators: the permuted-block tables (Manku et al., WWW 2007) must find exactly the
 * pairs of distinct fingerprints within Hamming distance 3 that a brute-force comparison of all
 * fingerprints finds; seed 002's sliding window finds a subset of them, whose share (its recall
 * against the tables) is measured and must reach 0.95 at W = 8, M = 10, and fall with W = 1, M = 1;
 * the clusters are compared with the connected components of the exact cosine graph at cos(3 pi /
 * 64) = 0.9892.
 */
class DedupeCosineITCase {

    private static Path dir;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(tmp())
                            .build());

    private static Configuration tmp() {
        try {
            dir = Files.createTempDirectory(Path.of("/tmp"), "nd-dedupe-cosine");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Configuration conf = new Configuration();
        conf.set(CoreOptions.TMP_DIRS, dir.toString());
        return conf;
    }

    private static final long INGEST = 1_800_000_000_000L;

    private static Configuration cosine() {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.SIMILARITY, SimilarityFamily.COSINE);
        conf.set(NearDupOptions.MAX_HAMMING, 3);
        conf.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        return conf;
    }

    private static Configuration window(int w, int m) {
        Configuration conf = cosine();
        conf.set(DedupeOptions.CANDIDATES, CandidateMethod.WINDOW);
        conf.set(DedupeOptions.WINDOW, w);
        conf.set(DedupeOptions.PERMUTATIONS, m);
        return conf;
    }

    private record Run(DedupeJob.Result result, Path out, DedupeSettings settings) {}

    private static Run run(Configuration conf, Path input, String name) throws Exception {
        Path out = Files.createDirectories(dir.resolve(name));
        DedupeSettings settings =
                DedupeSettings.from(conf, List.of(input.getFileName().toString()), INGEST);
        DedupeJob.Result r =
                new DedupeJob(
                                conf,
                                settings,
                                List.of(input.toString()),
                                new DedupeJob.Outputs(
                                        out.resolve("clusters.jsonl").toString(),
                                        null,
                                        out.resolve("pairs.jsonl").toString(),
                                        out.resolve("dead.jsonl").toString()),
                                out.resolve("work").toString())
                        .run();
        return new Run(r, out, settings);
    }

    /** Pairs of distinct fingerprints (as docId pairs, earlier first) that are not exact copies. */
    private static Set<String> nearPairs(Run run) {
        Set<String> pairs = new HashSet<>();
        for (JsonNode n : JobFiles.read(run.out().resolve("pairs.jsonl"))) {
            if (!n.get("exactCopy").asBoolean()) {
                int h = (int) Math.round(64 * Math.acos(n.get("similarity").asDouble()) / Math.PI);
                assertThat(h).isBetween(1, 3);
                assertThat(pairs.add(n.get("duplicateOf").asText() + " " + n.get("docId").asText()))
                        .as("each pair once")
                        .isTrue();
            }
        }
        return pairs;
    }

    private static Map<String, String> clusters(Run run) {
        Map<String, String> labels = new HashMap<>();
        for (JsonNode n : JobFiles.read(run.out().resolve("clusters.jsonl"))) {
            labels.put(n.get("docId").asText(), n.get("clusterId").asText());
        }
        return labels;
    }

    /**
     * Brute force: the earliest document of every distinct fingerprint (what the job keeps after
     * collapsing exact copies), and all pairs of them within distance 3.
     */
    private static Set<String> bruteForcePairs(List<String[]> docs, DedupeSettings settings) {
        TextSketcher sketcher = settings.job().newTextSketcher();
        Map<String, String> firstWith = new HashMap<>();
        Map<String, long[]> fingerprints = new HashMap<>();
        List<String> ids = new ArrayList<>();
        for (String[] d : docs) { // id, text; all at the same time, so ordered by id
            long[] f = sketcher.sketch(d[1]).signature();
            String k = Arrays.toString(f);
            String first = firstWith.get(k);
            if (first == null || d[0].compareTo(first) < 0) {
                firstWith.put(k, d[0]);
                fingerprints.put(d[0], f);
                if (first != null) {
                    ids.remove(first);
                    fingerprints.remove(first);
                }
                ids.add(d[0]);
            }
        }
        Set<String> pairs = new HashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            for (int j = i + 1; j < ids.size(); j++) {
                String a = ids.get(i);
                String b = ids.get(j);
                if (SimHash.hamming(fingerprints.get(a), fingerprints.get(b)) <= 3) {
                    pairs.add(a.compareTo(b) < 0 ? a + " " + b : b + " " + a);
                }
            }
        }
        return pairs;
    }

    @Test
    void blockTablesFindEveryPairWithinKAndTheWindowMostOfThem() throws Exception {
        CosineCorpus corpus = new CosineCorpus(1403, 150, 600, 0.5, 0, 1, 2, 3, 6, 12, 24, 360);
        Path input = dir.resolve("corpus.jsonl");
        List<String> lines = new ArrayList<>();
        List<String[]> docs = new ArrayList<>();
        for (CosineCorpus.Doc d : corpus.docs()) {
            lines.add(
                    Json.write(
                            Map.of(
                                    "id",
                                    d.id(),
                                    "content",
                                    d.text(),
                                    "fetchedAt",
                                    "2026-01-01T00:00:00Z")));
            docs.add(new String[] {d.id(), d.text()});
        }
        Files.write(input, lines, StandardCharsets.UTF_8);

        Run blocks = run(cosine(), input, "blocks");
        Set<String> truth = bruteForcePairs(docs, blocks.settings());
        Set<String> fromBlocks = nearPairs(blocks);
        assertThat(fromBlocks).isEqualTo(truth);

        Run window = run(window(8, 10), input, "window");
        Set<String> fromWindow = nearPairs(window);
        assertThat(truth).containsAll(fromWindow);
        double windowRecall = (double) fromWindow.size() / truth.size();
        Run narrow = run(window(1, 1), input, "narrow");
        Set<String> fromNarrow = nearPairs(narrow);
        double narrowRecall = (double) fromNarrow.size() / truth.size();

        Map<String, String> exact = ExactComponents.of(input, blocks.settings(), INGEST);
        ExactComponents.Agreement blockAgreement = ExactComponents.compare(clusters(blocks), exact);
        ExactComponents.Agreement windowAgreement =
                ExactComponents.compare(clusters(window), exact);
        System.out.printf(
                "dedupe cosine, %d documents: %d pairs of distinct fingerprints within 3 bits;"
                        + " blocks %d (%d comparisons), window W=8 M=10 %d = recall %.4f (%d"
                        + " comparisons), W=1 M=1 %d = recall %.4f (%d comparisons)%n"
                        + "  blocks vs exact cosine components: %s%n"
                        + "  window vs exact cosine components: %s%n",
                docs.size(),
                truth.size(),
                fromBlocks.size(),
                blocks.result().comparisons(),
                fromWindow.size(),
                windowRecall,
                window.result().comparisons(),
                fromNarrow.size(),
                narrowRecall,
                narrow.result().comparisons(),
                blockAgreement,
                windowAgreement);
        assertThat(windowRecall).isGreaterThanOrEqualTo(0.95);
        assertThat(narrowRecall).isLessThan(windowRecall);
        assertThat(blocks.result().exactCopies()).isEqualTo(window.result().exactCopies());
        assertThat(blockAgreement.precision()).isGreaterThanOrEqualTo(0.9);
        assertThat(blockAgreement.recall()).isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void onTheSampleCrawlTheWindowFindsWhatTheTablesFind() throws Exception {
        Path sample = dir.resolve("sample.jsonl");
        try (InputStream in = DedupeCosineITCase.class.getResourceAsStream("/sample/crawl.jsonl")) {
            Files.copy(in, sample, StandardCopyOption.REPLACE_EXISTING);
        }
        Set<String> fromBlocks = nearPairs(run(cosine(), sample, "sample-blocks"));
        Set<String> fromWindow = nearPairs(run(window(8, 10), sample, "sample-window"));
        System.out.printf(
                "dedupe cosine on the sample: blocks %d pairs, window %d%n",
                fromBlocks.size(), fromWindow.size());
        assertThat(fromBlocks).containsAll(fromWindow);
        assertThat(fromWindow.size()).isGreaterThanOrEqualTo((int) (0.95 * fromBlocks.size()));
    }
}
