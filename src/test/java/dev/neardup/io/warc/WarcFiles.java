package dev.neardup.io.warc;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcWriter;

/**
 * Test WARC and ARC files, written record by record with jwarc's writer (or by hand, for broken
 * ones), each record's offset kept.
 */
public final class WarcFiles {

    static final Instant T1 = Instant.parse("2024-03-01T10:00:00Z");
    static final Instant T2 = Instant.parse("2024-03-02T11:30:15Z");

    private final boolean gzip;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final List<Long> offsets = new ArrayList<>();

    public WarcFiles(boolean gzip) {
        this.gzip = gzip;
    }

    /** Appends a record written by jwarc (a gzip member of its own when compressed). */
    public long add(WarcRecord record) {
        try {
            ByteArrayOutputStream one = new ByteArrayOutputStream();
            WarcWriter writer =
                    new WarcWriter(
                            Channels.newChannel(one),
                            gzip ? WarcCompression.GZIP : WarcCompression.NONE);
            writer.write(record);
            writer.close();
            return append(one.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Appends bytes as they are: its own gzip member when compressed. */
    public long raw(byte[] bytes) {
        return append(gzip ? gzip(bytes) : bytes);
    }

    public long raw(String text) {
        return raw(text.getBytes(UTF_8));
    }

    /** Appends bytes as they are, compressed or not. */
    long append(byte[] bytes) {
        long offset = out.size();
        out.writeBytes(bytes);
        offsets.add(offset);
        return offset;
    }

    /** A response record for {@code url} at {@code date} with this HTTP response. */
    public long response(String url, Instant date, byte[] http) {
        return add(
                new WarcResponse.Builder(url)
                        .date(date)
                        .body(MediaType.HTTP_RESPONSE, http)
                        .build());
    }

    /** The request record a crawler writes before a response. */
    public long request(String url, Instant date) {
        byte[] http = ("GET / HTTP/1.1\r\nHost: " + host(url) + "\r\n\r\n").getBytes(ISO_8859_1);
        return add(
                new WarcRequest.Builder(url).date(date).body(MediaType.HTTP_REQUEST, http).build());
    }

    /** One ARC record (version 1): the header line, the content, and the separating newline. */
    public static byte[] arcRecord(
            String url, String ip, String date, String type, byte[] content) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(
                (url + " " + ip + " " + date + " " + type + " " + content.length + "\n")
                        .getBytes(UTF_8));
        b.writeBytes(content);
        b.write('\n');
        return b.toByteArray();
    }

    public byte[] bytes() {
        return out.toByteArray();
    }

    List<Long> offsets() {
        return offsets;
    }

    public Path write(Path dir, String name) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, bytes());
        return file;
    }

    /** An HTTP response: status line, header lines ("Name: value"), blank line, body. */
    public static byte[] http(int status, byte[] body, String... headers) {
        StringBuilder head =
                new StringBuilder("HTTP/1.1 " + status + " " + reason(status) + "\r\n");
        for (String h : headers) {
            head.append(h).append("\r\n");
        }
        head.append("\r\n");
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(head.toString().getBytes(ISO_8859_1));
        b.writeBytes(body);
        return b.toByteArray();
    }

    public static byte[] http(int status, String body, String... headers) {
        return http(status, body.getBytes(UTF_8), headers);
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 301 -> "Moved Permanently";
            case 304 -> "Not Modified";
            case 404 -> "Not Found";
            default -> "Status";
        };
    }

    private static String host(String url) {
        return java.net.URI.create(url).getHost();
    }

    public static byte[] gzip(byte[] bytes) {
        try {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(b)) {
                gz.write(bytes);
            }
            return b.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code bytes} in the chunked transfer coding, in chunks of {@code size} bytes. */
    public static byte[] chunked(byte[] bytes, int size) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int i = 0; i < bytes.length; i += size) {
            int n = Math.min(size, bytes.length - i);
            b.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(ISO_8859_1));
            b.write(bytes, i, n);
            b.writeBytes("\r\n".getBytes(ISO_8859_1));
        }
        b.writeBytes("0\r\n\r\n".getBytes(ISO_8859_1));
        return b.toByteArray();
    }

    /** All outcomes of a file. */
    static List<WarcOutcome> read(Path file, WarcReadSettings settings) throws IOException {
        List<WarcOutcome> outcomes = new ArrayList<>();
        try (WarcRecordReader reader = WarcRecordReader.open(file, settings)) {
            while (reader.hasNext()) {
                outcomes.add(reader.next());
                assertThat(outcomes).as("runaway reader").hasSizeLessThan(10_000);
            }
            assertThat(reader.read()).as("stays at the end").isNull();
        }
        return outcomes;
    }

    static List<WarcOutcome> read(Path file) throws IOException {
        return read(file, WarcReadSettings.defaults());
    }
}
