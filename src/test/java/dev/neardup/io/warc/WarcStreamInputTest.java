package dev.neardup.io.warc;

import static dev.neardup.io.warc.WarcBrokenInputTest.record;
import static dev.neardup.io.warc.WarcFiles.T1;
import static dev.neardup.io.warc.WarcFiles.http;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WarcRecordReader#fromStream}: a forward-only input (standard input) gives the outcomes a
 * file gives, broken input included.
 */
class WarcStreamInputTest {

    @TempDir Path dir;

    private static byte[] page(String name) {
        return http(200, "<p>page " + name + "</p>", "Content-Type: text/html");
    }

    /** A stream that hands out at most 7 bytes per read, as a pipe may. */
    private static InputStream trickle(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 7));
            }
        };
    }

    private static List<WarcOutcome> all(WarcRecordReader reader) throws IOException {
        List<WarcOutcome> out = new ArrayList<>();
        try (reader) {
            reader.forEachRemaining(out::add);
        }
        return out;
    }

    private void assertSameAsFile(byte[] bytes, String name) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        List<WarcOutcome> fromFile = WarcFiles.read(file);
        List<WarcOutcome> fromStream =
                all(WarcRecordReader.fromStream(trickle(bytes), name, WarcReadSettings.defaults()));
        assertThat(fromStream).as(name).isEqualTo(fromFile);
        assertThat(fromFile).as(name).hasSizeGreaterThan(2);
    }

    @Test
    void brokenPlainInputReadsAsTheFileDoes() throws IOException {
        WarcFiles w = new WarcFiles(false);
        w.raw(record("http://example.com/a", page("a")));
        byte[] b = page("b");
        w.raw(record("http://example.com/b", b, b.length + 60));
        w.raw(record("http://example.com/c", page("c")));
        w.raw("garbage between records\r\n");
        w.raw(record("http://example.com/d", page("d")));
        byte[] bytes = w.bytes();

        assertSameAsFile(bytes, "stream.warc");
        assertSameAsFile(Arrays.copyOf(bytes, bytes.length - 30), "cut.warc");
    }

    @Test
    void brokenGzipInputReadsAsTheFileDoes() throws IOException {
        WarcFiles w = new WarcFiles(true);
        w.response("http://example.com/a", T1, page("a"));
        long b = w.response("http://example.com/b", T1, page("b"));
        long c = w.response("http://example.com/c", T1, page("c"));
        w.raw("not a record\r\n\r\n");
        w.response("http://example.com/d", T1, page("d"));
        byte[] bytes = w.bytes();
        Arrays.fill(bytes, (int) b + 10, (int) c - 8, (byte) 0xff);

        assertSameAsFile(bytes, "stream.warc.gz");
    }

    @Test
    void arcInputReadsAsTheFileDoes() throws IOException {
        WarcFiles w = new WarcFiles(false);
        String header =
                "1 0 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n";
        w.raw(
                WarcFiles.arcRecord(
                        "filedesc://x.arc",
                        "0.0.0.0",
                        "20240301100000",
                        "text/plain",
                        header.getBytes(UTF_8)));
        w.raw(
                WarcFiles.arcRecord(
                        "http://example.com/a",
                        "1.2.3.4",
                        "20240301100000",
                        "text/html",
                        page("a")));
        w.raw("junk line\n");
        w.raw(
                WarcFiles.arcRecord(
                        "http://example.com/b",
                        "1.2.3.4",
                        "20240301100000",
                        "text/html",
                        page("b")));

        assertSameAsFile(w.bytes(), "stream.arc");
    }

    @Test
    void whatIsNoLongerKeptIsNotSearchedButReadingGoesOn() throws IOException {
        int history = 1280 * 1024;
        WarcFiles w = new WarcFiles(false);
        w.raw(record("http://example.com/a", page("a")));
        byte[] b = page("b");
        // b's Content-Length announces 1.5 MiB more than it has: reading its block takes the
        // records after it, further than the history reaches back.
        long bad = w.raw(record("http://example.com/b", b, b.length + 1536 * 1024));
        List<Long> after = new ArrayList<>();
        long last = bad;
        for (int i = 0; last < bad + 3 * 1024 * 1024; i++) {
            last = w.raw(record("http://example.com/e" + i, page("e" + i)));
            after.add(last);
        }
        byte[] bytes = w.bytes();

        List<WarcOutcome> out =
                all(
                        new WarcRecordReader(
                                new RewindableChannel(Channels.newChannel(trickle(bytes)), history),
                                "small-history.warc",
                                WarcReadSettings.defaults()));

        assertThat(out.get(0)).isInstanceOf(WarcDocument.class);
        WarcError error = (WarcError) out.get(1);
        assertThat(error.offset()).isEqualTo(bad);
        assertThat(error.reason()).isEqualTo(WarcError.Reason.BAD_LENGTH);
        long resumed = out.get(2).offset();
        assertThat(error.message())
                .endsWith("reading goes on at the next record, at offset " + resumed);
        // The records in b's announced block that are no longer kept are lost; all after are read.
        List<Long> expected = after.stream().filter(o -> o >= resumed).toList();
        assertThat(expected.size()).isLessThan(after.size()).isGreaterThan(after.size() / 3);
        assertThat(out.subList(2, out.size()).stream().map(WarcOutcome::offset))
                .containsExactlyElementsOf(expected);
        assertThat(out.subList(2, out.size())).allMatch(o -> o instanceof WarcDocument);
    }
}
