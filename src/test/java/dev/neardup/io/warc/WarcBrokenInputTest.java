package dev.neardup.io.warc;

import static dev.neardup.io.warc.WarcFiles.T1;
import static dev.neardup.io.warc.WarcFiles.http;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link WarcRecordReader} on broken files: every good record still yields its outcome, every
 * broken one an error at its offset, and reading goes on after it.
 */
class WarcBrokenInputTest {

    @TempDir Path dir;

    private static byte[] page(String name) {
        return http(200, "<p>page " + name + "</p>", "Content-Type: text/html; charset=utf-8");
    }

    /** A WARC 1.1 response record written by hand, with the given Content-Length. */
    static byte[] record(String url, byte[] block, long contentLength) {
        String head =
                "WARC/1.1\r\n"
                        + "WARC-Type: response\r\n"
                        + "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-"
                        + String.format("%012d", Math.abs(url.hashCode()))
                        + ">\r\n"
                        + "WARC-Date: 2024-03-01T10:00:00Z\r\n"
                        + "WARC-Target-URI: "
                        + url
                        + "\r\n"
                        + "Content-Type: application/http;msgtype=response\r\n"
                        + "Content-Length: "
                        + contentLength
                        + "\r\n\r\n";
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(head.getBytes(UTF_8));
        b.writeBytes(block);
        b.writeBytes("\r\n\r\n".getBytes(UTF_8));
        return b.toByteArray();
    }

    static byte[] record(String url, byte[] block) {
        return record(url, block, block.length);
    }

    private static void assertDocument(WarcOutcome o, String url, long offset) {
        assertThat(o).as("outcome at %d", offset).isInstanceOf(WarcDocument.class);
        WarcDocument d = (WarcDocument) o;
        assertThat(d.url()).isEqualTo(url);
        assertThat(d.offset()).isEqualTo(offset);
        assertThat(d.content())
                .isEqualTo("<p>page " + url.substring(url.lastIndexOf('/') + 1) + "</p>");
    }

    private static WarcError assertError(WarcOutcome o, WarcError.Reason reason, long offset) {
        assertThat(o).as("outcome at %d", offset).isInstanceOf(WarcError.class);
        WarcError e = (WarcError) o;
        assertThat(e.reason()).as(e.message()).isEqualTo(reason);
        assertThat(e.offset()).as(e.message()).isEqualTo(offset);
        return e;
    }

    private List<WarcOutcome> read(byte[] bytes, String name) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, bytes);
        return WarcFiles.read(file);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFileCutInsideItsLastRecordKeepsTheRecordsBefore(boolean gzip) throws IOException {
        WarcFiles w = new WarcFiles(gzip);
        long a = w.response("http://example.com/a", T1, page("a"));
        long b = w.response("http://example.com/b", T1, page("b"));
        long c = w.response("http://example.com/c", T1, page("c"));
        byte[] bytes = w.bytes();
        byte[] cut = Arrays.copyOf(bytes, (int) (c + (bytes.length - c) / 2));

        List<WarcOutcome> out = read(cut, gzip ? "cut.warc.gz" : "cut.warc");

        assertThat(out).hasSize(3);
        assertDocument(out.get(0), "http://example.com/a", a);
        assertDocument(out.get(1), "http://example.com/b", b);
        WarcError e = assertError(out.get(2), WarcError.Reason.TRUNCATED, c);
        assertThat(e.message()).endsWith("no record follows in the file");
        assertThat(e.source()).isEqualTo((gzip ? "cut.warc.gz@" : "cut.warc@") + c);
    }

    @Test
    void aFileCutInsideARecordHeader() throws IOException {
        byte[] a = record("http://example.com/a", page("a"));
        byte[] b = record("http://example.com/b", page("b"));
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.writeBytes(a);
        file.write(b, 0, 40);

        List<WarcOutcome> out = read(file.toByteArray(), "h.warc");

        assertThat(out).hasSize(2);
        assertDocument(out.get(0), "http://example.com/a", 0);
        WarcError e = assertError(out.get(1), WarcError.Reason.TRUNCATED, a.length);
        assertThat(e.message()).startsWith("the file ends inside a record header");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aBlockShorterOrLongerThanItsContentLengthIsOneErrorAndTheNextRecordIsRead(boolean gzip)
            throws IOException {
        WarcFiles w = new WarcFiles(gzip);
        long a = w.raw(record("http://example.com/a", page("a")));
        byte[] shortBlock = page("b");
        long b = w.raw(record("http://example.com/b", shortBlock, shortBlock.length + 60));
        long c = w.raw(record("http://example.com/c", page("c")));
        byte[] longBlock = page("d");
        long d = w.raw(record("http://example.com/d", longBlock, longBlock.length - 7));
        long e = w.raw(record("http://example.com/e", page("e")));

        List<WarcOutcome> out = read(w.bytes(), gzip ? "len.warc.gz" : "len.warc");

        assertThat(out).hasSize(5);
        assertDocument(out.get(0), "http://example.com/a", a);
        WarcError eb = assertError(out.get(1), WarcError.Reason.BAD_LENGTH, b);
        assertThat(eb.url()).isEqualTo("http://example.com/b");
        assertThat(eb.message())
                .isEqualTo(
                        "the block does not end after the "
                                + (shortBlock.length + 60)
                                + " bytes its header announces: no record end follows;"
                                + " reading goes on at the next record, at offset "
                                + c);
        assertDocument(out.get(2), "http://example.com/c", c);
        assertError(out.get(3), WarcError.Reason.BAD_LENGTH, d);
        assertDocument(out.get(4), "http://example.com/e", e);
    }

    @Test
    void aContentLengthBeyondTheEndOfTheFileSkipsToTheRecordInside() throws IOException {
        byte[] a = record("http://example.com/a", page("a"), 100_000);
        byte[] b = record("http://example.com/b", page("b"));
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.writeBytes(a);
        file.writeBytes(b);

        List<WarcOutcome> out = read(file.toByteArray(), "beyond.warc");

        assertThat(out).hasSize(2);
        WarcError e = assertError(out.get(0), WarcError.Reason.TRUNCATED, 0);
        assertThat(e.message())
                .isEqualTo(
                        "the file ends inside the record's block of 100000 bytes;"
                                + " reading goes on at the next record, at offset "
                                + a.length);
        assertDocument(out.get(1), "http://example.com/b", a.length);
    }

    @Test
    void garbageBetweenRecordsIsOneErrorAtItsOffset() throws IOException {
        WarcFiles w = new WarcFiles(false);
        long a = w.raw(record("http://example.com/a", page("a")));
        long garbage = w.raw("this is not a WARC record\r\nnor is this line\r\n\r\n");
        long b = w.raw(record("http://example.com/b", page("b")));
        long garbage2 = w.raw("\u0000\u0001binary junk WARC/ but no version");
        long c = w.raw(record("http://example.com/c", page("c")));

        List<WarcOutcome> out = read(w.bytes(), "garbage.warc");

        assertThat(out).hasSize(5);
        assertDocument(out.get(0), "http://example.com/a", a);
        WarcError e = assertError(out.get(1), WarcError.Reason.MALFORMED_HEADER, garbage);
        assertThat(e.message())
                .startsWith("no WARC or ARC record header at offset " + garbage + ": ")
                .endsWith("reading goes on at the next record, at offset " + b);
        assertDocument(out.get(2), "http://example.com/b", b);
        assertError(out.get(3), WarcError.Reason.MALFORMED_HEADER, garbage2);
        assertDocument(out.get(4), "http://example.com/c", c);
    }

    @Test
    void aCorruptGzipMemberInTheMiddleIsOneError() throws IOException {
        WarcFiles w = new WarcFiles(true);
        long a = w.response("http://example.com/a", T1, page("a"));
        long b = w.response("http://example.com/b", T1, page("b"));
        long c = w.response("http://example.com/c", T1, page("c"));
        long d = w.response("http://example.com/d", T1, page("d"));
        byte[] bytes = w.bytes();
        // Deflate data of member b overwritten: a block of the reserved type 3.
        Arrays.fill(bytes, (int) b + 10, (int) c - 8, (byte) 0xff);
        // Member d: not a gzip member at all any more.
        bytes[(int) d] = 'X';

        List<WarcOutcome> out = read(bytes, "corrupt.warc.gz");

        assertThat(out).hasSize(4);
        assertDocument(out.get(0), "http://example.com/a", a);
        WarcError e = assertError(out.get(1), WarcError.Reason.CORRUPT_GZIP, b);
        assertThat(e.message())
                .startsWith("the gzip member does not inflate: ")
                .endsWith("reading goes on at the next record, at offset " + c);
        assertDocument(out.get(2), "http://example.com/c", c);
        assertError(out.get(3), WarcError.Reason.CORRUPT_GZIP, d);
    }

    @Test
    void aGzipMemberOfGarbageAndBytesBetweenMembers() throws IOException {
        WarcFiles w = new WarcFiles(true);
        long a = w.response("http://example.com/a", T1, page("a"));
        long garbage = w.raw("not a record at all\r\n\r\n");
        long b = w.response("http://example.com/b", T1, page("b"));
        long loose = w.append("loose bytes between members".getBytes(UTF_8));
        long c = w.response("http://example.com/c", T1, page("c"));

        List<WarcOutcome> out = read(w.bytes(), "members.warc.gz");

        assertThat(out).hasSize(5);
        assertDocument(out.get(0), "http://example.com/a", a);
        assertError(out.get(1), WarcError.Reason.MALFORMED_HEADER, garbage);
        assertDocument(out.get(2), "http://example.com/b", b);
        assertError(out.get(3), WarcError.Reason.CORRUPT_GZIP, loose);
        assertDocument(out.get(4), "http://example.com/c", c);
    }

    @Test
    void payloadErrorsAreErrorsOfTheirRecordAlone() throws IOException {
        WarcFiles w = new WarcFiles(false);
        long a = w.raw(record("http://example.com/a", page("a")));
        byte[] body = "<p>a body of some forty bytes or so, really</p>".getBytes(UTF_8);
        byte[] misChunked = new byte[body.length + 30];
        ByteArrayOutputStream chunks = new ByteArrayOutputStream();
        chunks.writeBytes("100\r\n".getBytes(UTF_8));
        chunks.writeBytes(body);
        long chunked =
                w.raw(
                        record(
                                "http://example.com/chunked",
                                http(
                                        200,
                                        chunks.toByteArray(),
                                        "Content-Type: text/html",
                                        "Transfer-Encoding: chunked")));
        byte[] badGzip = WarcFiles.gzip(body);
        Arrays.fill(badGzip, 10, badGzip.length - 8, (byte) 0xff);
        long gzip =
                w.raw(
                        record(
                                "http://example.com/gzip",
                                http(
                                        200,
                                        badGzip,
                                        "Content-Type: text/html",
                                        "Content-Encoding: gzip")));
        long notHttp =
                w.raw(
                        record(
                                "http://example.com/nothttp",
                                "no status line here\r\n\r\nbody".getBytes(UTF_8)));
        long noDate =
                w.raw(
                        new String(record("http://example.com/nodate", page("nodate")), UTF_8)
                                .replace("WARC-Date: 2024-03-01T10:00:00Z\r\n", "")
                                .replace(
                                        "Content-Length",
                                        "X-Pad: 0000000000000000000000000000000\r\nContent-Length")
                                .getBytes(UTF_8));
        long badDate =
                w.raw(
                        new String(record("http://example.com/baddate", page("baddate")), UTF_8)
                                .replace("2024-03-01T10:00:00Z", "yesterday")
                                .getBytes(UTF_8));
        long b = w.raw(record("http://example.com/b", page("b")));
        assertThat(misChunked).isNotEmpty();

        List<WarcOutcome> out = read(w.bytes(), "payloads.warc");

        assertThat(out).hasSize(7);
        assertDocument(out.get(0), "http://example.com/a", a);
        WarcError e1 = assertError(out.get(1), WarcError.Reason.BAD_CHUNKING, chunked);
        assertThat(e1.url()).isEqualTo("http://example.com/chunked");
        assertThat(e1.message()).startsWith("broken chunked transfer coding: ");
        WarcError e2 = assertError(out.get(2), WarcError.Reason.BAD_CONTENT_ENCODING, gzip);
        assertThat(e2.message()).startsWith("the gzip content coding does not decode: ");
        assertError(out.get(3), WarcError.Reason.MALFORMED_HTTP, notHttp);
        assertThat(assertError(out.get(4), WarcError.Reason.BAD_FIELD, noDate).message())
                .isEqualTo("no WARC-Date");
        assertThat(assertError(out.get(5), WarcError.Reason.BAD_FIELD, badDate).message())
                .isEqualTo("WARC-Date is not a date: \"yesterday\"");
        assertDocument(out.get(6), "http://example.com/b", b);
    }

    @Test
    void payloadsOverTheLimitAreTooLargeUnlessSkippedAnyway() throws IOException {
        byte[] big = ("<p>" + "x".repeat(5000) + "</p>").getBytes(UTF_8);
        byte[] bomb = WarcFiles.gzip(new byte[200_000]);
        WarcFiles w = new WarcFiles(true);
        long large =
                w.response(
                        "http://example.com/large", T1, http(200, big, "Content-Type: text/html"));
        long image =
                w.response(
                        "http://example.com/i.jpg", T1, http(200, big, "Content-Type: image/jpeg"));
        long gone =
                w.response(
                        "http://example.com/gone", T1, http(404, big, "Content-Type: text/html"));
        long decodes =
                w.response(
                        "http://example.com/bomb",
                        T1,
                        http(200, bomb, "Content-Type: text/html", "Content-Encoding: gzip"));
        long chunkedBig =
                w.response(
                        "http://example.com/chunky",
                        T1,
                        http(
                                200,
                                WarcFiles.chunked(Arrays.copyOf(big, 2000), 1),
                                "Content-Type: text/html",
                                "Transfer-Encoding: chunked"));
        long small = w.response("http://example.com/small", T1, page("small"));
        WarcReadSettings settings = new WarcReadSettings(WarcReadSettings.IdField.TARGET_URI, 1000);
        // The block limit is the payload limit plus room for headers: make "large" exceed it.
        assertThat((long) big.length).isLessThan(settings.maxBlockBytes());

        Path file = w.write(dir, "large.warc.gz");
        List<WarcOutcome> out = WarcFiles.read(file, settings);

        assertThat(out).hasSize(6);
        assertThat(assertError(out.get(0), WarcError.Reason.TOO_LARGE, large).message())
                .isEqualTo("the HTTP body has more than the limit of 1000 bytes");
        assertThat(((WarcSkip) out.get(1)).reason()).isEqualTo(WarcSkip.Reason.NOT_TEXT);
        assertThat(out.get(1).offset()).isEqualTo(image);
        assertThat(((WarcSkip) out.get(2)).reason()).isEqualTo(WarcSkip.Reason.HTTP_STATUS);
        assertThat(out.get(2).offset()).isEqualTo(gone);
        assertThat(assertError(out.get(3), WarcError.Reason.TOO_LARGE, decodes).message())
                .isEqualTo("the decoded payload has more than the limit of 1000 bytes");
        assertError(out.get(4), WarcError.Reason.TOO_LARGE, chunkedBig);
        assertDocument(out.get(5), "http://example.com/small", small);
    }

    @Test
    void blocksBeyondTheBlockLimitAreNotRead() throws IOException {
        byte[] huge = new byte[(int) (2 * WarcReadSettings.HEADER_ALLOWANCE)];
        Arrays.fill(huge, (byte) 'x');
        WarcFiles w = new WarcFiles(false);
        long text =
                w.response(
                        "http://example.com/huge", T1, http(200, huge, "Content-Type: text/plain"));
        long video =
                w.response(
                        "http://example.com/v.mp4", T1, http(200, huge, "Content-Type: video/mp4"));
        long redirect =
                w.response("http://example.com/r", T1, http(302, huge, "Content-Type: text/html"));
        long small = w.response("http://example.com/small", T1, page("small"));

        List<WarcOutcome> out =
                WarcFiles.read(
                        w.write(dir, "huge.warc"),
                        new WarcReadSettings(WarcReadSettings.IdField.TARGET_URI, 100));

        assertThat(out).hasSize(4);
        assertThat(assertError(out.get(0), WarcError.Reason.TOO_LARGE, text).message())
                .contains("is larger than the limit of 100 bytes");
        assertThat(((WarcSkip) out.get(1)).reason()).isEqualTo(WarcSkip.Reason.NOT_TEXT);
        assertThat(out.get(1).offset()).isEqualTo(video);
        assertThat(((WarcSkip) out.get(2)).detail()).isEqualTo("HTTP 302");
        assertThat(out.get(2).offset()).isEqualTo(redirect);
        assertDocument(out.get(3), "http://example.com/small", small);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void anArcRecordWithAWrongLengthIsOneError(boolean gzip) throws IOException {
        WarcFiles w = new WarcFiles(gzip);
        String header =
                "1 0 InternetArchive\nURL IP-address Archive-date Content-type Archive-length\n";
        long desc =
                w.raw(
                        WarcFiles.arcRecord(
                                "filedesc://x.arc",
                                "0.0.0.0",
                                "20240301100000",
                                "text/plain",
                                header.getBytes(UTF_8)));
        byte[] a = page("a");
        long ra =
                w.raw(
                        WarcFiles.arcRecord(
                                "http://example.com/a",
                                "1.2.3.4",
                                "20240301100000",
                                "text/html",
                                a));
        byte[] b =
                WarcFiles.arcRecord(
                        "http://example.com/b",
                        "1.2.3.4",
                        "20240301100000",
                        "text/html",
                        page("b"));
        byte[] pb = page("b");
        String lying =
                new String(b, UTF_8)
                        .replaceFirst(" " + pb.length + "\n", " " + (pb.length + 30) + "\n");
        long rb = w.raw(lying.getBytes(UTF_8));
        long rc =
                w.raw(
                        WarcFiles.arcRecord(
                                "http://example.com/c",
                                "1.2.3.4",
                                "20240301100000",
                                "text/html",
                                page("c")));
        String f = gzip ? "x.arc.gz" : "x.arc";

        List<WarcOutcome> out = read(w.bytes(), f);

        assertThat(out).hasSize(4);
        assertThat(((WarcSkip) out.get(0)).reason()).isEqualTo(WarcSkip.Reason.WARCINFO_RECORD);
        assertThat(out.get(0).offset()).isEqualTo(desc);
        assertDocument(out.get(1), "http://example.com/a", ra);
        assertError(out.get(2), WarcError.Reason.BAD_LENGTH, rb);
        assertDocument(out.get(3), "http://example.com/c", rc);
    }

    @Test
    void anIoErrorOfTheFileIsThrown() throws IOException {
        WarcFiles w = new WarcFiles(false);
        String big = "<p>" + "x".repeat(20_000) + "</p>";
        w.response("http://example.com/a", T1, http(200, big, "Content-Type: text/html"));
        w.response("http://example.com/b", T1, http(200, big, "Content-Type: text/html"));
        w.response("http://example.com/c", T1, http(200, big, "Content-Type: text/html"));
        Path file = w.write(dir, "io.warc");
        java.util.concurrent.atomic.AtomicBoolean broken =
                new java.util.concurrent.atomic.AtomicBoolean();
        java.nio.channels.FileChannel real = java.nio.channels.FileChannel.open(file);
        java.nio.channels.SeekableByteChannel failing =
                new java.nio.channels.SeekableByteChannel() {
                    @Override
                    public int read(java.nio.ByteBuffer dst) throws IOException {
                        if (broken.get()) {
                            throw new IOException("disk on fire");
                        }
                        return real.read(dst);
                    }

                    @Override
                    public int write(java.nio.ByteBuffer src) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public long position() throws IOException {
                        return real.position();
                    }

                    @Override
                    public java.nio.channels.SeekableByteChannel position(long p)
                            throws IOException {
                        real.position(p);
                        return this;
                    }

                    @Override
                    public long size() throws IOException {
                        return real.size();
                    }

                    @Override
                    public java.nio.channels.SeekableByteChannel truncate(long size) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public boolean isOpen() {
                        return real.isOpen();
                    }

                    @Override
                    public void close() throws IOException {
                        real.close();
                    }
                };

        try (WarcRecordReader reader =
                new WarcRecordReader(failing, "io.warc", WarcReadSettings.defaults())) {
            assertThat(reader.next()).isInstanceOf(WarcDocument.class);
            broken.set(true);
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> {
                                while (reader.hasNext()) {
                                    reader.next();
                                }
                            })
                    .isInstanceOf(java.io.UncheckedIOException.class)
                    .hasMessageContaining("disk on fire");
        }
    }

    @Test
    void emptyAndOneByteFiles() throws IOException {
        assertThat(read(new byte[0], "empty.warc")).isEmpty();
        List<WarcOutcome> one = read(new byte[] {'W'}, "one.warc");
        assertThat(one).hasSize(1);
        assertError(one.get(0), WarcError.Reason.TRUNCATED, 0);
        List<WarcOutcome> junk = read("just some text".getBytes(UTF_8), "junk.warc");
        assertThat(junk).hasSize(1);
        assertError(junk.get(0), WarcError.Reason.MALFORMED_HEADER, 0);
    }
}
