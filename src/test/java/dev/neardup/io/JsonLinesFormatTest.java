package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    @Test
    void theFormatProducesRawRecords() {
        assertThat(new JsonLinesFormat(NAME, 10).getProducedType().getTypeClass())
                .isEqualTo(RawRecord.class);
    }
}
