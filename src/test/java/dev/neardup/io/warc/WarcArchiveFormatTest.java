package dev.neardup.io.warc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ArchiveFormat}: what a file is, by its name and by its first bytes. */
class WarcArchiveFormatTest {

    @TempDir Path dir;

    @Test
    void byFileName() {
        assertThat(ArchiveFormat.fromFileName("a.warc")).contains(ArchiveFormat.WARC);
        assertThat(ArchiveFormat.fromFileName("CC-MAIN-1.warc.gz"))
                .contains(ArchiveFormat.WARC_GZIP);
        assertThat(ArchiveFormat.fromFileName("CC-MAIN-1.warc.wet.gz"))
                .contains(ArchiveFormat.WARC_GZIP);
        assertThat(ArchiveFormat.fromFileName("x.WET")).contains(ArchiveFormat.WARC);
        assertThat(ArchiveFormat.fromFileName("IA-001.arc")).contains(ArchiveFormat.ARC);
        assertThat(ArchiveFormat.fromFileName("IA-001.arc.gz")).contains(ArchiveFormat.ARC_GZIP);
        assertThat(ArchiveFormat.fromFileName("feed.jsonl")).isEmpty();
        assertThat(ArchiveFormat.fromFileName("x.wat.gz")).isEmpty();
        assertThat(ArchiveFormat.fromFileName("x.gz")).isEmpty();
        assertThat(ArchiveFormat.ARC_GZIP.isArc()).isTrue();
        assertThat(ArchiveFormat.ARC_GZIP.isGzip()).isTrue();
        assertThat(ArchiveFormat.WARC.isGzip()).isFalse();
    }

    @Test
    void byFirstBytes() {
        byte[] warc = "WARC/1.1\r\nWARC-Type: warcinfo\r\n".getBytes(UTF_8);
        byte[] arc = "filedesc://x.arc 0.0.0.0 20240101000000 text/plain 10\n".getBytes(UTF_8);

        assertThat(ArchiveFormat.sniff(warc)).contains(ArchiveFormat.WARC);
        assertThat(ArchiveFormat.sniff(arc)).contains(ArchiveFormat.ARC);
        assertThat(ArchiveFormat.sniff(WarcFiles.gzip(warc))).contains(ArchiveFormat.WARC_GZIP);
        assertThat(ArchiveFormat.sniff(WarcFiles.gzip(arc))).contains(ArchiveFormat.ARC_GZIP);
        assertThat(ArchiveFormat.sniff(java.util.Arrays.copyOf(WarcFiles.gzip(warc), 12)))
                .isEmpty();
        assertThat(ArchiveFormat.sniff("{\"id\":1}".getBytes(UTF_8))).isEmpty();
        assertThat(ArchiveFormat.sniff(WarcFiles.gzip("{\"id\":1}".getBytes(UTF_8)))).isEmpty();
        assertThat(ArchiveFormat.sniff(new byte[0])).isEmpty();
    }

    /** A message value: a record of its own, an ARC record without its file header too. */
    @Test
    void aRecordByItsFirstBytes() {
        byte[] warc = "WARC/1.1\r\nWARC-Type: warcinfo\r\n".getBytes(UTF_8);
        byte[] arc =
                WarcFiles.arcRecord(
                        "http://example.com/a",
                        "1.2.3.4",
                        "20240101000000",
                        "text/plain",
                        new byte[3]);

        assertThat(ArchiveFormat.sniffRecord(warc)).contains(ArchiveFormat.WARC);
        assertThat(ArchiveFormat.sniffRecord(WarcFiles.gzip(warc)))
                .contains(ArchiveFormat.WARC_GZIP);
        assertThat(ArchiveFormat.sniff(arc)).as("no file header").isEmpty();
        assertThat(ArchiveFormat.sniffRecord(arc)).contains(ArchiveFormat.ARC);
        assertThat(ArchiveFormat.sniffRecord(WarcFiles.gzip(arc))).contains(ArchiveFormat.ARC_GZIP);
        for (String other :
                new String[] {"{\"id\":1}", " {}", "true", "null", "http: no", "Warc/1.1", ""}) {
            assertThat(ArchiveFormat.sniffRecord(other.getBytes(UTF_8))).as(other).isEmpty();
            assertThat(ArchiveFormat.sniffRecord(WarcFiles.gzip(other.getBytes(UTF_8))))
                    .as(other)
                    .isEmpty();
        }
    }

    @Test
    void aFileByItsBytesThenByItsName() throws IOException {
        Path misnamed = dir.resolve("crawl.bin");
        Files.write(misnamed, WarcFiles.gzip("WARC/1.0\r\n".getBytes(UTF_8)));
        Path empty = dir.resolve("empty.arc.gz");
        Files.write(empty, new byte[0]);
        Path other = dir.resolve("notes.txt");
        Files.write(other, "hello".getBytes(UTF_8));

        assertThat(ArchiveFormat.detect(misnamed)).isEqualTo(Optional.of(ArchiveFormat.WARC_GZIP));
        assertThat(ArchiveFormat.detect(empty)).isEqualTo(Optional.of(ArchiveFormat.ARC_GZIP));
        assertThat(ArchiveFormat.detect(other)).isEmpty();
    }
}
