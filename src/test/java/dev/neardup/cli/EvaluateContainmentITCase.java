package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.eval.ExactContainmentJoin;
import dev.neardup.io.Json;
import dev.neardup.io.OutputSchemas;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.testing.ContainmentCorpus;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.ShortTempDirs;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Containment mode end to end on a generated corpus of articles, near-copies, digests of 2 or 3
 * articles and partial quotes ({@link ContainmentCorpus}, seed 1504: 80 articles, 60 digests):
 * {@code neardup evaluate --containment 0.8} (the job on the MiniCluster against the exact
 * containment join) must find the pairs contained at 0.8 or more, either way round, with recall and
 * precision of at least 0.95; the alerts of {@code neardup run --containment 0.8} validate against
 * the alert schema and say which way round; and resemblance mode ({@code neardup run}, Jaccard 0.8)
 * on the same corpus misses most contained pairs (the README's comparison).
 */
class EvaluateContainmentITCase {

    private static ContainmentCorpus corpus;
    private static Path dir;
    private static Path input;

    @BeforeAll
    static void corpus() throws Exception {
        corpus = new ContainmentCorpus(1504, 80, 60);
        dir = ShortTempDirs.create("nd-evaluate-containment");
        input = dir.resolve("docs.jsonl");
        List<String> lines = new ArrayList<>();
        for (ContainmentCorpus.Doc d : corpus.docs()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", d.id());
            json.put("content", d.text());
            json.put("contentType", "text/plain");
            json.put("fetchedAt", d.fetchedAt().toString());
            lines.add(Json.write(json));
        }
        Files.write(input, lines, StandardCharsets.UTF_8);
    }

    @Test
    void recallAndPrecisionOfContainedPairsReach95Percent() throws Exception {
        Path plot = dir.resolve("containment-recall.png");
        CliRun run =
                CliRun.run(
                        "evaluate",
                        "--input",
                        input.toString(),
                        "--containment",
                        "0.8",
                        "--state-backend",
                        "hashmap",
                        "--parallelism",
                        "2",
                        "--json",
                        "--plot",
                        plot.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode json = Json.MAPPER.readTree(run.out());
        assertThat(json.get("similarity").asText()).isEqualTo("containment");
        JsonNode report = json.get("report");
        assertThat(report.get("documents").asInt()).isEqualTo(corpus.docs().size());
        double recall = report.get("pairRecall").asDouble();
        double precision = report.get("pairPrecision").asDouble();
        System.out.printf(
                "evaluate containment: %d docs, %d exact pairs >= 0.5, %d at >= 0.8; pair recall"
                        + " %.4f (%d), doc-level recall %.4f, precision %.4f (%d of %d), %.1f"
                        + " candidates per document%n",
                report.get("documents").asInt(),
                report.get("exactPairs").asInt(),
                report.get("truePairs").asInt(),
                recall,
                report.get("truePairsFound").asInt(),
                report.get("documentRecall").asDouble(),
                precision,
                report.get("reportedPairsAbove").asInt(),
                report.get("reportedPairs").asInt(),
                report.get("candidatesPerDocument").asDouble());
        for (JsonNode b : report.get("buckets")) {
            System.out.printf(
                    "  %.2f-%.2f %5d %5d recall %.3f P(candidate) %.3f P(found) %.3f%n",
                    b.get("low").asDouble(),
                    b.get("high").asDouble(),
                    b.get("pairs").asInt(),
                    b.get("found").asInt(),
                    b.get("recall").asDouble(),
                    b.get("predictedCandidate").asDouble(),
                    b.get("predictedFound").asDouble());
        }
        assertThat(report.get("truePairs").asInt()).isGreaterThan(150);
        assertThat(recall).isGreaterThanOrEqualTo(0.95);
        assertThat(precision).isGreaterThanOrEqualTo(0.95);
        assertThat(Files.size(plot)).isPositive();
    }

    @Test
    void resemblanceModeMissesMostContainedPairsThatContainmentModeReportsWithTheirDirection()
            throws Exception {
        // The exact answer, with the job's shingles (word 5-shingles).
        Shingler shingler = new Shingler(ShingleOptions.defaults());
        List<ShingleSet> sets = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        for (ContainmentCorpus.Doc d : corpus.docs()) {
            index.put(d.id(), sets.size());
            sets.add(ShingleSet.of(shingler.shingleHashes(d.text())));
        }
        Set<String> contained = new HashSet<>();
        int mutual = 0;
        for (ExactContainmentJoin.Pair p : ExactContainmentJoin.allPairs(sets, 0.8)) {
            contained.add(p.first() + "-" + p.second());
            if (Math.min(p.firstInSecond(), p.secondInFirst()) >= 0.8) {
                mutual++;
            }
        }
        Map<String, Integer> found = new LinkedHashMap<>();
        List<JsonNode> containmentAlerts = null;
        List<JsonNode> containmentVerdicts = null;
        for (String mode : List.of("resemblance", "containment")) {
            Path alerts = dir.resolve(mode + "-alerts.jsonl");
            List<String> args =
                    new ArrayList<>(
                            List.of(
                                    "run",
                                    "--input",
                                    input.toString(),
                                    "--alerts",
                                    alerts.toString(),
                                    "--verdicts",
                                    dir.resolve(mode + "-verdicts.jsonl").toString(),
                                    "--state-backend",
                                    "hashmap"));
            if (mode.equals("containment")) {
                args.addAll(List.of("--containment", "0.8"));
            }
            CliRun run = CliRun.run(args.toArray(new String[0]));
            assertThat(run.exitCode()).as(run.err()).isZero();
            List<JsonNode> pairs = JobFiles.pairs(JobFiles.read(alerts));
            int hits = 0;
            for (JsonNode a : pairs) {
                int x = index.get(a.get("docId").asText());
                int y = index.get(a.get("duplicateOf").asText());
                if (contained.contains(Math.min(x, y) + "-" + Math.max(x, y))) {
                    hits++;
                }
            }
            found.put(mode, hits);
            if (mode.equals("containment")) {
                containmentAlerts = JobFiles.read(alerts);
                OutputSchemas.assertAllValid("alert.schema.json", containmentAlerts);
                containmentVerdicts = JobFiles.read(dir.resolve(mode + "-verdicts.jsonl"));
                OutputSchemas.assertAllValid("verdict.schema.json", containmentVerdicts);
            } else {
                assertThat(pairs).allSatisfy(a -> assertThat(a.has("direction")).isFalse());
            }
        }
        System.out.printf(
                "contained pairs (c >= 0.8 either way): %d, of which %d both ways; found by"
                        + " resemblance mode (Jaccard 0.8): %d, by containment mode: %d%n",
                contained.size(), mutual, found.get("resemblance"), found.get("containment"));
        assertThat(found.get("containment"))
                .isGreaterThanOrEqualTo((int) (0.95 * contained.size()));
        assertThat(found.get("resemblance")).isLessThan(contained.size() / 2);
        // A verdict is DUPLICATE when one of its matches is a near-copy (MUTUAL), then naming
        // one as duplicateOf, and CONTAINED when all are contained one way only.
        int[] kinds = new int[2];
        for (JsonNode v : containmentVerdicts) {
            if (!v.get("matches").isArray() || v.get("matches").isEmpty()) {
                assertThat(v.get("verdict").asText()).isEqualTo("UNIQUE");
                continue;
            }
            boolean nearCopy = false;
            for (JsonNode m : v.get("matches")) {
                nearCopy |= m.get("direction").asText().equals("MUTUAL");
            }
            assertThat(v.get("verdict").asText())
                    .as(v.toString())
                    .isEqualTo(nearCopy ? "DUPLICATE" : "CONTAINED");
            assertThat(v.get("direction").asText().equals("MUTUAL")).isEqualTo(nearCopy);
            kinds[nearCopy ? 0 : 1]++;
        }
        assertThat(kinds[0]).as("DUPLICATE verdicts (near-copies)").isPositive();
        assertThat(kinds[1]).as("CONTAINED verdicts (digests, quotes)").isPositive();
        // A digest alerted against an earlier article says the article is inside it, and an
        // article alerted against an earlier digest that it is inside the digest.
        for (JsonNode a : JobFiles.pairs(containmentAlerts)) {
            String doc = a.get("docId").asText();
            String other = a.get("duplicateOf").asText();
            String direction = a.get("direction").asText();
            if (doc.startsWith("digest-") && other.startsWith("article-")) {
                assertThat(direction).as(doc + " / " + other).isEqualTo("DUPLICATE_IN_DOC");
            }
            if (doc.startsWith("article-") && other.startsWith("digest-")) {
                assertThat(direction).as(doc + " / " + other).isEqualTo("DOC_IN_DUPLICATE");
            }
        }
    }
}
