package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import dev.neardup.io.OutputSchemas;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.ShortTempDirs;
import dev.neardup.tools.bench.SyntheticText;
import dev.neardup.tools.plot.SCurvePlot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code neardup dedupe} end to end, in-process, on embedded Flink. */
class DedupeCommandITCase {

    private static Path dir;

    @BeforeAll
    static void dir() throws Exception {
        dir = ShortTempDirs.create("nd-dedupe-cli");
    }

    @Test
    void dedupesTheSampleCrawl() throws Exception {
        Path out = dir.resolve("sample");
        CliRun run =
                CliRun.run(
                        "dedupe",
                        "--sample",
                        "--clusters",
                        out.resolve("clusters.jsonl").toString(),
                        "--keep",
                        out.resolve("keep.jsonl").toString(),
                        "--pairs",
                        out.resolve("pairs.jsonl").toString(),
                        "--dead-letters",
                        out.resolve("dead.jsonl").toString(),
                        "--summary",
                        out.resolve("summary.json").toString(),
                        "--histogram",
                        out.resolve("sizes.png").toString(),
                        "--progress-interval",
                        "100ms",
                        "-p",
                        "2");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err())
                .contains("neardup: done in")
                .contains("(one Flink job; components found in memory)")
                .contains("54 documents in 35 clusters, 19 to remove")
                .contains("neardup: cluster sizes:")
                .containsPattern("neardup:   1 +25 +25  #+\\n")
                .containsPattern("neardup:   5-8 +1 +5  #+\\n")
                .contains(
                        "neardup: exact verification: 29 of 39 candidates (bands 21 bands x 6"
                                + " rows, estimate >= 0.659) reach Jaccard 0.8 in their shingle"
                                + " sets")
                .contains("neardup: wrote " + out.resolve("sizes.png"));
        // Progress: JSON lines on stderr (not a terminal here), stage by stage.
        List<JsonNode> progress =
                run.err()
                        .lines()
                        .filter(l -> l.startsWith("{\"progress\":\"dedupe\""))
                        .map(DedupeCommandITCase::json)
                        .toList();
        assertThat(progress).isNotEmpty();
        assertThat(progress)
                .allSatisfy(
                        p -> {
                            assertThat(p.has("stage")).isTrue();
                            assertThat(p.has("records")).isTrue();
                            assertThat(p.has("recordsPerSecond")).isTrue();
                        });
        // 60 records: 54 documents, 6 older versions of re-crawled ids; 6 more are dead letters.
        assertThat(progress)
                .extracting(p -> p.get("documents").asLong())
                .isSorted()
                .allSatisfy(n -> assertThat(n).isBetween(0L, 60L));
        assertThat(progress.stream().map(p -> p.get("stage").asText()).distinct().count())
                .as("stages seen in %s", progress)
                .isGreaterThan(1);
        byte[] png = Files.readAllBytes(out.resolve("sizes.png"));
        assertThat(png).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
        java.awt.image.BufferedImage image =
                javax.imageio.ImageIO.read(out.resolve("sizes.png").toFile());
        assertThat(image.getWidth()).isEqualTo(SCurvePlot.WIDTH);
        JsonNode summary = Json.MAPPER.readTree(out.resolve("summary.json").toFile());
        assertThat(summary.get("jobs").asInt()).isEqualTo(1);
        assertThat(summary.get("clusterSizes").get("1").asInt()).isEqualTo(25);
        assertThat(summary.get("verify").asText()).isEqualTo("exact");
        assertThat(summary.get("bands").asInt()).isEqualTo(21);
        assertThat(summary.get("exactChecks").asInt()).isEqualTo(39);
        assertThat(summary.get("documents").asLong()).isEqualTo(54);
        assertThat(summary.get("deadLetters").asLong()).isEqualTo(6);
        assertThat(summary.get("supersededVersions").asLong()).isEqualTo(6);
        assertThat(summary.get("largestClusters").get(0).get("size").asInt()).isEqualTo(5);
        List<JsonNode> clusters = JobFiles.read(out.resolve("clusters.jsonl"));
        List<JsonNode> keep = JobFiles.read(out.resolve("keep.jsonl"));
        assertThat(clusters).hasSize(54);
        assertThat(keep).hasSize(summary.get("clusters").asInt());
        OutputSchemas.assertAllValid("cluster.schema.json", clusters);
        OutputSchemas.assertAllValid("cluster.schema.json", keep);
        OutputSchemas.assertAllValid("pair.schema.json", JobFiles.read(out.resolve("pairs.jsonl")));
        OutputSchemas.assertAllValid(
                "dead-letter.schema.json", JobFiles.read(out.resolve("dead.jsonl")));
        // keep lists every cluster once, by its earliest document (the cluster id).
        Set<String> clusterIds = new HashSet<>();
        Map<String, Integer> sizes = new HashMap<>();
        for (JsonNode c : clusters) {
            clusterIds.add(c.get("clusterId").asText());
            sizes.merge(c.get("clusterId").asText(), 1, Integer::sum);
        }
        for (JsonNode c : clusters) {
            assertThat(c.get("clusterSize").asInt())
                    .isEqualTo(sizes.get(c.get("clusterId").asText()));
        }
        Set<String> kept = new HashSet<>();
        for (JsonNode k : keep) {
            assertThat(k.get("docId").asText()).isEqualTo(k.get("clusterId").asText());
            kept.add(k.get("docId").asText());
        }
        assertThat(kept).isEqualTo(clusterIds);
        assertThat(JobFiles.read(out.resolve("pairs.jsonl")))
                .hasSize(summary.get("pairs").asInt())
                .allSatisfy(
                        p ->
                                assertThat(p.get("similarity").asDouble())
                                        .isGreaterThanOrEqualTo(0.8));
        assertThat(JobFiles.read(out.resolve("dead.jsonl")))
                .extracting(d -> d.get("reason").asText())
                .containsExactlyInAnyOrder(
                        "MALFORMED_JSON",
                        "NO_TEXT",
                        "NOT_AN_OBJECT",
                        "MISSING_ID",
                        "MISSING_CONTENT",
                        "EMPTY_CONTENT");
    }

    @Test
    void keepPolicyLongestKeepsTheLongestOfEachCluster() throws Exception {
        Path input = dir.resolve("longest.jsonl");
        String text = SyntheticText.prose(3, 3000);
        writeLines(
                input,
                doc("a", text, "2026-01-01T00:00:00Z"),
                doc("b", text + " and a longer tail", "2026-01-02T00:00:00Z"),
                doc("c", SyntheticText.prose(4, 3000), "2026-01-03T00:00:00Z"));
        Path out = dir.resolve("longest");
        CliRun run =
                CliRun.run(
                        "dedupe",
                        "--input",
                        input.toString(),
                        "--clusters",
                        out.resolve("clusters.jsonl").toString(),
                        "--keep",
                        out.resolve("keep.jsonl").toString(),
                        "--keep-policy",
                        "longest",
                        "--quiet");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(JobFiles.read(out.resolve("keep.jsonl")))
                .extracting(k -> k.get("docId").asText() + "/" + k.get("clusterId").asText())
                .containsExactlyInAnyOrder("b/a", "c/c");
    }

    private static JsonNode json(String line) {
        try {
            return Json.MAPPER.readTree(line);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Writes {@code lines} to {@code file}, each ended by a newline. */
    private static void writeLines(Path file, String... lines) throws java.io.IOException {
        Files.writeString(file, String.join("\n", lines) + "\n");
    }

    private static String doc(String id, String content, String fetchedAt) {
        return Json.write(Map.of("id", id, "content", content, "fetchedAt", fetchedAt));
    }

    @Test
    void anIdRepeatedAtOneTimeIsVerifiedWithItsLastLine() throws Exception {
        // Two lines of x with one fetchedAt: the later is the page, and the exact check must use
        // its shingles (the earlier line shares nothing with y).
        String text = SyntheticText.prose(5, 3000);
        Path input = dir.resolve("same-time.jsonl");
        writeLines(
                input,
                doc("y", text, "2026-01-01T00:00:00Z"),
                doc("x", SyntheticText.prose(6, 3000), "2026-01-02T00:00:00Z"),
                doc("x", text + " with a short tail", "2026-01-02T00:00:00Z"));
        Path out = dir.resolve("same-time");
        CliRun run =
                CliRun.run(
                        "dedupe",
                        "--input",
                        input.toString(),
                        "--clusters",
                        out.resolve("clusters.jsonl").toString(),
                        "--pairs",
                        out.resolve("pairs.jsonl").toString(),
                        "--quiet",
                        "-p",
                        "2");
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<JsonNode> pairs = JobFiles.read(out.resolve("pairs.jsonl"));
        assertThat(pairs)
                .extracting(p -> p.get("docId").asText() + " -> " + p.get("duplicateOf").asText())
                .containsExactly("x -> y");
        assertThat(pairs.get(0).get("similarity").asDouble()).isBetween(0.9, 0.9999);
    }

    @Test
    void undatedLinesAreOrderedByFileThenLine() throws Exception {
        // Three copies of one page without fetchedAt, in two files, ids against the line order:
        // the earliest is the first line of the first file, whatever the ids say.
        String page =
                "Stone bridges of the upper valley were built by hand over three summers from"
                        + " granite quarried on the ridge above the village of Harwick.";
        Path first = dir.resolve("order-1.jsonl");
        Path second = dir.resolve("order-2.jsonl");
        Files.writeString(
                first,
                Json.write(Map.of("id", "zulu", "content", page))
                        + "\n"
                        + Json.write(Map.of("id", "other", "content", "Unrelated words here."))
                        + "\n");
        Files.writeString(
                second,
                Json.write(Map.of("id", "mike", "content", page))
                        + "\n"
                        + Json.write(Map.of("id", "alpha", "content", page))
                        + "\n");
        Path out = dir.resolve("order");
        CliRun run =
                CliRun.run(
                        "dedupe",
                        "--input",
                        first.toString(),
                        "--input",
                        second.toString(),
                        "--clusters",
                        out.resolve("clusters.jsonl").toString(),
                        "--pairs",
                        out.resolve("pairs.jsonl").toString(),
                        "-p",
                        "2");
        assertThat(run.exitCode()).as(run.err()).isZero();
        Map<String, String> clusterOf = new HashMap<>();
        for (JsonNode c : JobFiles.read(out.resolve("clusters.jsonl"))) {
            clusterOf.put(c.get("docId").asText(), c.get("clusterId").asText());
        }
        assertThat(clusterOf)
                .containsEntry("zulu", "zulu")
                .containsEntry("mike", "zulu")
                .containsEntry("alpha", "zulu")
                .containsEntry("other", "other");
        Set<String> pairs = new HashSet<>();
        for (JsonNode p : JobFiles.read(out.resolve("pairs.jsonl"))) {
            pairs.add(p.get("docId").asText() + " -> " + p.get("duplicateOf").asText());
        }
        // Each pair names the later line first (exact copies pair with the first of them).
        assertThat(pairs).containsExactlyInAnyOrder("mike -> zulu", "alpha -> zulu");
    }

    @Test
    void emptyInputGivesEmptyOutputs() throws Exception {
        Path input = Files.createFile(dir.resolve("empty.jsonl"));
        Path out = dir.resolve("empty");
        CliRun run =
                CliRun.run(
                        "dedupe",
                        "--input",
                        input.toString(),
                        "--clusters",
                        out.resolve("clusters.jsonl").toString(),
                        "--keep",
                        out.resolve("keep.jsonl").toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("0 documents in 0 clusters");
        assertThat(Files.readString(out.resolve("clusters.jsonl"))).isEmpty();
        assertThat(Files.readString(out.resolve("keep.jsonl"))).isEmpty();
    }

    @Test
    void usageErrors() throws Exception {
        String clusters = dir.resolve("x.jsonl").toString();
        Path input = dir.resolve("one.jsonl");
        Files.writeString(input, doc("a", "some words here", "2026-01-01T00:00:00Z") + "\n");
        CliRun.run(
                        "dedupe",
                        "--input",
                        dir.resolve("missing.jsonl").toString(),
                        "--clusters",
                        clusters)
                .usageError("neardup dedupe", "input file not found");
        CliRun.run("dedupe", "--input", input.toString(), "--clusters", dir.toString())
                .usageError("neardup dedupe", "is a directory");
        CliRun.run("dedupe", "--input", input.toString())
                .usageError("neardup dedupe", "--clusters");
        CliRun.run(
                        "dedupe",
                        "--input",
                        input.toString(),
                        "--clusters",
                        clusters,
                        "--threshold",
                        "1.5")
                .usageError("neardup dedupe", "neardup.threshold");
        CliRun.run(
                        "dedupe",
                        "--input",
                        input.toString(),
                        "--clusters",
                        clusters,
                        "--split-below",
                        "0")
                .usageError("neardup dedupe", "neardup.dedupe.split-below");
        CliRun.run(
                        "dedupe",
                        "--input",
                        input.toString(),
                        "--clusters",
                        clusters,
                        "--keep-policy",
                        "random")
                .usageError("neardup dedupe", "random");
        CliRun.run(
                        "dedupe",
                        "--input",
                        input.toString(),
                        "--input",
                        input.toString(),
                        "--clusters",
                        clusters)
                .usageError("neardup dedupe", "given twice");
        CliRun.run("dedupe", "--input", "nosuchfs://bucket/x.jsonl", "--clusters", clusters)
                .usageError("neardup dedupe", "cannot read nosuchfs://bucket/x.jsonl");
    }
}
