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
 * {@code neardup evaluate --similarity cosine --max-hamming 3} on a generated corpus with known
 * cosine similarities ({@link CosineCorpus}: 40 texts of 600 words over a Zipf vocabulary, half of
 * the words shared by all texts; per text copies whose counts differ in 0, 1, 2, 3, 6 and 12 words
 * and an edit with 360 words redrawn: cosine 0.99-1.0 within a group, about 0.92 to the edit, 0.3
 * to 0.7 between groups). The exact cosine join must find exactly the pairs the corpus's own counts
 * say are above the floor (the job's word features are the corpus's words), and at the threshold
 * cos(6 pi / 128) = cos(3 pi / 64) = 0.9892 the job with 128-bit fingerprints must reach recall and
 * precision of 0.95, as measured by evaluate, with the recall per bucket following the binomial
 * prediction. At 64 bits, K = 3, pairs judged on the fingerprint ({@code --simhash-verify-bits 0})
 * give recall 0.93 on the same corpus (pairs at cosine 0.995 are at expected distance 1.5 of 64
 * bits and beyond 3 bits 6% of the time); the default 256 verification bits must do at least as
 * well in recall and precision. A too strict setting (K = 0) must show the low recall it has: the
 * evaluator can fail.
 */
class EvaluateCosineITCase {

    private static CosineCorpus corpus;
    private static Path input;

    @BeforeAll
    static void corpus() throws Exception {
        corpus = new CosineCorpus(1402, 40, 600, 0.5, 0, 1, 2, 3, 6, 12, 360);
        Path dir = ShortTempDirs.create("nd-evaluate-cosine");
        input = dir.resolve("docs.jsonl");
        List<String> lines = new ArrayList<>();
        for (CosineCorpus.Doc d : corpus.docs()) {
            lines.add(Json.write(Map.of("id", d.id(), "content", d.text())));
        }
        Files.write(input, lines, StandardCharsets.UTF_8);
    }

    /** {@code evaluate --input CORPUS --similarity cosine --state-backend hashmap} and more. */
    private static CliRun evaluate(String... more) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "evaluate",
                                "--input",
                                input.toString(),
                                "--similarity",
                                "cosine",
                                "--state-backend",
                                "hashmap"));
        args.addAll(List.of(more));
        CliRun run = CliRun.run(args.toArray(new String[0]));
        assertThat(run.exitCode()).as(run.err()).isZero();
        return run;
    }

    @Test
    void recallAndPrecisionAtTheCosineThresholdReach95Percent() throws Exception {
        Path plot = input.resolveSibling("cosine-recall.png");
        CliRun run =
                evaluate(
                        "--simhash-bits",
                        "128",
                        "--max-hamming",
                        "6",
                        "--json",
                        "--plot",
                        plot.toString(),
                        "--parallelism",
                        "2");
        JsonNode json = Json.MAPPER.readTree(run.out());
        double threshold = SimHash.cosine(6, 128);
        assertThat(threshold).isEqualTo(SimHash.cosine(3, 64));
        assertThat(json.get("similarity").asText()).isEqualTo("cosine");
        assertThat(json.get("threshold").asDouble()).isEqualTo(threshold);
        double floor = json.get("floor").asDouble();
        assertThat(floor).isEqualTo(SimHash.cosine(14, 128));
        JsonNode report = json.get("report");
        assertThat(report.get("documents").asInt()).isEqualTo(corpus.docs().size());

        // The exact join against the corpus's own word counts.
        long above = corpus.allPairs().values().stream().filter(c -> c >= floor - 1e-9).count();
        long atThreshold = corpus.allPairs().values().stream().filter(c -> c >= threshold).count();
        assertThat(report.get("exactPairs").asLong()).isEqualTo(above);
        assertThat(report.get("truePairs").asLong()).isEqualTo(atThreshold);
        assertThat(report.get("recallSimilarity").asDouble()).isEqualTo(threshold);
        assertThat(report.get("precisionSimilarity").asDouble()).isEqualTo(threshold);

        double recall = report.get("pairRecall").asDouble();
        double precision = report.get("pairPrecision").asDouble();
        System.out.printf(
                "evaluate cosine: %d docs, %d exact pairs >= %.4f, %d at >= %.4f; pair recall"
                        + " %.4f (%d), doc-level recall %.4f, precision %.4f (%d of %d)%n",
                report.get("documents").asInt(),
                report.get("exactPairs").asInt(),
                floor,
                report.get("truePairs").asInt(),
                threshold,
                recall,
                report.get("truePairsFound").asInt(),
                report.get("documentRecall").asDouble(),
                precision,
                report.get("reportedPairsAbove").asInt(),
                report.get("reportedPairs").asInt());
        for (JsonNode b : report.get("buckets")) {
            System.out.printf(
                    "  %.4f-%.4f %5d %5d recall %.3f P(candidate) %.3f P(found) %.3f%n",
                    b.get("low").asDouble(),
                    b.get("high").asDouble(),
                    b.get("pairs").asInt(),
                    b.get("found").asInt(),
                    b.get("recall").asDouble(),
                    b.get("predictedCandidate").asDouble(),
                    b.get("predictedFound").asDouble());
        }
        assertThat(recall).isGreaterThanOrEqualTo(0.95);
        assertThat(precision).isGreaterThanOrEqualTo(0.95);
        // Where the reported pairs fall: every one in a range or below the floor, and those in the
        // ranges from the threshold up are the pairs precision counts.
        int reportedInRanges = 0;
        int reportedFromThreshold = 0;
        for (JsonNode b : report.get("buckets")) {
            reportedInRanges += b.get("reported").asInt();
            if (b.get("low").asDouble() >= threshold - 1e-9) {
                reportedFromThreshold += b.get("reported").asInt();
            }
        }
        assertThat(reportedInRanges + report.get("reportedBelowFloor").asInt())
                .isEqualTo(report.get("reportedPairs").asInt());
        assertThat(reportedFromThreshold).isEqualTo(report.get("reportedPairsAbove").asInt());
        assertThat(report.get("documentRecall").asDouble()).isGreaterThanOrEqualTo(0.95);
        // Buckets: edges every 2 bits of expected Hamming distance, the threshold one of them;
        // where there are many pairs, the measured recall follows the binomial prediction.
        JsonNode buckets = report.get("buckets");
        assertThat(buckets).hasSize(7);
        assertThat(buckets.get(3).get("high").asDouble()).isEqualTo(threshold);
        for (JsonNode b : buckets) {
            if (b.get("pairs").asInt() >= 100) {
                assertThat(b.get("recall").asDouble())
                        .isCloseTo(
                                b.get("predictedFound").asDouble(),
                                org.assertj.core.api.Assertions.within(0.05));
            }
        }
        assertThat(Files.size(plot)).isGreaterThan(1000);
    }

    /**
     * At the defaults (64-bit tables, K = 3, 256 verification bits) against the same tables judged
     * on the fingerprint ({@code --simhash-verify-bits 0}): the verification bits find at least as
     * many of the pairs at the threshold and report no more pairs below it.
     */
    @Test
    void theVerificationBitsDoAtLeastAsWellAsTheFingerprint() throws Exception {
        JsonNode verified = Json.MAPPER.readTree(evaluate("--json").out()).get("report");
        JsonNode fingerprint =
                Json.MAPPER
                        .readTree(evaluate("--simhash-verify-bits", "0", "--json").out())
                        .get("report");
        System.out.printf(
                "evaluate cosine, 64 bits, K = 3: verify-bits 256 recall %.4f precision %.4f;"
                        + " verify-bits 0 recall %.4f precision %.4f%n",
                verified.get("pairRecall").asDouble(),
                verified.get("pairPrecision").asDouble(),
                fingerprint.get("pairRecall").asDouble(),
                fingerprint.get("pairPrecision").asDouble());
        assertThat(verified.get("truePairs").asInt())
                .isEqualTo(fingerprint.get("truePairs").asInt())
                .isPositive();
        assertThat(verified.get("pairRecall").asDouble())
                .isGreaterThanOrEqualTo(fingerprint.get("pairRecall").asDouble())
                .isGreaterThanOrEqualTo(0.95);
        assertThat(verified.get("pairPrecision").asDouble())
                .isGreaterThanOrEqualTo(fingerprint.get("pairPrecision").asDouble())
                .isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void aTooStrictMaxHammingShowsLowRecall() throws Exception {
        CliRun run =
                evaluate(
                        "--max-hamming",
                        "0",
                        "--recall-similarity",
                        String.valueOf(SimHash.cosine(3, 64)),
                        "--json");
        JsonNode report = Json.MAPPER.readTree(run.out()).get("report");
        // Only identical fingerprints match: most pairs at cosine 0.989-0.999 are missed.
        assertThat(report.get("pairRecall").asDouble()).isLessThan(0.7);
    }

    @Test
    void textReportAt64Bits() {
        String out = evaluate().out();
        assertThat(out)
                .contains("similarity=cosine simhash-bits=64 max-hamming=3")
                .containsPattern("pair recall\\s+0\\.\\d\\d\\d")
                .contains("pairs at cos >= 0.9892")
                .contains("exact cosine      expected h")
                .containsPattern("0\\.9892-0\\.9952\\s+2\\.00- 3\\.00");
    }
}
