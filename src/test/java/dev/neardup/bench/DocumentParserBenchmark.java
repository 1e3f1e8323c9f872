package dev.neardup.bench;

import dev.neardup.io.DocumentParser;
import dev.neardup.io.InputFields;
import dev.neardup.io.Json;
import dev.neardup.io.RawRecord;
import dev.neardup.io.TreeDocumentParser;
import dev.neardup.tools.bench.SyntheticText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@link DocumentParser#parse}: one input record's bytes to a validated {@link
 * dev.neardup.io.Document}, single thread. The records are JSON lines of about 30 KB of HTML
 * content with the optional fields and a few unknown ones, cycled through so that no single record
 * stays in the caches; the 'bytes' auxiliary counter's score is payload bytes per second.
 *
 * <ul>
 *   <li>{@code ASCII}: pure ASCII records (the UTF-8 check's fast path).
 *   <li>{@code NON_ASCII}: the same with accented, Cyrillic and CJK words and an emoji in every
 *       paragraph (the full UTF-8 validation).
 *   <li>{@code CORPUS}: the lines of the file named by {@code -p corpus=...} (JSON lines, for
 *       example a real crawl), each parsed once per pass.
 * </ul>
 *
 * <p>Run: {@code mvn -o -Pjmh -DskipTests verify -Djmh.args="DocumentParserBenchmark -f 1 -wi 2 -i
 * 3"}; add {@code -p input=CORPUS -p corpus=/path/to/crawl.jsonl} for a corpus.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DocumentParserBenchmark {

    /** What the records contain. */
    public enum Input {
        ASCII,
        NON_ASCII,
        CORPUS
    }

    @Param({"ASCII", "NON_ASCII"})
    public Input input;

    /** Which parser: the job's, or the tree-building one it replaced (issue 11, for comparison). */
    @Param({"STREAMING", "TREE"})
    public String parser;

    /** The JSON-lines file of {@link Input#CORPUS}. */
    @Param({""})
    public String corpus;

    private static final int GENERATED_RECORDS = 64;

    /** Visible text per record: about 30 KB of JSON with the markup. */
    private static final int CONTENT_BYTES = 27 * 1024;

    private RawRecord[] records;
    private int next;
    private java.util.function.Function<RawRecord, DocumentParser.Result> parse;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        List<byte[]> payloads =
                input == Input.CORPUS ? corpusLines(Path.of(corpus)) : generated(input);
        records = new RawRecord[payloads.size()];
        for (int i = 0; i < records.length; i++) {
            records[i] = new RawRecord(payloads.get(i), "bench:" + (i + 1));
        }
        InputFields fields = new InputFields("id", "content", "url", "contentType", "fetchedAt");
        int maxBytes = 64 * 1024 * 1024;
        if (parser.equals("TREE")) {
            TreeDocumentParser tree = new TreeDocumentParser(fields, maxBytes);
            parse = r -> tree.parse(r, 0, 0);
        } else {
            DocumentParser streaming = new DocumentParser(fields, maxBytes);
            parse = r -> streaming.parse(r, 0, 0);
        }
        // Every record must parse, or the benchmark measures the dead-letter path.
        for (RawRecord r : records) {
            DocumentParser.Result result = parse.apply(r);
            if (result.document() == null) {
                throw new IllegalStateException(
                        r.source
                                + ": "
                                + result.deadLetter().reason
                                + " "
                                + result.deadLetter().message);
            }
        }
    }

    private static List<byte[]> corpusLines(Path file) throws IOException {
        List<byte[]> out = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                out.add(line.getBytes(StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    private static final String[] NON_ASCII_WORDS = {
        "Grüße", "naïve", "façade", "Ærøskøbing", "Москва", "Ελλάδα", "世界", "日本語のテキスト", "😀"
    };

    private static List<byte[]> generated(Input input) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < GENERATED_RECORDS; i++) {
            String html = SyntheticText.html(i, CONTENT_BYTES);
            if (input == Input.NON_ASCII) {
                StringBuilder sb = new StringBuilder(html.length() + 4096);
                int w = 0;
                for (String paragraph : html.split("</p>", -1)) {
                    if (sb.length() > 0) {
                        sb.append("</p>");
                    }
                    sb.append(paragraph);
                    for (int k = 0; k < 3; k++) {
                        sb.append(' ').append(NON_ASCII_WORDS[w++ % NON_ASCII_WORDS.length]);
                    }
                }
                html = sb.toString();
            }
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("id", "https://example.org/page/" + i);
            record.put("url", "https://example.org/page/" + i);
            record.put("contentType", "text/html");
            record.put("fetchedAt", "2026-01-02T03:04:05Z");
            record.put("status", 200);
            record.put(
                    "headers",
                    Map.of("server", "nginx", "content-length", html.length(), "etag", "\"x" + i));
            record.put("links", List.of("/a", "/b", "/news/" + i));
            record.put("content", html);
            out.add(Json.write(record).getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    /** Counts payload bytes, so JMH reports bytes/s next to records/s. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    @Benchmark
    public DocumentParser.Result parse(Bytes counter) {
        RawRecord r = records[next];
        next = next + 1 == records.length ? 0 : next + 1;
        counter.bytes += r.payload.length;
        return parse.apply(r);
    }
}
