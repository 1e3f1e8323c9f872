package dev.neardup.cli;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import dev.neardup.io.warc.WarcFiles;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.PlantedCorpus;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.Warcinfo;

/**
 * {@code run} on a WARC file as a crawler writes it (warcinfo, a request before each response,
 * chunked and gzip-encoded bodies, an ISO-8859-1 page named only in the HTTP header, an image, a
 * PDF, a 404, a redirect, an identical-payload revisit and a broken record) finds the same pairs
 * and gives the same verdicts as on the same pages as JSON Lines; no image, PDF or error page is in
 * any output; the broken record is one dead letter at its offset; the summary counts the skipped
 * records by reason.
 */
class WarcRunITCase {

    @TempDir Path dir;

    private static final int BASES = 24;

    private record Page(String url, String html, Instant fetched) {}

    private static List<Page> pages() {
        PlantedCorpus corpus = new PlantedCorpus(43);
        for (int i = 0; i < BASES; i++) {
            corpus.addBase("base-" + i, 2500);
        }
        for (int i = 0; i < BASES; i += 2) {
            corpus.addVariant("base-" + i, "copy-" + i, 0.93);
        }
        List<Page> pages = new ArrayList<>();
        for (PlantedCorpus.Doc d : corpus.docs) {
            pages.add(
                    new Page(
                            "https://example.org/" + d.id(),
                            "<html><head><title>"
                                    + d.id()
                                    + "</title></head><body><p>caf\u00e9 "
                                    + d.content()
                                    + "</p></body></html>",
                            Instant.ofEpochMilli(d.fetchedAt())
                                    .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
        }
        return pages;
    }

    /** The pages as a WARC file, each in one of several encodings, among records of other kinds. */
    private Path warc(List<Page> pages, boolean gzip, String name) throws Exception {
        WarcFiles w = new WarcFiles(gzip);
        w.add(new Warcinfo.Builder().date(pages.get(0).fetched()).fields(Map.of()).build());
        long broken = -1;
        for (int i = 0; i < pages.size(); i++) {
            Page p = pages.get(i);
            w.request(p.url(), p.fetched());
            byte[] http =
                    switch (i % 4) {
                        case 0 -> WarcFiles.http(200, p.html(), "Content-Type: text/html");
                        case 1 ->
                                WarcFiles.http(
                                        200,
                                        WarcFiles.chunked(p.html().getBytes(UTF_8), 700),
                                        "Content-Type: text/html; charset=utf-8",
                                        "Transfer-Encoding: chunked");
                        case 2 ->
                                WarcFiles.http(
                                        200,
                                        WarcFiles.gzip(p.html().getBytes(UTF_8)),
                                        "Content-Type: text/html; charset=UTF-8",
                                        "Content-Encoding: gzip");
                        default ->
                                WarcFiles.http(
                                        200,
                                        p.html().getBytes(ISO_8859_1),
                                        "Content-Type: text/html; charset=ISO-8859-1");
                    };
            w.response(p.url(), p.fetched(), http);
            if (i == pages.size() / 2) {
                Instant t = p.fetched();
                w.response(
                        "https://example.org/logo.png",
                        t,
                        WarcFiles.http(
                                200,
                                new byte[] {(byte) 0x89, 'P', 'N', 'G'},
                                "Content-Type: image/png"));
                w.response(
                        "https://example.org/paper.pdf",
                        t,
                        WarcFiles.http(
                                200, "%PDF-1.4 " + p.html(), "Content-Type: application/pdf"));
                w.response(
                        "https://example.org/missing",
                        t,
                        WarcFiles.http(
                                404,
                                "<html><body>not found " + p.html() + "</body></html>",
                                "Content-Type: text/html"));
                w.response(
                        "https://example.org/moved",
                        t,
                        WarcFiles.http(
                                301,
                                "",
                                "Location: https://example.org/",
                                "Content-Type: text/html"));
                w.add(
                        new WarcRevisit.Builder(p.url(), WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1)
                                .date(t.plusSeconds(60))
                                .refersTo(
                                        URI.create("urn:uuid:aaaaaaaa-1234-1234-1234-123456789abc"),
                                        p.url(),
                                        p.fetched())
                                .body(
                                        MediaType.HTTP_RESPONSE,
                                        WarcFiles.http(200, new byte[0], "Content-Type: text/html"))
                                .build());
                broken = w.raw("WARC/1.1\r\nWARC-Type: response\r\nthis is no header\r\n\r\n");
            }
        }
        Path file = w.write(dir, name);
        Files.writeString(dir.resolve(name + ".broken-offset"), Long.toString(broken));
        return file;
    }

    private Path jsonLines(List<Page> pages) throws Exception {
        List<String> lines = new ArrayList<>();
        for (Page p : pages) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", p.url());
            json.put("url", p.url());
            json.put("content", p.html());
            json.put("contentType", "text/html");
            json.put("fetchedAt", p.fetched().toString());
            lines.add(Json.write(json));
        }
        Path file = dir.resolve("crawl.jsonl");
        Files.write(file, lines);
        return file;
    }

    private CliRun run(Path input, String tag) {
        CliRun r =
                CliRun.run(
                        "run",
                        "--input",
                        input.toString(),
                        "--verdicts",
                        dir.resolve(tag + "-verdicts.jsonl").toString(),
                        "--alerts",
                        dir.resolve(tag + "-alerts.jsonl").toString(),
                        "--dead-letters",
                        dir.resolve(tag + "-dead.jsonl").toString(),
                        "--parallelism",
                        "2");
        assertThat(r.exitCode()).as("exit code; stderr: %s", r.err()).isZero();
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
        return r;
    }

    private Map<String, String> verdicts(String tag) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode v : JobFiles.read(dir.resolve(tag + "-verdicts.jsonl"))) {
            String was =
                    out.put(
                            v.get("docId").asText(),
                            v.get("verdict").asText() + " " + v.path("duplicateOf").asText());
            assertThat(was).as("one verdict per page").isNull();
        }
        return out;
    }

    private Set<String> pairs(String tag) {
        return JobFiles.alertedPairs(dir.resolve(tag + "-alerts.jsonl"));
    }

    /**
     * {@code evaluate} and the HTML report read the WARC file as the job does: the same exact
     * answer and scores as on JSON Lines, and the report shows the pages' text.
     */
    @org.junit.jupiter.api.Test
    void evaluateAndTheReportReadWarcFilesAsTheJobDoes() throws Exception {
        List<Page> pages = pages();
        Path json = jsonLines(pages);
        Path warc = warc(pages, true, "eval.warc.gz");
        CliRun fromJson = CliRun.run("evaluate", "--input", json.toString(), "--json");
        CliRun fromWarc = CliRun.run("evaluate", "--input", warc.toString(), "--json");
        assertThat(fromJson.exitCode()).as(fromJson.err()).isZero();
        assertThat(fromWarc.exitCode()).as(fromWarc.err()).isZero();
        JsonNode a = Json.MAPPER.readTree(fromJson.out()).get("report");
        JsonNode b = Json.MAPPER.readTree(fromWarc.out()).get("report");
        assertThat(a.get("truePairs").asInt()).isPositive();
        for (String field :
                new String[] {
                    "documents",
                    "exactPairs",
                    "truePairs",
                    "pairRecall",
                    "reportedPairs",
                    "pairPrecision"
                }) {
            assertThat(b.path(field)).as(field).isEqualTo(a.path(field));
        }
        assertThat(fromWarc.err()).contains("neardup evaluate: " + pages.size() + " documents");

        Path report = dir.resolve("report.html");
        CliRun run =
                CliRun.run(
                        "run",
                        "--input",
                        warc.toString(),
                        "--alerts",
                        dir.resolve("report-alerts.jsonl").toString(),
                        "--report",
                        report.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        String html = Files.readString(report);
        assertThat(html)
                .contains("https://example.org/copy-0")
                .doesNotContain("(not in the input)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"crawl.warc.gz", "crawl.warc"})
    void aWarcFileGivesTheVerdictsOfItsPagesAsJsonLines(String name) throws Exception {
        List<Page> pages = pages();
        run(jsonLines(pages), "json");
        CliRun warc = run(warc(pages, name.endsWith(".gz"), name), "warc");

        Map<String, String> expected = verdicts("json");
        assertThat(expected).hasSize(pages.size());
        assertThat(expected.values().stream().filter(v -> v.startsWith("DUPLICATE")).count())
                .as("the planted copies are found")
                .isEqualTo(BASES / 2);
        assertThat(verdicts("warc")).isEqualTo(expected);
        assertThat(pairs("warc")).isEqualTo(pairs("json")).hasSize(BASES / 2);

        List<JsonNode> dead = JobFiles.read(dir.resolve("warc-dead.jsonl"));
        long brokenAt = Long.parseLong(Files.readString(dir.resolve(name + ".broken-offset")));
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).get("reason").asText()).isEqualTo("MALFORMED_RECORD");
        assertThat(dead.get(0).get("source").asText()).isEqualTo(name + "@" + brokenAt);
        assertThat(warc.err())
                .contains(
                        ", "
                                + (pages.size() + 6)
                                + " WARC records skipped (request_record "
                                + pages.size()
                                + ", ")
                .contains("not_text 2")
                .contains("http_status 2")
                .contains("warcinfo_record 1")
                .contains("identical_revisit 1")
                .contains(pages.size() + " documents");
    }

    /**
     * Several inputs in any mix of formats, given as files, a directory or a glob, give the
     * verdicts and pairs of the same pages in one file; the skipped records of every file are
     * counted, also when one source reader reads several WARC files; {@code dedupe} and {@code
     * evaluate} take the same inputs.
     */
    @org.junit.jupiter.api.Test
    void manyInputsInAnyMixOfFormatsReadAsOne() throws Exception {
        List<Page> pages = pages();
        int half = pages.size() / 2;
        Path whole = Files.move(jsonLines(pages), dir.resolve("whole.jsonl"));
        run(whole, "json");
        Map<String, String> expected = verdicts("json");

        // Half the pages as JSON Lines, the other half as WARC, listed one after the other.
        Path parts = Files.createDirectories(dir.resolve("parts"));
        Path first = Files.move(jsonLines(pages.subList(0, half)), parts.resolve("1-first.jsonl"));
        Path second =
                Files.move(
                        warc(pages.subList(half, pages.size()), true, "second.warc.gz"),
                        parts.resolve("2-second.warc.gz"));
        CliRun listed =
                CliRun.run(
                        "run",
                        "--input",
                        first.toString(),
                        second.toString(),
                        "--verdicts",
                        dir.resolve("listed-verdicts.jsonl").toString(),
                        "--alerts",
                        dir.resolve("listed-alerts.jsonl").toString(),
                        "--dead-letters",
                        dir.resolve("listed-dead.jsonl").toString());
        assertThat(listed.exitCode()).as(listed.err()).isZero();
        assertThat(verdicts("listed")).isEqualTo(expected);
        assertThat(pairs("listed")).isEqualTo(pairs("json"));

        // The same files as a directory (bookkeeping files left out) and as a glob.
        Files.writeString(parts.resolve("_SUCCESS"), "");
        Files.writeString(parts.resolve(".listing"), "not a crawl");
        run(parts, "directory");
        assertThat(verdicts("directory")).isEqualTo(expected);
        run(Path.of(parts + "/*-*"), "glob");
        assertThat(verdicts("glob")).isEqualTo(expected);

        // Two files of the same name in two directories: their records keep apart sources.
        Path again = Files.createDirectories(dir.resolve("again"));
        Path one1 = Files.createDirectories(dir.resolve("one")).resolve("part.jsonl");
        Files.copy(first, one1);
        Files.copy(first, again.resolve("part.jsonl"));
        run(dir.resolve("*/part.jsonl"), "twice");
        assertThat(JobFiles.read(dir.resolve("twice-verdicts.jsonl")))
                .extracting(v -> v.get("source").asText())
                .doesNotHaveDuplicates()
                .contains(one1 + ":1");

        // Two WARC files read by one source reader: each file's skips are counted.
        Path warcs = Files.createDirectories(dir.resolve("warcs"));
        warc(pages.subList(0, half), true, "a.warc.gz");
        warc(pages.subList(half, pages.size()), true, "b.warc.gz");
        Files.move(dir.resolve("a.warc.gz"), warcs.resolve("a.warc.gz"));
        Files.move(dir.resolve("b.warc.gz"), warcs.resolve("b.warc.gz"));
        CliRun one =
                CliRun.run(
                        "run",
                        "--input",
                        warcs.toString(),
                        "--verdicts",
                        dir.resolve("warcs-verdicts.jsonl").toString(),
                        "--alerts",
                        dir.resolve("warcs-alerts.jsonl").toString(),
                        "--dead-letters",
                        dir.resolve("warcs-dead.jsonl").toString(),
                        "--parallelism",
                        "1");
        assertThat(one.exitCode()).as(one.err()).isZero();
        assertThat(verdicts("warcs")).isEqualTo(expected);
        assertThat(one.err())
                .contains("request_record " + pages.size())
                .contains("warcinfo_record 2")
                .contains("identical_revisit 2");
        assertThat(JobFiles.read(dir.resolve("warcs-dead.jsonl"))).hasSize(2);

        // The later file listed first: out of order by more than the sort threshold (here a
        // second), read through an index in fetch order, where the records lie: the same verdicts,
        // pairs and counts, and every source names its own file.
        CliRun reversed =
                CliRun.run(
                        "run",
                        "--input",
                        warcs.resolve("b.warc.gz").toString(),
                        warcs.resolve("a.warc.gz").toString(),
                        "--verdicts",
                        dir.resolve("reversed-verdicts.jsonl").toString(),
                        "--alerts",
                        dir.resolve("reversed-alerts.jsonl").toString(),
                        "--dead-letters",
                        dir.resolve("reversed-dead.jsonl").toString(),
                        "-D",
                        "neardup.file.sort-above=1s");
        assertThat(reversed.exitCode()).as(reversed.err()).isZero();
        assertThat(reversed.err()).contains("indexed in fetch order");
        assertThat(verdicts("reversed")).isEqualTo(expected);
        assertThat(pairs("reversed")).isEqualTo(pairs("json"));
        assertThat(reversed.err())
                .contains("request_record " + pages.size())
                .contains("identical_revisit 2");
        assertThat(JobFiles.read(dir.resolve("reversed-dead.jsonl"))).hasSize(2);
        assertThat(JobFiles.read(dir.resolve("reversed-verdicts.jsonl")))
                .extracting(v -> v.get("source").asText())
                .allMatch(s -> s.startsWith("a.warc.gz@") || s.startsWith("b.warc.gz@"))
                .anyMatch(s -> s.startsWith("a.warc.gz@"))
                .anyMatch(s -> s.startsWith("b.warc.gz@"));

        // JSON Lines and WARC together, the later listed first: read as given, and the run says
        // why; the outputs are the same.
        CliRun mixed =
                CliRun.run(
                        "run",
                        "--input",
                        second.toString(),
                        first.toString(),
                        "--verdicts",
                        dir.resolve("mixed-verdicts.jsonl").toString(),
                        "--alerts",
                        dir.resolve("mixed-alerts.jsonl").toString(),
                        "--dead-letters",
                        dir.resolve("mixed-dead.jsonl").toString(),
                        "-D",
                        "neardup.file.sort-above=1s");
        assertThat(mixed.exitCode()).as(mixed.err()).isZero();
        assertThat(mixed.err())
                .contains(
                        "every page waits for the end of the input (JSON Lines and WARC files"
                                + " together are not put in fetch order)");
        assertThat(verdicts("mixed")).isEqualTo(expected);

        // dedupe and evaluate take the same inputs.
        Path clusters = dir.resolve("clusters.jsonl");
        CliRun dedupe =
                CliRun.run(
                        "dedupe", "--input", parts.toString(), "--clusters", clusters.toString());
        assertThat(dedupe.exitCode()).as(dedupe.err()).isZero();
        long inClusters =
                JobFiles.read(clusters).stream()
                        .filter(c -> !c.get("clusterId").asText().equals(c.get("docId").asText()))
                        .count();
        assertThat(inClusters).as("the planted copies are clustered").isEqualTo(BASES / 2);
        JsonNode a = evaluation(whole.toString());
        JsonNode b = evaluation(first.toString(), second.toString());
        assertThat(a.get("truePairs").asInt()).isPositive();
        for (String field :
                new String[] {"documents", "exactPairs", "truePairs", "reportedPairs"}) {
            assertThat(b.path(field)).as(field).isEqualTo(a.path(field));
        }
    }

    /** A WARC file without a page says so: its records were skipped, not that it is empty. */
    @org.junit.jupiter.api.Test
    void aWarcFileWithoutPagesSaysWhatItsRecordsWere() throws Exception {
        Instant t = Instant.parse("2026-03-01T00:00:00Z");
        WarcFiles w = new WarcFiles(true);
        w.request("https://example.org/logo.png", t);
        w.response(
                "https://example.org/logo.png",
                t,
                WarcFiles.http(
                        200, new byte[] {(byte) 0x89, 'P', 'N', 'G'}, "Content-Type: image/png"));
        Path file = w.write(dir, "images.warc.gz");
        CliRun r = run(file, "images");
        assertThat(r.err())
                .contains("neardup: warning: no document in " + file + ": 2 WARC records skipped (")
                .contains("none a document")
                .doesNotContain("the input is empty");
    }

    /** The report of {@code evaluate --json} on {@code inputs}. */
    private static JsonNode evaluation(String... inputs) throws Exception {
        List<String> args = new ArrayList<>(List.of("evaluate", "--json", "--input"));
        args.addAll(List.of(inputs));
        CliRun r = CliRun.run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return Json.MAPPER.readTree(r.out()).get("report");
    }
}
