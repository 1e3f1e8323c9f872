package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.ShortTempDirs;
import dev.neardup.tools.bench.SyntheticText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code neardup run} end to end, in-process, on its own embedded MiniCluster. */
class RunCommandITCase {

    private static Path dir;
    private static Path input;

    @BeforeAll
    static void writeInput() throws Exception {
        dir = ShortTempDirs.create("nd-run");
        input = dir.resolve("docs.jsonl");
        String a = SyntheticText.prose(1, 3000);
        String b = SyntheticText.prose(2, 3000);
        String aMirror = "<html><body><nav>Other site</nav><p>" + a + "</p></body></html>";
        Files.writeString(
                input,
                String.join(
                                "\n",
                                doc("a", a, "text/plain"),
                                doc("b", b, "text/plain"),
                                "{\"id\": 1",
                                doc("a-mirror", aMirror, "text/html"),
                                "")
                        + "\n",
                StandardCharsets.UTF_8);
    }

    private static String doc(String id, String content, String type, String fetchedAt) {
        return dev.neardup.io.Json.write(
                java.util.Map.of(
                        "id", id, "content", content, "contentType", type, "fetchedAt", fetchedAt));
    }

    private static String doc(String id, String content, String type) {
        return dev.neardup.io.Json.write(
                java.util.Map.of("id", id, "content", content, "contentType", type));
    }

    @Test
    void anInputFarOutOfOrderIsReadAsACopyInFetchOrderThatTheRunRemoves() throws Exception {
        // The sample is out of order by hours; a kept work directory shows what the run leaves.
        Path work = dir.resolve("kept-work");
        CliRun run =
                CliRun.run(
                        "run",
                        "--sample",
                        "--work-dir",
                        work.toString(),
                        "--alerts",
                        dir.resolve("sorted-alerts.jsonl").toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("copied in fetch order in ");
        assertThat(Files.readAllLines(dir.resolve("sorted-alerts.jsonl"))).hasSize(30);
        try (var files = Files.walk(work)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .contains("tmp")
                    .doesNotContain("input-in-fetch-order.jsonl");
        }
    }

    @Test
    void writesAlertsVerdictsAndDeadLettersToFiles() {
        Path out = dir.resolve("files");
        CliRun run =
                CliRun.run(
                        "run",
                        "--input",
                        input.toString(),
                        "--alerts",
                        out.resolve("alerts.jsonl").toString(),
                        "--verdicts",
                        out.resolve("verdicts.jsonl").toString(),
                        "--dead-letters",
                        out.resolve("dead.jsonl").toString(),
                        "--parallelism",
                        "2",
                        "--progress-interval",
                        "100ms");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("neardup: done in").contains("3 documents");
        // stderr is no terminal here: progress comes as JSON lines.
        List<JsonNode> progress = progressLines(run.err());
        assertThat(progress).isNotEmpty();
        assertThat(progress)
                .allSatisfy(
                        p -> {
                            assertThat(p.get("progress").asText()).isEqualTo("run");
                            assertThat(p.get("documents").asLong()).isBetween(0L, 3L);
                            assertThat(p.get("alerts").asLong()).isBetween(0L, 1L);
                            assertThat(p.get("time").asText()).isNotEmpty();
                        });
        List<JsonNode> alerts = JobFiles.read(out.resolve("alerts.jsonl"));
        assertThat(alerts).hasSize(1);
        assertThat(alerts.get(0).get("docId").asText()).isEqualTo("a-mirror");
        assertThat(alerts.get(0).get("duplicateOf").asText()).isEqualTo("a");
        List<JsonNode> verdicts = JobFiles.read(out.resolve("verdicts.jsonl"));
        assertThat(verdicts)
                .extracting(v -> v.get("docId").asText())
                .containsExactlyInAnyOrder("a", "b", "a-mirror");
        List<JsonNode> dead = JobFiles.read(out.resolve("dead.jsonl"));
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).get("reason").asText()).isEqualTo("MALFORMED_JSON");
        assertThat(dead.get(0).get("source").asText()).isEqualTo("docs.jsonl:3");
    }

    /** The JSON progress lines of a run's stderr. */
    static List<JsonNode> progressLines(String err) {
        return err.lines()
                .filter(l -> l.startsWith("{\"progress\":"))
                .map(
                        l -> {
                            try {
                                return dev.neardup.io.Json.MAPPER.readTree(l);
                            } catch (java.io.IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        })
                .toList();
    }

    @Test
    void readsStandardInput() throws Exception {
        Path out = dir.resolve("stdin");
        CliRun run =
                CliRun.runWithStdin(
                        Files.readString(input),
                        "run",
                        "--input",
                        "-",
                        "--alerts",
                        out.resolve("alerts.jsonl").toString(),
                        "--dead-letters",
                        out.resolve("dead.jsonl").toString(),
                        "--state-backend",
                        "hashmap",
                        "--quiet",
                        "--progress-interval",
                        "10ms");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(JobFiles.read(out.resolve("alerts.jsonl"))).hasSize(1);
    }

    /**
     * A named pipe (as {@code <(zcat crawl.jsonl.gz)} gives) is copied to the work directory and
     * read as the file would be, where reading it in place failed with "Illegal seek"; dead letters
     * keep the pipe's name as their source.
     */
    @Test
    @org.junit.jupiter.api.Timeout(
            value = 2,
            unit = java.util.concurrent.TimeUnit.MINUTES,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void readsANamedPipeAsTheFileItCarries() throws Exception {
        Path out = dir.resolve("pipe");
        Files.createDirectories(out);
        Path fifo = out.resolve("crawl-pipe");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor()).isZero();
        Thread writer =
                new Thread(
                        () -> {
                            try {
                                Files.write(fifo, Files.readAllBytes(input));
                            } catch (java.io.IOException e) {
                                throw new java.io.UncheckedIOException(e);
                            }
                        });
        writer.setDaemon(true); // read in place, the pipe was read once and then waited on
        writer.start();
        CliRun run =
                CliRun.run(
                        "run",
                        "--input",
                        fifo.toString(),
                        "--alerts",
                        out.resolve("alerts.jsonl").toString(),
                        "--dead-letters",
                        out.resolve("dead.jsonl").toString(),
                        "--state-backend",
                        "hashmap",
                        "--quiet");
        writer.join(10_000);
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<JsonNode> alerts = JobFiles.read(out.resolve("alerts.jsonl"));
        assertThat(alerts).hasSize(1);
        assertThat(alerts.get(0).get("docId").asText()).isEqualTo("a-mirror");
        List<JsonNode> dead = JobFiles.read(out.resolve("dead.jsonl"));
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).toString()).contains("crawl-pipe");
    }

    /**
     * A record repeated with the same id and fetchedAt gets a verdict per record; they were
     * identical lines, now their source tells them apart (issue 12).
     */
    @Test
    void repeatedRecordsGetVerdictsToldApartByTheirSource() throws Exception {
        Path in = dir.resolve("repeated.jsonl");
        String a =
                dev.neardup.io.Json.write(
                        java.util.Map.of(
                                "id",
                                "a",
                                "content",
                                SyntheticText.prose(5, 2000),
                                "fetchedAt",
                                "2026-03-01T10:00:00Z"));
        String b =
                dev.neardup.io.Json.write(
                        java.util.Map.of("id", "b", "content", SyntheticText.prose(6, 2000)));
        Files.writeString(in, a + "\n" + b + "\n" + a + "\n", StandardCharsets.UTF_8);
        Path verdicts = dir.resolve("repeated-verdicts.jsonl");
        CliRun run =
                CliRun.run(
                        "run",
                        "--input",
                        in.toString(),
                        "--verdicts",
                        verdicts.toString(),
                        "--alerts",
                        dir.resolve("repeated-alerts.jsonl").toString(),
                        "--state-backend",
                        "hashmap",
                        "--quiet");
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<JsonNode> out = JobFiles.read(verdicts);
        assertThat(out).hasSize(3);
        List<JsonNode> ofA = out.stream().filter(v -> v.get("docId").asText().equals("a")).toList();
        assertThat(ofA)
                .extracting(v -> v.get("source").asText())
                .containsExactlyInAnyOrder("repeated.jsonl:1", "repeated.jsonl:3");
        assertThat(ofA.get(0).toString()).isNotEqualTo(ofA.get(1).toString());
        assertThat(out.stream().filter(v -> v.get("docId").asText().equals("b")))
                .extracting(v -> v.get("source").asText())
                .containsExactly("repeated.jsonl:2");
    }

    /**
     * Pages shorter than the shingle size (w = 5 words): each is one shingle, its whole text, so
     * two one-word pages with different words are not near-duplicates; the same word is an exact
     * copy (issue 12: one-word pages were said to be called duplicates of each other).
     */
    @Test
    void oneWordPagesAreDuplicatesOnlyOfTheSameWord() throws Exception {
        Path in = dir.resolve("one-word.jsonl");
        List<String> lines = new java.util.ArrayList<>();
        java.util.SplittableRandom random = new java.util.SplittableRandom(4);
        java.util.Set<String> words = new java.util.TreeSet<>(List.of("hello", "world"));
        while (words.size() < 300) {
            StringBuilder w = new StringBuilder();
            for (int c = 0, n = 3 + random.nextInt(6); c < n; c++) {
                w.append((char) ('a' + random.nextInt(26)));
            }
            words.add(w.toString());
        }
        for (String w : words) {
            lines.add(doc("word-" + w, w, "text/plain", "2026-03-01T10:00:00Z"));
        }
        lines.add(doc("hello-again", "  Hello! ", "text/plain", "2026-03-01T10:01:00Z"));
        lines.add(
                doc(
                        "hello-html",
                        "<html><body><h1>HELLO</h1></body></html>",
                        "text/html",
                        "2026-03-01T10:02:00Z"));
        Files.write(in, lines, StandardCharsets.UTF_8);
        Path alerts = dir.resolve("one-word-alerts.jsonl");
        Path verdicts = dir.resolve("one-word-verdicts.jsonl");
        CliRun run =
                CliRun.run(
                        "run",
                        "--input",
                        in.toString(),
                        "--alerts",
                        alerts.toString(),
                        "--verdicts",
                        verdicts.toString(),
                        "--state-backend",
                        "hashmap",
                        "--quiet");
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<JsonNode> duplicates =
                JobFiles.read(verdicts).stream()
                        .filter(v -> v.get("verdict").asText().equals("DUPLICATE"))
                        .toList();
        assertThat(duplicates)
                .extracting(v -> v.get("docId").asText() + " -> " + v.get("duplicateOf").asText())
                .containsExactlyInAnyOrder("hello-again -> word-hello", "hello-html -> word-hello");
        assertThat(JobFiles.read(verdicts)).hasSize(words.size() + 2);
        assertThat(JobFiles.read(alerts))
                .allSatisfy(a -> assertThat(a.get("similarity").asDouble()).isEqualTo(1.0));
    }

    /**
     * A run that reads no document says so: a file whose every line is a dead letter (plain text
     * given as --input) fails with the count and the first reasons; an empty input warns.
     */
    @Test
    void aRunThatReadsNoDocumentSaysSo() throws Exception {
        Path text = dir.resolve("crawl.txt");
        Files.writeString(text, "Hello world.\nThis is a plain text file.\n\nThird line.\n");
        String dead = dir.resolve("text-dead.jsonl").toString();
        CliRun quiet = CliRun.run("run", "--input", text.toString(), "--dead-letters", dead, "-q");
        quiet.failure(
                "neardup run",
                "no document in "
                        + text
                        + ": 3 lines, all dead letters (MALFORMED_JSON at crawl.txt:1: not valid"
                        + " JSON: Unrecognized token 'Hello'");
        assertThat(quiet.err())
                .contains("MALFORMED_JSON at crawl.txt:2")
                .contains("MALFORMED_JSON at crawl.txt:4")
                .contains("the input is JSON Lines, a document object per line");
        assertThat(JobFiles.read(Path.of(dead))).hasSize(3);
        // Without -q: the summary, then the error as the last line.
        CliRun loud = CliRun.run("run", "--input", text.toString(), "--dead-letters", dead);
        assertThat(loud.exitCode()).as(loud.err()).isEqualTo(1);
        List<String> lines = loud.err().lines().toList();
        assertThat(lines.get(lines.size() - 2)).contains("0 documents").contains("3 dead letters");
        assertThat(lines.get(lines.size() - 1)).startsWith("neardup run: no document in " + text);

        Path empty = dir.resolve("empty.jsonl");
        Files.writeString(empty, "");
        CliRun none = CliRun.run("run", "--input", empty.toString(), "-q");
        assertThat(none.exitCode()).as(none.err()).isZero();
        assertThat(none.err().strip())
                .isEqualTo("neardup: warning: no document in " + empty + ": the input is empty");
        CliRun stdin = CliRun.runWithStdin("", "run", "--input", "-", "-q");
        assertThat(stdin.exitCode()).as(stdin.err()).isZero();
        assertThat(stdin.err())
                .contains("neardup: warning: no document in standard input: the input is empty");
    }

    @Test
    void rejectsBadOptionsWithOneLine() {
        CliRun.run("run", "--input", input.toString(), "--threshold", "1.5")
                .usageError("neardup run", "neardup.threshold");
        CliRun.run("run", "--input", dir.resolve("missing.jsonl").toString())
                .usageError("neardup run", "input file not found");
        CliRun.run("run").usageError("neardup run", "--input");
        CliRun.run("run", "--input", input.toString(), "--bands", "20", "--rows", "10")
                .usageError("neardup run", "exceeds");
        CliRun.run("run", "--input", input.toString(), "--retention", "soon")
                .usageError("neardup run", "not a duration");
        CliRun.run("run", "--input", input.toString(), "--signature-bits", "3")
                .usageError("neardup run", "neardup.bucket.signature-bits");
        CliRun.run("run", "--input", input.toString(), "--max-out-of-orderness", "-5m")
                .usageError("neardup run", "not a duration");
        CliRun.run("run", "--input", input.toString(), "--idle-timeout", "0s")
                .usageError("neardup run", "neardup.watermark.idle-timeout");
    }

    @Test
    void wrongPathsAndAZeroCheckpointIntervalAreUsageErrorsBeforeTheJobStarts() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        CliRun.run("run", "--input", empty.toString())
                .usageError("neardup run", "no input file in the directory");
        CliRun.run("run", "--input", dir.resolve("*.warc.gz").toString())
                .usageError("neardup run", "no file matches --input");
        CliRun.run("run", "--input", input.toString(), "--alerts", dir.toString())
                .usageError("neardup run", "--alerts " + dir + " is a directory");
        CliRun.run(
                        "run",
                        "--input",
                        input.toString(),
                        "--verdicts",
                        input.resolve("v.jsonl").toString())
                .usageError("neardup run", input + " is a file, not a directory");
        CliRun.run("run", "--input", input.toString(), "--checkpoint-interval", "0s")
                .usageError("neardup run", "(--checkpoint-interval): must be at least 10ms");
    }
}
