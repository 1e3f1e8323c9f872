package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import dev.neardup.sketch.SimHash;
import dev.neardup.testing.CosineCorpus;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.ShortTempDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code neardup run --similarity cosine --max-hamming 3} end to end, on its own embedded
 * MiniCluster, over a generated corpus with known cosine similarities ({@link CosineCorpus}: 40
 * texts of 600 words over a Zipf vocabulary, half of the words shared by all texts, each with
 * copies whose word counts differ in 0 to 3 words, cosine >= 0.996, and an edit with 360 of its 600
 * words redrawn, cosine about 0.9 to its copies; unrelated texts 0.3 to 0.7). The truth is the
 * exact cosine of the term-frequency vectors at the threshold cos(3 pi / 64) = 0.989: the alerts
 * must find 95% of those pairs and 95% of the alerts must be such pairs.
 *
 * <p>By default pairs are judged on their exact cosine: an alert's {@code similarity} is the exact
 * cosine of the two texts, at least the threshold, and it has no {@code hamming}. With {@code
 * --simhash-verify bits} they are judged on 256 verification bits: an alert's {@code hamming} is
 * their distance, at most 12 (12 / 256 = 3 / 64), and its similarity cos(pi hamming / 256). The
 * corpus leaves a margin around the threshold on purpose: the estimate has a standard error of
 * about 0.006 at the threshold, so pairs within that of it are found about half of the time
 * whatever the job does (docs/cosine.md); this test checks the job, not that limit.
 *
 * <p>With {@code --simhash-table-hamming 4} the tables find every pair within 4 bits (7 blocks, 35
 * tables, so 35 band records per document reach the verdicts) while the threshold, and with bits
 * the largest distance of 12 of 256, stay those of k = 3.
 */
class CosineRunITCase {

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}, table radius {1}")
    @org.junit.jupiter.params.provider.CsvSource({"exact, 3", "bits, 3", "exact, 4", "bits, 4"})
    void findsTheNearCopiesByCosineWithRecallAndPrecisionAbove95Percent(
            String verify, int tableHamming) throws Exception {
        boolean exact = verify.equals("exact");
        CosineCorpus corpus = new CosineCorpus(14, 40, 600, 0.5, 0, 1, 2, 3, 360);
        Path dir = ShortTempDirs.create("nd-cosine");
        Path input = dir.resolve("docs.jsonl");
        List<String> lines = new ArrayList<>();
        for (CosineCorpus.Doc d : corpus.docs()) {
            lines.add(Json.write(Map.of("id", d.id(), "content", d.text())));
        }
        Files.write(input, lines, StandardCharsets.UTF_8);
        Path alertsFile = dir.resolve("alerts.jsonl");
        Path verdictsFile = dir.resolve("verdicts.jsonl");
        CliRun run =
                CliRun.run(
                        "run",
                        "--input",
                        input.toString(),
                        "--alerts",
                        alertsFile.toString(),
                        "--verdicts",
                        verdictsFile.toString(),
                        "--similarity",
                        "cosine",
                        "--max-hamming",
                        "3",
                        "--parallelism",
                        "2",
                        "--state-backend",
                        "hashmap",
                        "--simhash-verify",
                        verify,
                        "--simhash-table-hamming",
                        Integer.toString(tableHamming));
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err())
                .contains("similarity=cosine simhash-bits=64 max-hamming=3 (cosine >= 0.989)")
                .contains(
                        tableHamming == 3
                                ? "(cosine >= 0.989) 5 blocks, 10 tables"
                                : "(cosine >= 0.989) table-hamming=4 7 blocks, 35 tables")
                .contains(exact ? "verify=exact" : "verify-bits=256")
                .contains("200 documents");

        double threshold = SimHash.cosine(3, 64);
        Set<CosineCorpus.Pair> truth = new HashSet<>();
        Map<CosineCorpus.Pair, Double> cosines = corpus.allPairs();
        cosines.forEach(
                (pair, cosine) -> {
                    if (cosine >= threshold) {
                        truth.add(pair);
                    }
                });
        Set<CosineCorpus.Pair> found = new HashSet<>();
        List<JsonNode> alerts = JobFiles.pairs(JobFiles.read(alertsFile));
        for (JsonNode a : alerts) {
            if (exact) {
                assertThat(a.has("hamming")).isFalse();
                double cosine =
                        cosines.get(
                                CosineCorpus.Pair.of(
                                        a.get("docId").asText(), a.get("duplicateOf").asText()));
                assertThat(a.get("similarity").asDouble())
                        .isCloseTo(cosine, org.assertj.core.api.Assertions.within(1e-9))
                        .isGreaterThanOrEqualTo(threshold);
            } else {
                int h = a.get("hamming").asInt();
                assertThat(h).isBetween(0, 12);
                assertThat(a.get("similarity").asDouble())
                        .isCloseTo(
                                SimHash.cosine(h, 256),
                                org.assertj.core.api.Assertions.within(1e-12));
            }
            assertThat(
                            found.add(
                                    CosineCorpus.Pair.of(
                                            a.get("docId").asText(),
                                            a.get("duplicateOf").asText())))
                    .as("each pair alerted once")
                    .isTrue();
        }
        Set<CosineCorpus.Pair> hits = new HashSet<>(found);
        hits.retainAll(truth);
        double recall = (double) hits.size() / truth.size();
        double precision = (double) hits.size() / found.size();
        System.out.printf(
                "cosine run: %d true pairs (cos >= %.4f), %d alerts, %d right: recall %.4f,"
                        + " precision %.4f%n",
                truth.size(), threshold, found.size(), hits.size(), recall, precision);
        assertThat(truth).hasSize(240); // 40 groups x C(4, 2) copies, the edits below
        assertThat(recall).isGreaterThanOrEqualTo(0.95);
        assertThat(precision).isGreaterThanOrEqualTo(exact ? 1.0 : 0.95);

        List<JsonNode> verdicts = JobFiles.read(verdictsFile);
        assertThat(verdicts).hasSize(200);
        for (JsonNode v : verdicts) {
            if (v.get("verdict").asText().equals("DUPLICATE")) {
                if (exact) {
                    assertThat(v.get("similarity").asDouble()).isGreaterThanOrEqualTo(threshold);
                    assertThat(v.get("matches").get(0).has("hamming")).isFalse();
                } else {
                    assertThat(v.get("hamming").asInt()).isBetween(0, 12);
                    assertThat(v.get("matches").get(0).has("hamming")).isTrue();
                }
            } else {
                assertThat(v.has("hamming")).isFalse();
            }
        }
    }
}
