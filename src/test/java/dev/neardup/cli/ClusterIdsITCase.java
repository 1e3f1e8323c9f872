package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.ShortTempDirs;
import dev.neardup.tools.bench.SyntheticText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Cluster ids of the streaming job (issue 13, item 1), end to end on the embedded MiniCluster:
 * every verdict carries a cluster id, a document that joins two clusters emits a cluster-merged
 * event, and a consumer that follows the documented recipe (a union-find over each verdict's
 * document and cluster id and each merge's two clusters, the earliest document as root) ends up
 * with exactly the connected components of the reported pairs, each named by its earliest document.
 */
class ClusterIdsITCase {

    /**
     * a and b are two edits of one page (about 0.63 Jaccard to each other, below the threshold of
     * 0.7), m the page itself (about 0.8 to each): a and b start clusters of their own, and m,
     * later, joins them. c is an unrelated page.
     */
    @Test
    void aDocumentThatMatchesTwoClustersMergesThemIntoTheEarlier() throws Exception {
        Path dir = ShortTempDirs.create("nd-clusters");
        String[] base = words(SyntheticText.prose(41, 7000), 1000);
        String[] other = words(SyntheticText.prose(42, 7000), 1000);
        String a = String.join(" ", replaced(base, other, 100, 110));
        String b = String.join(" ", replaced(base, other, 600, 110));
        String m = String.join(" ", base);
        String c = SyntheticText.prose(43, 6000);
        Path input = dir.resolve("docs.jsonl");
        Files.writeString(
                input,
                String.join(
                                "\n",
                                doc("a", a, "2026-03-01T10:00:00Z"),
                                doc("b", b, "2026-03-01T11:00:00Z"),
                                doc("c", c, "2026-03-01T11:30:00Z"),
                                doc("m", m, "2026-03-01T12:00:00Z"))
                        + "\n",
                StandardCharsets.UTF_8);
        Outputs out = run(dir, input, "--threshold", "0.7");

        Map<String, JsonNode> verdicts = byDocId(out.verdicts);
        assertThat(verdicts.get("a").get("verdict").asText()).isEqualTo("UNIQUE");
        assertThat(verdicts.get("b").get("verdict").asText())
                .as("b is below the threshold to a")
                .isEqualTo("UNIQUE");
        assertThat(verdicts.get("a").get("clusterId").asText()).isEqualTo("a");
        assertThat(verdicts.get("b").get("clusterId").asText()).isEqualTo("b");
        assertThat(verdicts.get("c").get("clusterId").asText()).isEqualTo("c");
        assertThat(verdicts.get("m").get("verdict").asText()).isEqualTo("DUPLICATE");
        assertThat(verdicts.get("m").get("clusterId").asText()).isEqualTo("a");

        List<JsonNode> merges = merges(out.alerts);
        assertThat(merges).hasSize(1);
        JsonNode merge = merges.get(0);
        assertThat(merge.get("docId").asText()).isEqualTo("m");
        assertThat(merge.get("clusterId").asText()).isEqualTo("a");
        assertThat(merge.get("mergedClusterId").asText()).isEqualTo("b");
        assertThat(merge.get("clusterEventTime").asText()).isEqualTo("2026-03-01T10:00:00Z");
        assertThat(merge.get("mergedClusterEventTime").asText()).isEqualTo("2026-03-01T11:00:00Z");
        assertThat(merge.has("duplicateOf")).isFalse();
        assertConsumerRecipeGivesTheComponents(out);
    }

    /** The bundled sample, at parallelism 2: the recipe's clusters are the pairs' components. */
    @Test
    void onTheSampleTheRecipeGivesTheComponentsOfTheReportedPairs() throws Exception {
        Path dir = ShortTempDirs.create("nd-clusters-sample");
        try {
            Outputs out = run(dir, null);
            assertThat(out.verdicts).hasSizeGreaterThan(50);
            Map<String, Set<String>> components = assertConsumerRecipeGivesTheComponents(out);
            assertThat(components.values().stream().filter(c -> c.size() > 1))
                    .as("the sample has near-duplicate clusters")
                    .isNotEmpty();
        } finally {
            dev.neardup.runtime.StateDir.deleteTree(dir);
        }
    }

    private record Outputs(List<JsonNode> alerts, List<JsonNode> verdicts) {}

    private static Outputs run(Path dir, Path input, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("run"));
        if (input == null) {
            args.add("--sample");
        } else {
            args.addAll(List.of("--input", input.toString()));
        }
        args.addAll(
                List.of(
                        "--alerts",
                        dir.resolve("alerts.jsonl").toString(),
                        "--verdicts",
                        dir.resolve("verdicts.jsonl").toString(),
                        "--parallelism",
                        "2"));
        args.addAll(Arrays.asList(extra));
        CliRun run = CliRun.run(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
        return new Outputs(
                JobFiles.read(dir.resolve("alerts.jsonl")),
                JobFiles.read(dir.resolve("verdicts.jsonl")));
    }

    /**
     * The consumer recipe of README against the components of the reported pairs; returns the
     * components by their earliest document.
     */
    private static Map<String, Set<String>> assertConsumerRecipeGivesTheComponents(Outputs out) {
        Map<String, Instant> time = new HashMap<>();
        for (JsonNode v : out.verdicts) {
            time.put(v.get("docId").asText(), Instant.parse(v.get("eventTime").asText()));
        }
        // Components of the reported pairs, each keyed by its earliest document.
        UnionFind pairs = new UnionFind(time);
        for (JsonNode a : out.alerts) {
            if (!a.has("event")) {
                pairs.union(a.get("docId").asText(), a.get("duplicateOf").asText());
            }
        }
        // The consumer's view: verdicts' cluster ids and merges only.
        UnionFind consumer = new UnionFind(time);
        for (JsonNode v : out.verdicts) {
            String verdict = v.get("verdict").asText();
            JsonNode cluster = v.get("clusterId");
            assertThat(cluster.isTextual()).as("clusterId of %s", v).isTrue();
            if (verdict.equals("UNIQUE")) {
                assertThat(cluster.asText()).isEqualTo(v.get("docId").asText());
            }
            consumer.union(v.get("docId").asText(), cluster.asText());
        }
        for (JsonNode m : merges(out.alerts)) {
            consumer.union(m.get("mergedClusterId").asText(), m.get("clusterId").asText());
        }
        Map<String, Set<String>> expected = pairs.components(time.keySet());
        assertThat(consumer.components(time.keySet())).isEqualTo(expected);
        return expected;
    }

    private static List<JsonNode> merges(List<JsonNode> alerts) {
        return alerts.stream()
                .filter(a -> a.has("event"))
                .peek(a -> assertThat(a.get("event").asText()).isEqualTo("cluster-merged"))
                .toList();
    }

    /** Union-find whose roots are the earliest documents (event time, then id). */
    private static final class UnionFind {
        private final Map<String, Instant> time;
        private final Map<String, String> parent = new HashMap<>();

        UnionFind(Map<String, Instant> time) {
            this.time = time;
        }

        String find(String x) {
            String p = parent.getOrDefault(x, x);
            if (p.equals(x)) {
                return x;
            }
            String root = find(p);
            parent.put(x, root);
            return root;
        }

        void union(String x, String y) {
            String rx = find(x);
            String ry = find(y);
            if (rx.equals(ry)) {
                return;
            }
            if (earlier(rx, ry)) {
                parent.put(ry, rx);
            } else {
                parent.put(rx, ry);
            }
        }

        private boolean earlier(String x, String y) {
            int byTime = time.get(x).compareTo(time.get(y));
            return byTime < 0 || (byTime == 0 && x.compareTo(y) < 0);
        }

        Map<String, Set<String>> components(Set<String> docs) {
            Map<String, Set<String>> out = new TreeMap<>();
            for (String d : docs) {
                out.computeIfAbsent(find(d), r -> new HashSet<>()).add(d);
            }
            return out;
        }
    }

    private static Map<String, JsonNode> byDocId(List<JsonNode> verdicts) {
        Map<String, JsonNode> out = new HashMap<>();
        verdicts.forEach(v -> out.put(v.get("docId").asText(), v));
        return out;
    }

    private static String[] words(String text, int n) {
        String[] all = text.split("\\s+");
        assertThat(all.length).isGreaterThanOrEqualTo(n);
        return Arrays.copyOf(all, n);
    }

    /** {@code base} with {@code length} words from {@code at} taken from {@code other}. */
    private static String[] replaced(String[] base, String[] other, int at, int length) {
        String[] out = base.clone();
        System.arraycopy(other, at, out, at, length);
        return out;
    }

    private static String doc(String id, String content, String fetchedAt) {
        return Json.write(
                Map.of(
                        "id", id,
                        "content", content,
                        "contentType", "text/plain",
                        "fetchedAt", fetchedAt));
    }
}
