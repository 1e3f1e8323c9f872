package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.PlantedCorpus;
import dev.neardup.testing.ShortTempDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code neardup evaluate} on a generated corpus with planted pairs: it reports the planted recall,
 * and it can fail: a deliberately bad banding (one band of all K rows) shows low recall.
 */
class EvaluateCommandITCase {

    private static Path input;
    private static int highPairs;

    @BeforeAll
    static void corpus() throws Exception {
        PlantedCorpus corpus = new PlantedCorpus(31);
        for (int i = 0; i < 150; i++) {
            corpus.addBase("base-" + i, 1500);
        }
        for (int i = 0; i < 60; i++) {
            corpus.addVariant("base-" + i, "high-" + i, 0.9 + 0.1 * (i % 10) / 10.0);
        }
        for (int i = 60; i < 100; i++) {
            corpus.addVariant("base-" + i, "mid-" + i, 0.55 + 0.3 * (i % 10) / 10.0);
        }
        corpus.shuffleKeepingBasesFirst();
        highPairs = (int) corpus.planted.stream().filter(p -> p.jaccard() >= 0.9).count();
        Path dir = ShortTempDirs.create("nd-evaluate");
        input = dir.resolve("corpus.jsonl");
        // A deletion line is left out, as is a rejected one: the exact answer is about documents.
        JobFiles.writeInput(
                input,
                corpus.docs,
                Map.of(3, "not json", 5, "{\"id\": \"base-3\", \"deleted\": true}"));
    }

    @Test
    void reportsThePlantedRecall() throws Exception {
        Path plot = input.resolveSibling("recall.png");
        CliRun run =
                CliRun.run(
                        "evaluate",
                        "--input",
                        input.toString(),
                        "--json",
                        "--plot",
                        plot.toString(),
                        "--parallelism",
                        "2");
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode report = Json.MAPPER.readTree(run.out()).get("report");
        assertThat(report.get("documents").asInt()).isEqualTo(250);
        assertThat(report.get("documentsWithSimilarEarlier").asInt()).isEqualTo(highPairs);
        assertThat(report.get("documentRecall").asDouble()).isGreaterThanOrEqualTo(0.95);
        assertThat(report.get("pairPrecision").asDouble()).isGreaterThanOrEqualTo(0.99);
        assertThat(run.err())
                .contains("1 rejected record, 1 deletion, 0 later lines of re-crawled ids");
        JsonNode top = report.get("buckets").get(report.get("buckets").size() - 1);
        assertThat(top.get("low").asDouble()).isEqualTo(0.9);
        assertThat(top.get("recall").asDouble())
                .isCloseTo(
                        top.get("predictedFound").asDouble(),
                        org.assertj.core.api.Assertions.within(0.1));
        assertThat(Files.size(plot)).isGreaterThan(1000);
    }

    @Test
    void aBadBandingShowsLowRecall() throws Exception {
        CliRun run =
                CliRun.run(
                        "evaluate",
                        "--input",
                        input.toString(),
                        "--bands",
                        "1",
                        "--rows",
                        "128",
                        "--json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode report = Json.MAPPER.readTree(run.out()).get("report");
        // One band of 128 rows: a pair is a candidate only if all 128 values agree (J^128).
        assertThat(report.get("documentRecall").asDouble()).isLessThan(0.5);
    }

    @Test
    void readsStandardInputAsItReadsTheFile() throws Exception {
        CliRun run =
                CliRun.runWithStdin(Files.readString(input), "evaluate", "--input", "-", "--json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode report = Json.MAPPER.readTree(run.out()).get("report");
        assertThat(report.get("documents").asInt()).isEqualTo(250);
        assertThat(report.get("documentsWithSimilarEarlier").asInt()).isEqualTo(highPairs);
        assertThat(run.err())
                .contains("1 rejected record, 1 deletion, 0 later lines of re-crawled ids");
    }

    @Test
    void textReportAndUsageErrors() {
        CliRun.run("evaluate", "--input", input.resolveSibling("missing.jsonl").toString())
                .usageError("neardup evaluate", "input file not found");
        CliRun.run("evaluate", "--input", input.toString(), "--floor", "0")
                .usageError("neardup evaluate", "similarities must be in (0, 1]");
        CliRun.run("evaluate", "--input", input.toString(), "--plot", "x.gif")
                .usageError("neardup evaluate", "--plot must end in .png or .svg");
    }
}
