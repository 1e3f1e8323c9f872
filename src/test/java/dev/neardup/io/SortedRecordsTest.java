package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.io.warc.WarcFiles;
import dev.neardup.io.warc.WarcReadSettings;
import java.io.DataInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * WARC files far out of order, as parallel crawler threads write them (each file in order, the
 * files overlapping in time), read through an index in fetch order: every record once, in the order
 * of its date, from where it lies in its file, with its file's name and offset as source.
 */
class SortedRecordsTest {

    @TempDir Path dir;

    private static final Instant T = Instant.parse("2026-03-01T00:00:00Z");
    private static final DocumentParser PARSER =
            new DocumentParser(
                    new InputFields("id", "content", "url", "contentType", "fetchedAt"), 1 << 20);

    /** Pages at T + {@code first}, + {@code first + step}, ...: a crawler thread's file. */
    private Path warc(String name, boolean gzip, int first, int step, int pages) throws Exception {
        WarcFiles w = new WarcFiles(gzip);
        for (int i = 0; i < pages; i++) {
            int s = first + i * step;
            String url = "https://example.org/" + name + "/" + s;
            w.request(url, T.plusSeconds(s));
            w.response(
                    url,
                    T.plusSeconds(s),
                    WarcFiles.http(
                            200,
                            "<html><body>page " + s + " of " + name + "</body></html>",
                            "Content-Type: text/html"));
        }
        return w.write(dir, name);
    }

    private static InputFiles given(List<Path> files) throws Exception {
        List<InputFiles.File> out = new ArrayList<>();
        for (Path f : files) {
            InputFiles.Input in = InputFiles.Input.local(f);
            out.add(
                    new InputFiles.File(
                            in.path(),
                            in.name(),
                            new WarcDocuments(in.name(), PARSER, WarcReadSettings.defaults()),
                            null));
        }
        return new InputFiles(out);
    }

    /** The index of {@code files} as a job reads it: its splits, with their format. */
    private InputFiles indexed(List<Path> files, int runLines, MemorySize splitSize)
            throws Exception {
        return indexed(files, runLines, splitSize, 2);
    }

    private InputFiles indexed(List<Path> files, int runLines, MemorySize splitSize, int threads)
            throws Exception {
        // As in a run: the index and its sorted runs in a work directory not made yet.
        Path work = dir.resolve("work-" + runLines);
        Path index = work.resolve("index");
        SortedLines.Result r =
                SortedRecords.write(
                        files, WarcReadSettings.defaults(), index, work, threads, runLines);
        assertThat(Files.list(work)).as("sorted runs removed").containsExactly(index);
        assertThat(r.inPlace()).isTrue();
        assertThat(r.bytes()).isEqualTo(r.lines() * SortedRecords.ENTRY_BYTES);
        InputFiles.Input in = InputFiles.Input.named("index", index);
        List<org.apache.flink.core.fs.Path> paths = new ArrayList<>();
        List<WarcDocuments> formats = new ArrayList<>();
        for (InputFiles.File f : given(files).files()) {
            paths.add(f.path());
            formats.add((WarcDocuments) f.format());
        }
        return new InputFiles(
                List.of(
                        new InputFiles.File(
                                in.path(),
                                in.name(),
                                new WarcIndexDocuments(paths, formats),
                                SortedRecords.plan(index, files, splitSize, 2))));
    }

    private static List<FileSourceSplit> splits(InputFiles files) throws Exception {
        return files.splits();
    }

    /** The documents of {@code splits} in reading order, each as "source time id". */
    private static List<String> read(InputFiles files, List<FileSourceSplit> splits)
            throws Exception {
        List<String> out = new ArrayList<>();
        for (FileSourceSplit split : splits) {
            InputFormat.forEachRecord(
                    files.reader(SourceCounters.NONE),
                    split,
                    r ->
                            out.add(
                                    r.document != null
                                            ? r.document.instance
                                                    + " "
                                                    + r.document.eventTime
                                                    + " "
                                                    + r.document.id
                                            : r.deadLetter.source
                                                    + " "
                                                    + Long.MIN_VALUE
                                                    + " "
                                                    + r.deadLetter.reason));
        }
        return out;
    }

    @Test
    void overlappingFilesAreReadInTheOrderOfTheirDatesWithTheirOwnSources() throws Exception {
        // Three threads' files: a gzip, a plain and a gzip file, interleaved in time, and a tie
        // (the same second in a.warc.gz and b.warc) that input order breaks.
        List<Path> files =
                List.of(
                        warc("a.warc.gz", true, 0, 3, 40),
                        warc("b.warc", false, 1, 3, 40),
                        warc("c.warc.gz", true, 60, 1, 30));
        InputFiles given = given(files);
        List<String> asGiven = new ArrayList<>();
        for (FileSourceSplit split : splits(given)) {
            asGiven.addAll(read(given, List.of(split)));
        }
        assertThat(asGiven).hasSize(110);
        List<String> byDate = new ArrayList<>(asGiven);
        byDate.sort(Comparator.comparingLong(s -> Long.parseLong(s.split(" ")[1])));

        for (int runLines : new int[] {SortedLines.RUN_LINES, 7}) {
            for (String size : new String[] {"64mb", "2kb"}) {
                InputFiles index =
                        indexed(files, runLines, MemorySize.parse(size), runLines == 7 ? 1 : 2);
                List<FileSourceSplit> splits = splits(index);
                if (size.equals("2kb")) {
                    assertThat(splits).hasSizeGreaterThan(2);
                }
                for (FileSourceSplit s : splits) {
                    assertThat(s.offset() % SortedRecords.ENTRY_BYTES).isZero();
                    assertThat(s.length() % SortedRecords.ENTRY_BYTES).isZero();
                }
                assertThat(read(index, splits))
                        .as("runs of %s, splits of %s", runLines, size)
                        .isEqualTo(byDate);
            }
        }
        assertThat(byDate.get(0)).startsWith("a.warc.gz@");
        assertThat(byDate.get(1)).startsWith("b.warc@");
    }

    @Test
    void aFileWithABrokenRecordIsIndexedByTheReaderAndKeepsItsDeadLetter() throws Exception {
        WarcFiles w = new WarcFiles(true);
        for (int s = 0; s < 20; s++) {
            String url = "https://example.org/broken/" + s;
            w.response(
                    url,
                    T.plusSeconds(2 * s),
                    WarcFiles.http(200, "<html><body>page " + s + "</body></html>"));
            if (s == 10) {
                w.raw("WARC/1.1\r\nWARC-Type: response\r\nthis is no header\r\n\r\n");
            }
        }
        Path broken = w.write(dir, "broken.warc.gz");
        Path other = warc("other.warc.gz", true, 1, 2, 20);
        List<Path> files = List.of(other, broken);
        InputFiles given = given(files);
        List<String> asGiven = new ArrayList<>();
        for (FileSourceSplit split : splits(given)) {
            asGiven.addAll(read(given, List.of(split)));
        }
        assertThat(asGiven).hasSize(41).anyMatch(s -> s.contains("MALFORMED_RECORD"));
        List<String> byDate = new ArrayList<>(asGiven);
        byDate.sort(Comparator.comparingLong(s -> Long.parseLong(s.split(" ")[1])));
        InputFiles index = indexed(files, SortedLines.RUN_LINES, MemorySize.parse("64mb"));
        assertThat(read(index, splits(index))).isEqualTo(byDate);
    }

    @Test
    void aRestoredReaderSkipsTheRecordsItHadEmitted() throws Exception {
        List<Path> files =
                List.of(warc("a.warc.gz", true, 0, 2, 20), warc("b.warc.gz", true, 1, 2, 20));
        InputFiles index = indexed(files, SortedLines.RUN_LINES, MemorySize.parse("64mb"));
        FileSourceSplit split = splits(index).get(0);
        List<String> all = read(index, List.of(split));
        FileSourceSplit restored =
                split.updateWithCheckpointedPosition(
                        new CheckpointedPosition(CheckpointedPosition.NO_OFFSET, 13));
        assertThat(read(index, List.of(restored))).isEqualTo(all.subList(13, all.size()));
    }

    @Test
    void theIndexNamesEveryRecordByInputAndOffset() throws Exception {
        Path a = warc("a.warc.gz", true, 10, 1, 3);
        Path b = warc("b.warc.gz", true, 0, 1, 2);
        Path index = dir.resolve("index");
        SortedLines.Result r =
                SortedRecords.write(
                        List.of(a, b),
                        WarcReadSettings.defaults(),
                        index,
                        dir.resolve("scratch"),
                        1);
        assertThat(r.lines()).isEqualTo(10); // a request and a response per page
        List<String> entries = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(Files.newInputStream(index))) {
            for (int i = 0; i < r.lines(); i++) {
                entries.add(in.readInt() + "@" + in.readLong());
            }
        }
        // b's four records first (earlier), then a's, each file in its own order.
        assertThat(entries.subList(0, 4)).allMatch(e -> e.startsWith("1@"));
        assertThat(entries.subList(4, 10)).allMatch(e -> e.startsWith("0@"));
        assertThat(entries.get(0)).isEqualTo("1@0");
        assertThat(entries.get(4)).isEqualTo("0@0");
    }

    @Test
    void anInputWhoseHeadersCannotBeReadIsNotIndexed() throws Exception {
        Path good = warc("a.warc.gz", true, 0, 1, 3);
        Path arc = dir.resolve("old.arc");
        Files.write(
                arc,
                WarcFiles.arcRecord(
                        "http://example.org/",
                        "127.0.0.1",
                        "20260301000000",
                        "text/html",
                        "<html>old</html>".getBytes(StandardCharsets.UTF_8)));
        assertThatThrownBy(
                        () ->
                                SortedRecords.write(
                                        List.of(good, arc),
                                        WarcReadSettings.defaults(),
                                        dir.resolve("index"),
                                        dir.resolve("scratch"),
                                        2))
                .isInstanceOf(SortedRecords.NotIndexable.class)
                .hasMessage("old.arc is an ARC file, whose records cannot be read in place");
    }
}
