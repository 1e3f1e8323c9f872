package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import dev.neardup.sketch.SimHash;
import dev.neardup.testing.CosineCorpus;
import dev.neardup.testing.ShortTempDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real job in cosine mode with exact verification ({@code evaluate --similarity cosine
 * --simhash-verify exact}, MiniCluster) on a generated corpus crowded around the threshold cos(3 pi
 * / 64) = 0.9892 ({@link CosineCorpus}: 40 texts of 600 words, per text copies with 0 to 36 words
 * redrawn, so that many pairs lie just below and just above it). No pair below the threshold may be
 * reported, and the pairs above it must be found as often as the tables make them candidates (on
 * this corpus recall 0.91, precision 1.0); the 256 verification bits on the same corpus report
 * pairs below it and miss more above it (recall 0.75, precision 0.87).
 */
class EvaluateCosineExactITCase {

    private static final double THRESHOLD = SimHash.cosine(3, 64);

    private static CosineCorpus corpus;
    private static Path input;

    @BeforeAll
    static void corpus() throws Exception {
        corpus = new CosineCorpus(2207, 40, 600, 0.5, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36);
        Path dir = ShortTempDirs.create("nd-evaluate-cosine-exact");
        input = dir.resolve("docs.jsonl");
        List<String> lines = new ArrayList<>();
        for (CosineCorpus.Doc d : corpus.docs()) {
            lines.add(Json.write(Map.of("id", d.id(), "content", d.text())));
        }
        Files.write(input, lines, StandardCharsets.UTF_8);
    }

    private static JsonNode evaluate(String verify) throws Exception {
        CliRun run =
                CliRun.run(
                        "evaluate",
                        "--input",
                        input.toString(),
                        "--similarity",
                        "cosine",
                        "--simhash-verify",
                        verify,
                        "--state-backend",
                        "hashmap",
                        "--parallelism",
                        "2",
                        "--json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        return Json.MAPPER.readTree(run.out());
    }

    @Test
    void pairsJustBelowTheThresholdAreNotReportedAndPairsAboveAre() throws Exception {
        long justBelow =
                corpus.allPairs().values().stream()
                        .filter(c -> c < THRESHOLD && c >= THRESHOLD - 0.01)
                        .count();
        long justAbove =
                corpus.allPairs().values().stream()
                        .filter(c -> c >= THRESHOLD && c < THRESHOLD + 0.005)
                        .count();
        assertThat(justBelow).isGreaterThan(100);
        assertThat(justAbove).isGreaterThan(100);

        JsonNode json = evaluate("exact");
        assertThat(json.get("settings").asText()).contains(" verify=exact ");
        JsonNode exact = json.get("report");
        JsonNode bits = evaluate("bits").get("report");
        System.out.printf(
                "cosine near the threshold: %d pairs within 0.01 below, %d within 0.005 above;"
                        + " exact: recall %.4f, precision %.4f (%d of %d); bits: recall %.4f,"
                        + " precision %.4f (%d of %d)%n",
                justBelow,
                justAbove,
                exact.get("pairRecall").asDouble(),
                exact.get("pairPrecision").asDouble(),
                exact.get("reportedPairsAbove").asInt(),
                exact.get("reportedPairs").asInt(),
                bits.get("pairRecall").asDouble(),
                bits.get("pairPrecision").asDouble(),
                bits.get("reportedPairsAbove").asInt(),
                bits.get("reportedPairs").asInt());

        // Nothing below the threshold is reported.
        assertThat(exact.get("reportedPairs").asInt())
                .isEqualTo(exact.get("reportedPairsAbove").asInt())
                .isPositive();
        assertThat(exact.get("pairPrecision").asDouble()).isEqualTo(1.0);
        for (JsonNode b : exact.get("buckets")) {
            System.out.printf(
                    "  %.4f-%.4f %5d %5d reported %5d P(candidate) %.3f P(found) %.3f%n",
                    b.get("low").asDouble(),
                    b.get("high").asDouble(),
                    b.get("pairs").asInt(),
                    b.get("found").asInt(),
                    b.get("reported").asInt(),
                    b.get("predictedCandidate").asDouble(),
                    b.get("predictedFound").asDouble());
            if (b.get("pairs").asInt() == 0) {
                continue;
            }
            if (b.get("high").asDouble() <= THRESHOLD) {
                assertThat(b.get("reported").asInt()).isZero();
                assertThat(b.get("found").asInt()).isZero();
                assertThat(b.get("predictedFound").asDouble()).isZero();
            } else {
                // Above it, every candidate is a match: found as often as the tables predict.
                assertThat(b.get("predictedFound").asDouble())
                        .isEqualTo(b.get("predictedCandidate").asDouble());
                if (b.get("pairs").asInt() >= 100) {
                    assertThat(b.get("recall").asDouble())
                            .isGreaterThanOrEqualTo(b.get("predictedCandidate").asDouble() - 0.05);
                }
            }
        }
        // Crowded at the threshold, where the tables make a pair a candidate less often than
        // above it.
        assertThat(exact.get("pairRecall").asDouble()).isGreaterThanOrEqualTo(0.9);

        // The verification bits judge the same candidates to +/- 0.006: some pairs below the
        // threshold get in, some above it are missed.
        assertThat(bits.get("truePairs").asInt()).isEqualTo(exact.get("truePairs").asInt());
        assertThat(bits.get("reportedPairs").asInt() - bits.get("reportedPairsAbove").asInt())
                .isPositive();
        assertThat(exact.get("pairRecall").asDouble())
                .isGreaterThanOrEqualTo(bits.get("pairRecall").asDouble());
    }
}
