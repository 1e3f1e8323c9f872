package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FileSystem;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SortedLines}: a copy of several inputs in fetch order whose records are, byte for byte,
 * those of the inputs as given, with their names, line numbers and places.
 */
class SortedLinesTest {

    private static final int MAX_BYTES = 300;
    private static final InputFields FIELDS =
            new InputFields("id", "content", "url", "contentType", "fetchedAt");
    private static final DocumentParser PARSER = new DocumentParser(FIELDS, MAX_BYTES);

    @TempDir Path dir;

    /** A record as the job sees it, less nothing. */
    private record Seen(String source, long position, String payload, long size, boolean cut) {
        static Seen of(RawRecord r) {
            return new Seen(
                    r.source,
                    r.position,
                    new String(r.payload, StandardCharsets.ISO_8859_1),
                    r.size,
                    r.truncated);
        }
    }

    private static List<RawRecord> read(JsonLinesFormat format, Path file) throws IOException {
        List<RawRecord> out = new ArrayList<>();
        try (StreamFormat.Reader<RawRecord> reader =
                format.createReader(
                        new Configuration(),
                        FileSystem.getLocalFileSystem()
                                .open(new org.apache.flink.core.fs.Path(file.toUri())))) {
            RawRecord r;
            while ((r = reader.read()) != null) {
                out.add(r);
            }
        }
        return out;
    }

    private static String doc(String id, String fetchedAt, int words) {
        StringBuilder content = new StringBuilder();
        for (int w = 0; w < words; w++) {
            content.append("w").append(w).append(' ');
        }
        return "{\"id\":\""
                + id
                + "\",\"content\":\""
                + content
                + "\""
                + (fetchedAt == null ? "" : ",\"fetchedAt\":\"" + fetchedAt + "\"")
                + "}";
    }

    @ParameterizedTest(name = "sorted runs of {0} lines")
    @ValueSource(ints = {3, 1 << 20})
    void theCopyHoldsTheRecordsOfTheInputsInFetchOrder(int runLines) throws IOException {
        SplittableRandom random = new SplittableRandom(7);
        StringBuilder a = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            a.append(doc("a" + i, "2026-11-2" + random.nextInt(10) + "T10:00:00Z", 5))
                    .append(i % 4 == 0 ? "\r\n" : "\n");
        }
        a.append("\n   \n"); // blank lines
        a.append(doc("big", "2026-11-20T09:00:00Z", 200)).append('\n'); // over MAX_BYTES
        a.append("{not json\n");
        a.append(doc("undated", null, 3)).append('\n');
        String b =
                doc("b1", "2026-11-25T10:00:00Z", 4)
                        + "\n"
                        + doc("b0", "2026-11-19T10:00:00Z", 4)
                        + "\n"
                        + doc("b2", "2026-11-22T10:00:00Z", 4); // no line feed at the end
        Path fileA = Files.writeString(dir.resolve("a.jsonl"), a);
        Path fileB = Files.writeString(dir.resolve("b.jsonl"), b);
        long linesOfA =
                JsonLinesFormat.countLines(new org.apache.flink.core.fs.Path(fileA.toUri()));
        JsonLinesFormat linesA = new JsonLinesFormat("a.jsonl", MAX_BYTES, null, 0);
        JsonLinesFormat linesB = new JsonLinesFormat("b.jsonl", MAX_BYTES, null, linesOfA);
        List<DocumentLinesFormat> formats =
                List.of(
                        new DocumentLinesFormat(
                                linesA, PARSER, DocumentLinesFormat.UndatedLines.POSITION),
                        new DocumentLinesFormat(
                                linesB, PARSER, DocumentLinesFormat.UndatedLines.POSITION));

        // As in a run: the copy and the sorted runs in a work directory not made yet.
        Path copy = dir.resolve("scratch").resolve("copy.jsonl");
        SortedLines.Result result =
                SortedLines.write(
                        List.of(fileA, fileB), formats, copy, dir.resolve("scratch"), runLines);

        List<RawRecord> given = new ArrayList<>(read(linesA, fileA));
        given.addAll(read(linesB, fileB));
        assertThat(result.lines()).isEqualTo(given.size());
        assertThat(result.blankLines()).isEqualTo(2);
        assertThat(result.bytes()).isEqualTo(Files.size(copy));
        assertThat(Files.list(dir.resolve("scratch")))
                .as("sorted runs removed")
                .containsExactly(copy);

        JsonLinesFormat copied =
                JsonLinesFormat.copied(
                        MAX_BYTES, null, List.of("a.jsonl", "b.jsonl"), new long[] {0, linesOfA});
        List<RawRecord> read = read(copied, copy);
        assertThat(read.stream().map(Seen::of).toList())
                .containsExactlyInAnyOrderElementsOf(given.stream().map(Seen::of).toList());
        assertThat(read.stream().filter(r -> r.truncated).map(r -> r.source).toList())
                .containsExactly("a.jsonl:15");

        List<Long> times = new ArrayList<>();
        for (RawRecord r : read) {
            times.add(PARSER.eventTime(r, r.position, Long.MAX_VALUE));
        }
        assertThat(times).as("in fetch order, dead letters first").isSorted();
        assertThat(times.get(0)).isEqualTo(Long.MIN_VALUE);
    }
}
