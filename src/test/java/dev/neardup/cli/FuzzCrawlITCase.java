package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import dev.neardup.testing.FuzzCrawl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30's fuzz suite: a seeded crawl of bad and odd records ({@link FuzzCrawl}) through {@code
 * run}, {@code dedupe} and {@code evaluate}, in this JVM. Each exits 0 without a stack trace or the
 * canary secret (given as a {@code -D} Kafka property with a stray quote) in its output; in {@code
 * run} every non-blank line has exactly one verdict or one dead letter (matched by {@code source},
 * {@code file:line}) and the blank lines are counted in the summary; in {@code dedupe} exactly one
 * cluster row or dead letter, deletions none; {@code evaluate} counts exactly the documents that
 * {@code run} judged (a FUTURE_TIMESTAMP record is in neither).
 */
class FuzzCrawlITCase {

    private static final String CANARY = "S3CR3T-fuzz-canary";

    @TempDir Path dir;

    private static final String[] COMMON = {
        "-D",
        "neardup.max-document-size=" + FuzzCrawl.MAX_BYTES + "b",
        "-D",
        "neardup.kafka.properties.ssl.keystore.password=" + CANARY + "\"x",
        "--parallelism",
        "2"
    };

    private static String[] args(String... first) {
        String[] all = new String[first.length + COMMON.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(COMMON, 0, all, first.length, COMMON.length);
        return all;
    }

    private static void clean(CliRun r, String command) {
        assertThat(r.exitCode()).as(command + " exit code; stderr: " + r.err()).isZero();
        for (String output : new String[] {r.out(), r.err()}) {
            assertThat(output)
                    .as(command + ": no stack trace, no secret")
                    .doesNotContain("\tat ")
                    .doesNotContain("Exception")
                    .doesNotContain(CANARY)
                    .doesNotContain("[picocli WARN]");
        }
    }

    /** The number of records per source in JSON Lines files. */
    private static Map<String, Integer> bySource(Path... files) throws IOException {
        Map<String, Integer> out = new HashMap<>();
        for (Path f : files) {
            for (String line : Files.readAllLines(f)) {
                JsonNode n = Json.MAPPER.readTree(line);
                String source = n.get("source").asText(); // dedupe names the file by its path
                out.merge(source.substring(source.lastIndexOf('/') + 1), 1, Integer::sum);
            }
        }
        return out;
    }

    @Test
    void runDedupeAndEvaluateGiveEveryLineOneOutcome() throws Exception {
        FuzzCrawl crawl = new FuzzCrawl(30, 40);
        Path input = dir.resolve("fuzz.jsonl");
        Files.write(input, crawl.bytes());
        int lines = crawl.lines.size();
        int blank = 0;
        for (int i = 1; i <= lines; i++) {
            blank += crawl.blank(i) ? 1 : 0;
        }
        assertThat(blank).as("the crawl has blank lines").isPositive();

        // run
        Path verdicts = dir.resolve("verdicts.jsonl");
        Path dead = dir.resolve("dead.jsonl");
        Path alerts = dir.resolve("alerts.jsonl");
        CliRun run =
                CliRun.run(
                        args(
                                "run",
                                "--input",
                                input.toString(),
                                "--verdicts",
                                verdicts.toString(),
                                "--dead-letters",
                                dead.toString(),
                                "--alerts",
                                alerts.toString()));
        clean(run, "run");
        Map<String, Integer> outcomes = bySource(verdicts, dead);
        for (int i = 1; i <= lines; i++) {
            assertThat(outcomes.getOrDefault("fuzz.jsonl:" + i, 0))
                    .as(
                            "outcomes of line %d: %s",
                            i,
                            new String(
                                    crawl.lines.get(i - 1),
                                    0,
                                    Math.min(120, crawl.lines.get(i - 1).length),
                                    java.nio.charset.StandardCharsets.UTF_8))
                    .isEqualTo(crawl.blank(i) ? 0 : 1);
        }
        assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum())
                .isEqualTo(lines - blank);
        assertThat(run.err())
                .contains(", " + blank + " blank line" + (blank == 1 ? "" : "s") + " skipped");
        List<String> reasons =
                Files.readAllLines(dead).stream()
                        .map(l -> readTree(l).get("reason").asText())
                        .toList();
        assertThat(reasons)
                .contains(
                        "MALFORMED_JSON",
                        "INVALID_UTF8",
                        "NOT_AN_OBJECT",
                        "MISSING_ID",
                        "INVALID_ID",
                        "MISSING_CONTENT",
                        "INVALID_CONTENT",
                        "EMPTY_CONTENT",
                        "NO_TEXT",
                        "TOO_LARGE",
                        "BAD_TIMESTAMP",
                        "BAD_FIELD",
                        "FUTURE_TIMESTAMP")
                .doesNotContain("INTERNAL_ERROR");
        String deadText = Files.readString(dead);
        assertThat(deadText)
                .as("the overflowing instant and the lone surrogate are dead letters")
                .contains("+999999999-12-31T23:59:59Z")
                .contains("lone surrogate U+D800")
                .contains("looks like epoch seconds");
        assertThat(deadText)
                .as("ids and urls over their limit, named with their size")
                .contains("field 'id' is 16,385 bytes, more than its limit of 16,384 bytes")
                .contains("field 'id' is 1,048,579 bytes")
                .contains("field 'url' is 16,385 bytes")
                .contains("field 'url' is 1,048,599 bytes")
                .contains("field 'contentType' is 1,048,592 bytes");
        assertThat(crawl.limitDocuments).hasSize(3);
        assertOtherOutputsUnchanged(verdicts, alerts, crawl.limitDocuments);
        long judged =
                Files.readAllLines(verdicts).stream()
                        .map(FuzzCrawlITCase::readTree)
                        .filter(v -> !v.get("verdict").asText().equals("DELETED"))
                        .count();

        // dedupe
        Path clusters = dir.resolve("clusters.jsonl");
        Path dedupeDead = dir.resolve("dedupe-dead.jsonl");
        CliRun dedupe =
                CliRun.run(
                        args(
                                "dedupe",
                                "--input",
                                input.toString(),
                                "--clusters",
                                clusters.toString(),
                                "--dead-letters",
                                dedupeDead.toString()));
        clean(dedupe, "dedupe");
        Map<String, Integer> dedupeOutcomes = bySource(clusters, dedupeDead);
        for (int i = 1; i <= lines; i++) {
            String text =
                    new String(crawl.lines.get(i - 1), java.nio.charset.StandardCharsets.UTF_8);
            boolean deletion = text.contains("\"deleted\":true") && text.contains("ghost-");
            assertThat(dedupeOutcomes.getOrDefault("fuzz.jsonl:" + i, 0))
                    .as(
                            "dedupe outcomes of line %d (%s); sources like %s",
                            i,
                            text.substring(0, Math.min(100, text.length())),
                            dedupeOutcomes.keySet().stream().limit(4).toList())
                    .isEqualTo(crawl.blank(i) || deletion ? 0 : 1);
        }
        assertThat(bySource(dedupeDead)).isEqualTo(bySource(dead));

        // evaluate
        CliRun evaluate = CliRun.run(args("evaluate", "--input", input.toString()));
        clean(evaluate, "evaluate");
        Matcher m =
                Pattern.compile("neardup evaluate: (\\d+) documents?; left out: (\\d+) rejected")
                        .matcher(evaluate.err());
        assertThat(m.find()).as(evaluate.err()).isTrue();
        // Documents with text that the job judged; rejected: the job's dead letters but NO_TEXT.
        assertThat(Long.parseLong(m.group(1))).isEqualTo(judged);
        assertThat(Long.parseLong(m.group(2)))
                .isEqualTo(reasons.stream().filter(r -> !r.equals("NO_TEXT")).count());
    }

    private static JsonNode readTree(String line) {
        try {
            return Json.MAPPER.readTree(line);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The crawl without its size-limit records gives the same verdicts to every other document, and
     * the same alerts; the documents at their limits are judged (unique: their texts are their
     * own).
     */
    private void assertOtherOutputsUnchanged(Path verdicts, Path alerts, List<String> limitDocs)
            throws IOException {
        Path input = dir.resolve("fuzz-without-limits.jsonl");
        Files.write(input, new FuzzCrawl(30, 40, false).bytes());
        Path otherVerdicts = dir.resolve("verdicts-without-limits.jsonl");
        Path otherAlerts = dir.resolve("alerts-without-limits.jsonl");
        clean(
                CliRun.run(
                        args(
                                "run",
                                "--input",
                                input.toString(),
                                "--verdicts",
                                otherVerdicts.toString(),
                                "--alerts",
                                otherAlerts.toString())),
                "run without the size-limit records");
        Map<String, String> with = judgements(verdicts);
        Map<String, String> without = judgements(otherVerdicts);
        for (String id : limitDocs) {
            assertThat(with.remove(id))
                    .as("verdict of a document at its limits")
                    .startsWith("UNIQUE");
        }
        assertThat(with).isEqualTo(without);
        assertThat(dev.neardup.testing.JobFiles.alertedPairs(alerts))
                .isEqualTo(dev.neardup.testing.JobFiles.alertedPairs(otherAlerts))
                .isNotEmpty();
    }

    /** Each document's verdict, best match, similarity and cluster, by id (DELETED apart). */
    private static Map<String, String> judgements(Path verdicts) throws IOException {
        Map<String, String> out = new java.util.TreeMap<>();
        for (String line : Files.readAllLines(verdicts)) {
            JsonNode v = readTree(line);
            if (!v.get("verdict").asText().equals("DELETED")) {
                out.put(
                        v.get("docId").asText(),
                        v.get("verdict").asText()
                                + " "
                                + v.path("duplicateOf").asText()
                                + " "
                                + v.path("similarity").asText()
                                + " "
                                + v.path("clusterId").asText());
            }
        }
        return out;
    }
}
