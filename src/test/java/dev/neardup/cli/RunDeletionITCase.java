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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Deletions in file mode, end to end through {@code neardup run} (issue 12, item 4): page A, then
 * the line {@code {"id":"A","deleted":true}}, then an exact copy B of A, later: B is UNIQUE and the
 * deletion has its DELETED verdict; without the deletion line, B is a DUPLICATE of A.
 */
class RunDeletionITCase {

    private static final String PAGE = SyntheticText.prose(11, 3000);

    private static String page(String id, String fetchedAt) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", id);
        json.put("url", "https://example.org/" + id);
        json.put("content", PAGE);
        json.put("fetchedAt", fetchedAt);
        return Json.write(json);
    }

    /** Runs {@code neardup run} at parallelism 2 over these lines; returns the run and outputs. */
    private static Map<String, List<JsonNode>> run(String name, List<String> lines, CliRun[] run)
            throws Exception {
        Path dir = ShortTempDirs.create("nd-del");
        Path input = dir.resolve(name + ".jsonl");
        Files.write(input, lines, StandardCharsets.UTF_8);
        run[0] =
                CliRun.run(
                        "run",
                        "--input",
                        input.toString(),
                        "--alerts",
                        dir.resolve("alerts.jsonl").toString(),
                        "--verdicts",
                        dir.resolve("verdicts.jsonl").toString(),
                        "--dead-letters",
                        dir.resolve("dead.jsonl").toString(),
                        "--parallelism",
                        "2");
        assertThat(run[0].exitCode()).as(run[0].err()).isZero();
        Map<String, List<JsonNode>> out = new TreeMap<>();
        for (String output : new String[] {"alerts", "verdicts", "dead"}) {
            out.put(output, JobFiles.read(dir.resolve(output + ".jsonl")));
        }
        return out;
    }

    /** Verdicts as "docId VERDICT duplicateOf", sorted. */
    private static List<String> verdicts(List<JsonNode> verdicts) {
        List<String> out = new ArrayList<>();
        for (JsonNode v : verdicts) {
            out.add(
                    v.get("docId").asText()
                            + " "
                            + v.get("verdict").asText()
                            + " "
                            + v.get("duplicateOf").asText("-"));
        }
        out.sort(null);
        return out;
    }

    @Test
    void aDeletedPageIsNotTheOriginalOfALaterCopy() throws Exception {
        CliRun[] run = new CliRun[1];
        Map<String, List<JsonNode>> out =
                run(
                        "with-deletion",
                        List.of(
                                page("A", "2026-03-02T10:00:00Z"),
                                "{\"id\":\"A\",\"deleted\":true,\"fetchedAt\":\"2026-03-02T11:00:00Z\"}",
                                page("B", "2026-03-02T12:00:00Z")),
                        run);
        assertThat(verdicts(out.get("verdicts")))
                .containsExactly("A DELETED -", "A UNIQUE -", "B UNIQUE -");
        JsonNode deleted =
                out.get("verdicts").stream()
                        .filter(v -> v.get("verdict").asText().equals("DELETED"))
                        .findFirst()
                        .orElseThrow();
        assertThat(deleted.get("eventTime").asText()).isEqualTo("2026-03-02T11:00:00Z");
        assertThat(deleted.get("matches")).isEmpty();
        assertThat(out.get("alerts")).isEmpty();
        assertThat(out.get("dead")).as("the deletion line is no dead letter").isEmpty();
        assertThat(run[0].err())
                .contains(
                        "2 documents (2 unique, 0 duplicate), 1 deletion, 0 alerts, 0 dead"
                                + " letters");
    }

    @Test
    void withoutTheDeletionLineTheCopyIsADuplicate() throws Exception {
        CliRun[] run = new CliRun[1];
        Map<String, List<JsonNode>> out =
                run(
                        "without-deletion",
                        List.of(
                                page("A", "2026-03-02T10:00:00Z"),
                                page("B", "2026-03-02T12:00:00Z")),
                        run);
        assertThat(verdicts(out.get("verdicts"))).containsExactly("A UNIQUE -", "B DUPLICATE A");
        assertThat(out.get("alerts")).hasSize(1);
        assertThat(run[0].err())
                .contains("2 documents (1 unique, 1 duplicate), 1 alert, 0 dead letters");
    }

    /** The deletion only affects documents after it: a copy fetched before it still matches A. */
    @Test
    void aCopyFetchedBeforeTheDeletionStillMatchesAndExactCopiesLeaveWithTheDeletedPage()
            throws Exception {
        CliRun[] run = new CliRun[1];
        Map<String, List<JsonNode>> out =
                run(
                        "copy-before-deletion",
                        List.of(
                                "{\"id\":\"A\",\"deleted\":true,\"fetchedAt\":\"2026-03-02T11:00:00Z\"}",
                                page("B", "2026-03-02T12:00:00Z"),
                                page("C", "2026-03-02T10:30:00Z"),
                                page("A", "2026-03-02T10:00:00Z")),
                        run);
        // C (10:30) is earlier than the deletion (11:00): DUPLICATE of A. B (12:00) is later: A is
        // gone, but C, an exact copy of A that A stood for in the buckets, went with it, so B is
        // UNIQUE (README: exact copies that a deleted page stood for leave with it).
        assertThat(verdicts(out.get("verdicts")))
                .containsExactly("A DELETED -", "A UNIQUE -", "B UNIQUE -", "C DUPLICATE A");
    }
}
