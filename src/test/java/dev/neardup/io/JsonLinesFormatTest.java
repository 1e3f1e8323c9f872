package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link JsonLinesFormat}: lines of a real file become raw records, byte for byte. */
class JsonLinesFormatTest {

    private static final String NAME = "feed.jsonl";

    @TempDir Path dir;

    private List<RawRecord> read(byte[] content, int maxBytes) throws IOException {
        Path file = Files.createTempFile(dir, "feed", ".jsonl");
        Files.write(file, content);
        List<RawRecord> out = new ArrayList<>();
        StreamFormat.Reader<RawRecord> reader =
                new JsonLinesFormat(NAME, maxBytes)
                        .createReader(
                                new Configuration(),
                                FileSystem.getLocalFileSystem()
                                        .open(new org.apache.flink.core.fs.Path(file.toUri())));
        try {
            RawRecord r;
            while ((r = reader.read()) != null) {
                out.add(r);
                assertThat(out).as("runaway reader").hasSizeLessThan(10_000);
            }
            assertThat(reader.read()).as("stays at the end").isNull();
        } finally {
            reader.close();
        }
        return out;
    }

    private List<RawRecord> read(String content) throws IOException {
        return read(content.getBytes(StandardCharsets.UTF_8), 1024);
    }

    private static String text(RawRecord r) {
        return new String(r.payload, StandardCharsets.UTF_8);
    }

    private static List<String> texts(List<RawRecord> records) {
        return records.stream().map(JsonLinesFormatTest::text).toList();
    }

    private static List<String> sources(List<RawRecord> records) {
        return records.stream().map(r -> r.source).toList();
    }

    @Test
    void eachLineIsARecordNamedByFileAndLineNumber() throws IOException {
        List<RawRecord> records = read("{\"id\":1}\n{\"id\":2}\n{\"id\":3}\n");

        assertThat(texts(records)).containsExactly("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");
        assertThat(sources(records))
                .containsExactly("feed.jsonl:1", "feed.jsonl:2", "feed.jsonl:3");
        for (RawRecord r : records) {
            assertThat(r.truncated).isFalse();
            assertThat(r.size).isEqualTo(r.payload.length);
            assertThat(r.timestamp).isEqualTo(-1);
        }
    }

    @Test
    void blankLinesAreSkippedButCounted() throws IOException {
        List<RawRecord> records = read("a\n\nb\n   \n\t \nc\n\n");

        assertThat(texts(records)).containsExactly("a", "b", "c");
        assertThat(sources(records))
                .containsExactly("feed.jsonl:1", "feed.jsonl:3", "feed.jsonl:6");
    }

    @Test
    void crlfLineEndsAreStripped() throws IOException {
        List<RawRecord> records = read("{\"a\":1}\r\n\r\n{\"b\":2}\r\n");

        assertThat(texts(records)).containsExactly("{\"a\":1}", "{\"b\":2}");
        assertThat(sources(records)).containsExactly("feed.jsonl:1", "feed.jsonl:3");
        assertThat(records.get(0).size).isEqualTo(7);
        assertThat(records.get(0).truncated).isFalse();
    }

    @Test
    void aFinalLineWithoutNewlineIsRead() throws IOException {
        List<RawRecord> records = read("first\nlast");
        assertThat(texts(records)).containsExactly("first", "last");
        assertThat(sources(records)).containsExactly("feed.jsonl:1", "feed.jsonl:2");
    }

    @Test
    void anEmptyFileAndAFileOfBlankLinesHaveNoRecords() throws IOException {
        assertThat(read("")).isEmpty();
        assertThat(read("\n\n  \n\r\n")).isEmpty();
        assertThat(read("\n  ")).isEmpty();
    }

    @Test
    void bytesArePreservedExactlyIncludingInvalidUtf8() throws IOException {
        byte[] invalid = {
            '{', '"', 'x', '"', ':', '"', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, '"', '}'
        };
        byte[] accents = "  {\"t\":\"Gr\u00fc\u00dfe\"}\t".getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.write(invalid);
        file.write('\n');
        file.write(accents);
        file.write('\n');

        List<RawRecord> records = read(file.toByteArray(), 1024);

        assertThat(records).hasSize(2);
        assertThat(records.get(0).payload).containsExactly(invalid);
        assertThat(records.get(0).size).isEqualTo(invalid.length);
        assertThat(records.get(1).payload).containsExactly(accents);
    }

    @Test
    void aLineLongerThanTheLimitIsTruncatedAndTheNextLineIsIntact() throws IOException {
        int max = 100;
        String longLine = "{\"id\":\"big\",\"content\":\"" + "x".repeat(5000) + "\"}";
        String next = "{\"id\":\"next\",\"content\":\"fine\"}";

        List<RawRecord> records =
                read((longLine + "\n" + next + "\n").getBytes(StandardCharsets.UTF_8), max);

        assertThat(records).hasSize(2);
        RawRecord big = records.get(0);
        assertThat(big.truncated).isTrue();
        assertThat(big.size).isEqualTo(longLine.length());
        assertThat(big.payload.length).isLessThanOrEqualTo(max + 1);
        assertThat(longLine.getBytes(StandardCharsets.UTF_8)).startsWith(big.payload);
        assertThat(big.source).isEqualTo("feed.jsonl:1");
        RawRecord after = records.get(1);
        assertThat(text(after)).isEqualTo(next);
        assertThat(after.truncated).isFalse();
        assertThat(after.source).isEqualTo("feed.jsonl:2");
    }

    @Test
    void aTruncatedLastLineWithoutNewline() throws IOException {
        int max = 10;
        List<RawRecord> records =
                read("ok\n0123456789ABCDEF".getBytes(StandardCharsets.UTF_8), max);
        assertThat(records).hasSize(2);
        assertThat(records.get(1).truncated).isTrue();
        assertThat(records.get(1).size).isEqualTo(16);
        assertThat(records.get(1).source).isEqualTo("feed.jsonl:2");
    }

    /**
     * Lines of every length around the reader's 64 KB buffer, so that some lie in one buffer and
     * others cross one or two refills, with CRLF ends, blank lines and lines over the limit: each
     * record is its line, as a plain split of the bytes gives it.
     */
    @Test
    void linesWithinAndAcrossTheReadBufferAreReadExactly() throws IOException {
        java.util.Random random = new java.util.Random(3);
        int max = 100_000;
        java.io.ByteArrayOutputStream file = new java.io.ByteArrayOutputStream();
        List<String> expected = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        for (int line = 0; line < 120; line++) {
            int length =
                    switch (random.nextInt(4)) {
                        case 0 -> random.nextInt(40);
                        case 1 -> random.nextInt(4_000);
                        case 2 -> 60_000 + random.nextInt(10_000);
                        default -> 90_000 + random.nextInt(80_000);
                    };
            byte[] bytes = new byte[length];
            for (int i = 0; i < length; i++) {
                bytes[i] = (byte) ('a' + random.nextInt(26));
            }
            boolean crlf = random.nextBoolean();
            file.write(bytes);
            file.write(crlf ? new byte[] {'\r', '\n'} : new byte[] {'\n'});
            if (length > 0) {
                expected.add(new String(bytes, 0, Math.min(length, max), StandardCharsets.UTF_8));
                sizes.add((long) length);
            }
        }
        List<RawRecord> records = read(file.toByteArray(), max);

        assertThat(records).hasSize(expected.size());
        for (int i = 0; i < records.size(); i++) {
            RawRecord r = records.get(i);
            assertThat(r.size).as("size of record %d", i).isEqualTo(sizes.get(i));
            assertThat(r.truncated).isEqualTo(sizes.get(i) > max);
            String kept = text(r);
            assertThat(kept.length()).isLessThanOrEqualTo(max + 1);
            assertThat(expected.get(i))
                    .as("record %d", i)
                    .startsWith(kept.substring(0, Math.min(kept.length(), max)));
            if (!r.truncated) {
                assertThat(kept).isEqualTo(expected.get(i));
            }
        }
    }

    @Test
    void aLineOfExactlyTheLimitIsKeptWhole() throws IOException {
        int max = 16;
        List<RawRecord> records =
                read("0123456789ABCDEF\n0123456789ABCDEFG\n".getBytes(StandardCharsets.UTF_8), max);

        assertThat(records).hasSize(2);
        assertThat(text(records.get(0))).isEqualTo("0123456789ABCDEF");
        assertThat(records.get(0).truncated).isFalse();
        assertThat(records.get(0).size).isEqualTo(16);
        // One byte more than the limit: too large, however it is flagged.
        assertThat(records.get(1).size).isEqualTo(17);
        assertThat(records.get(1).payload.length).isLessThanOrEqualTo(max + 1);
    }

    /**
     * The CR of a CRLF line end is not part of the record, so it must not count toward the limit.
     */
    @Test
    void aCrlfLineOfExactlyTheLimitIsKeptWholeWithoutItsCr() throws IOException {
        int max = 16;
        List<RawRecord> records =
                read("0123456789ABCDEF\r\nnext\r\n".getBytes(StandardCharsets.UTF_8), max);

        assertThat(records).hasSize(2);
        assertThat(text(records.get(0))).isEqualTo("0123456789ABCDEF");
        assertThat(records.get(0).size).isEqualTo(16);
        assertThat(records.get(0).truncated).isFalse();
        assertThat(text(records.get(1))).isEqualTo("next");
    }

    /** A file of random lines: records, blank lines, CRLF ends, lines over the limit. */
    private static byte[] randomLines(Random random, int lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < lines; i++) {
            switch (random.nextInt(8)) {
                case 0 -> out.writeBytes("   ".getBytes(StandardCharsets.UTF_8));
                case 1 -> out.writeBytes(("{\"id\":" + i + "}\r").getBytes(StandardCharsets.UTF_8));
                case 2 ->
                        out.writeBytes(
                                ("{\"big\":\"" + "y".repeat(random.nextInt(3000)) + "\"}")
                                        .getBytes(StandardCharsets.UTF_8));
                default ->
                        out.writeBytes(
                                ("{\"id\":"
                                                + i
                                                + ",\"t\":\"Gr\u00fc\u00dfe "
                                                + "w ".repeat(random.nextInt(60))
                                                + "\"}")
                                        .getBytes(StandardCharsets.UTF_8));
            }
            if (i < lines - 1 || random.nextBoolean()) {
                out.write('\n');
            }
        }
        return out.toByteArray();
    }

    private static List<String> describe(List<RawRecord> records) {
        return records.stream()
                .map(
                        r ->
                                r.source
                                        + " "
                                        + r.position
                                        + " "
                                        + r.size
                                        + " "
                                        + r.truncated
                                        + " "
                                        + text(r))
                .toList();
    }

    /** Reads the split [start, end) of {@code file} as the FileSource would. */
    private static List<RawRecord> readSplit(
            JsonLinesFormat format, Path file, long start, long end) throws IOException {
        var stream =
                FileSystem.getLocalFileSystem()
                        .open(new org.apache.flink.core.fs.Path(file.toUri()));
        stream.seek(start);
        List<RawRecord> out = new ArrayList<>();
        StreamFormat.Reader<RawRecord> reader =
                format.createReader(new Configuration(), stream, Files.size(file), end);
        try {
            RawRecord r;
            while ((r = reader.read()) != null) {
                out.add(r);
            }
        } finally {
            reader.close();
        }
        return out;
    }

    @Test
    void splitsReadEveryLineOnceWithItsLineNumberPlannedOrNot() throws IOException {
        Random random = new Random(7);
        for (int round = 0; round < 20; round++) {
            byte[] content = randomLines(random, 1 + random.nextInt(200));
            Path file = Files.createTempFile(dir, "split", ".jsonl");
            Files.write(file, content);
            int max = 1000;
            List<String> whole = describe(read(content, max));

            // Planned splits: each starts at a line start whose number the plan knows.
            long target = 1 + random.nextInt(Math.max(1, content.length / 3));
            LineSplits plan = LineSplits.plan(file, target);
            JsonLinesFormat planned = new JsonLinesFormat(NAME, max, plan, 0);
            List<RawRecord> fromSplits = new ArrayList<>();
            for (int i = 0; i < plan.count(); i++) {
                fromSplits.addAll(readSplit(planned, file, plan.start(i), plan.end(i)));
            }
            assertThat(describe(fromSplits)).as("planned, target %d", target).isEqualTo(whole);

            // Arbitrary cut points, as another enumerator might choose: the reader aligns itself
            // and counts the lines before its split.
            JsonLinesFormat unplanned = new JsonLinesFormat(NAME, max);
            long[] cuts =
                    random.longs(random.nextInt(6), 0, content.length + 1L).sorted().toArray();
            List<RawRecord> fromCuts = new ArrayList<>();
            long start = 0;
            for (long cut : cuts) {
                fromCuts.addAll(readSplit(unplanned, file, start, cut));
                start = cut;
            }
            fromCuts.addAll(readSplit(unplanned, file, start, content.length));
            assertThat(describe(fromCuts))
                    .as("cuts %s", java.util.Arrays.toString(cuts))
                    .isEqualTo(whole);
        }
    }

    @Test
    void positionsCountTheLinesOfEarlierInputsAndBlankLines() throws IOException {
        Path file = Files.createTempFile(dir, "second", ".jsonl");
        Files.writeString(file, "{\"a\":1}\n\n  \n{\"b\":2}\n");
        var reader =
                new JsonLinesFormat(NAME, 100, null, 1000)
                        .createReader(
                                new Configuration(),
                                FileSystem.getLocalFileSystem()
                                        .open(new org.apache.flink.core.fs.Path(file.toUri())));
        RawRecord a = reader.read();
        RawRecord b = reader.read();
        assertThat(reader.read()).isNull();
        reader.close();
        assertThat(a.source).isEqualTo(NAME + ":1");
        assertThat(a.position).isEqualTo(1001);
        assertThat(b.source).isEqualTo(NAME + ":4");
        assertThat(b.position).isEqualTo(1004);
    }

    @Test
    void countLinesCountsALastLineWithoutLineFeed() throws IOException {
        String[][] cases = {{"", "0"}, {"\n", "1"}, {"a", "1"}, {"a\nb", "2"}, {"a\nb\n", "2"}};
        for (String[] c : cases) {
            Path file = Files.createTempFile(dir, "count", ".jsonl");
            Files.writeString(file, c[0]);
            assertThat(JsonLinesFormat.countLines(new org.apache.flink.core.fs.Path(file.toUri())))
                    .as("%s", c[0])
                    .isEqualTo(Long.parseLong(c[1]));
        }
    }

    @Test
    void theFormatProducesRawRecords() {
        assertThat(new JsonLinesFormat(NAME, 10).getProducedType().getTypeClass())
                .isEqualTo(RawRecord.class);
    }
}
