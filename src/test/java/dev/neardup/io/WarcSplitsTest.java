package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.warc.WarcFiles;
import dev.neardup.io.warc.WarcReadSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gzip WARC file is cut into splits at record starts, read in parallel: together the splits give
 * every record once, as the whole file does, broken records included.
 */
class WarcSplitsTest {

    @TempDir Path dir;

    private static final Instant T = Instant.parse("2026-03-01T00:00:00Z");

    private Path warc(boolean gzip) throws Exception {
        WarcFiles w = new WarcFiles(gzip);
        for (int i = 0; i < 200; i++) {
            w.request("https://example.org/" + i, T.plusSeconds(i));
            w.response(
                    "https://example.org/" + i,
                    T.plusSeconds(i),
                    WarcFiles.http(
                            200,
                            "<html><body>page " + i + " with some words in it</body></html>",
                            "Content-Type: text/html"));
            if (i % 50 == 25) {
                w.raw("WARC/1.1\r\nWARC-Type: response\r\nthis is no header\r\n\r\n");
            }
            if (i == 150) { // a page fetched 30 s before the one before it
                w.response(
                        "https://example.org/late",
                        T.plusSeconds(120),
                        WarcFiles.http(200, "<html><body>late page</body></html>"));
            }
        }
        return w.write(dir, gzip ? "crawl.warc.gz" : "crawl.warc");
    }

    private static List<String> read(InputFormat format, List<FileSourceSplit> splits)
            throws Exception {
        BulkFormat<ParsedRecord, FileSourceSplit> reader = format.reader(SourceCounters.NONE);
        List<String> out = new ArrayList<>();
        for (FileSourceSplit split : splits) {
            try (BulkFormat.Reader<ParsedRecord> r =
                    reader.createReader(new Configuration(), split)) {
                BulkFormat.RecordIterator<ParsedRecord> batch;
                while ((batch = r.readBatch()) != null) {
                    RecordAndPosition<ParsedRecord> rec;
                    while ((rec = batch.next()) != null) {
                        ParsedRecord p = rec.getRecord();
                        out.add(
                                p.document != null
                                        ? p.document.id
                                        : p.deadLetter.reason + "@" + p.deadLetter.source);
                    }
                    batch.releaseBatch();
                }
            }
        }
        return out;
    }

    private static List<FileSourceSplit> splits(Path file, LineSplits plan) throws Exception {
        InputFiles.Input in = InputFiles.Input.local(file);
        return new ArrayList<>(
                new LineSplitEnumerator(
                                plan == null
                                        ? java.util.Map.of()
                                        : java.util.Map.of(in.path().toString(), plan),
                                false)
                        .enumerateSplits(new org.apache.flink.core.fs.Path[] {in.path()}, 1));
    }

    @Test
    void splitsOfAGzipWarcFileGiveEveryRecordOnce() throws Exception {
        Path file = warc(true);
        WarcDocuments format =
                new WarcDocuments(
                        "crawl.warc.gz",
                        new DocumentParser(
                                new InputFields("id", "content", "url", "contentType", "fetchedAt"),
                                1 << 20),
                        WarcReadSettings.defaults());
        List<String> whole = read(format, splits(file, null));
        assertThat(whole).hasSize(205); // 201 pages and 4 broken records
        assertThat(whole.stream().filter(s -> s.startsWith("MALFORMED_RECORD@"))).hasSize(4);
        for (String size : new String[] {"1b", "700b", "5kb"}) {
            LineSplits plan = WarcDocuments.plan(file, MemorySize.parse(size), 2);
            assertThat(plan).isNotNull();
            assertThat(plan.count()).as("splits of %s", size).isGreaterThan(1);
            assertThat(read(format, splits(file, plan))).as("split at %s", size).isEqualTo(whole);
        }
    }

    /**
     * The disorder of a WARC file is measured on its record headers, and through the reader in a
     * split whose headers cannot all be read: the same with and without splits.
     */
    @Test
    void theDisorderOfAWarcFileIsMeasuredOnItsHeaders() throws Exception {
        for (boolean gzip : new boolean[] {true, false}) {
            Path file = warc(gzip);
            InputFiles.Input in = InputFiles.Input.local(file);
            WarcDocuments format =
                    new WarcDocuments(
                            in.name(),
                            new DocumentParser(
                                    new InputFields(
                                            "id", "content", "url", "contentType", "fetchedAt"),
                                    1 << 20),
                            WarcReadSettings.defaults());
            for (LineSplits plan :
                    java.util.Arrays.asList(
                            null, WarcDocuments.plan(file, MemorySize.parse("5kb"), 2))) {
                InputOrder order =
                        InputOrder.measure(
                                new InputFiles(
                                        List.of(
                                                new InputFiles.File(
                                                        in.path(), in.name(), format, plan))),
                                2);
                assertThat(order.disorderMillis())
                        .as("gzip %s, plan %s", gzip, plan)
                        .isEqualTo(30_000);
                assertThat(order.records()).isGreaterThanOrEqualTo(201);
            }
        }
    }

    @Test
    void aPlainWarcFileIsOneSplit() throws Exception {
        assertThat(WarcDocuments.plan(warc(false), MemorySize.parse("1kb"), 2)).isNull();
        assertThat(Files.size(dir.resolve("crawl.warc"))).isGreaterThan(10_000);
    }
}
