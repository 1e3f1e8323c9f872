package dev.neardup.io.warc;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * The container formats a crawl comes in: WARC (ISO 28500:2017, WARC 1.1; 1.0 in 2009; WET files
 * are WARC files of {@code conversion} records) and the Internet Archive's older ARC format, each
 * plain or as one gzip member per record. {@link WarcRecordReader} reads all of them from the bytes
 * alone; this type tells, for choosing input files, what a file is: by its name ({@link
 * #fromFileName}) or by its first bytes ({@link #sniff}).
 */
public enum ArchiveFormat {
    WARC(false, false),
    WARC_GZIP(false, true),
    ARC(true, false),
    ARC_GZIP(true, true);

    /** How many first bytes {@link #sniff} needs at most. */
    public static final int SNIFF_BYTES = 1024;

    private static final byte[] WARC_MAGIC = "WARC/".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ARC_MAGIC = "filedesc://".getBytes(StandardCharsets.US_ASCII);

    private final boolean arc;
    private final boolean gzip;

    ArchiveFormat(boolean arc, boolean gzip) {
        this.arc = arc;
        this.gzip = gzip;
    }

    /** True for ARC, false for WARC (and WET). */
    public boolean isArc() {
        return arc;
    }

    /** True when each record is a gzip member. */
    public boolean isGzip() {
        return gzip;
    }

    /**
     * The format a file name says: {@code .warc}, {@code .wet} (WARC), {@code .arc}, each with an
     * optional {@code .gz}; case-insensitive. Empty for any other name (a {@code .wat} file is WARC
     * too, but of JSON metadata records, so it is not an input of documents).
     */
    public static Optional<ArchiveFormat> fromFileName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        boolean gz = n.endsWith(".gz");
        if (gz) {
            n = n.substring(0, n.length() - 3);
        }
        if (n.endsWith(".warc") || n.endsWith(".wet")) {
            return Optional.of(gz ? WARC_GZIP : WARC);
        }
        if (n.endsWith(".arc")) {
            return Optional.of(gz ? ARC_GZIP : ARC);
        }
        return Optional.empty();
    }

    /**
     * The format the first bytes of a file show (at most {@link #SNIFF_BYTES} are looked at): a
     * WARC record ({@code WARC/}) or an ARC file header ({@code filedesc://}), plain or inside a
     * gzip member. Empty when they show neither.
     */
    public static Optional<ArchiveFormat> sniff(byte[] head) {
        byte[] bytes = Arrays.copyOf(head, Math.min(head.length, SNIFF_BYTES));
        if (bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
            return plain(gunzipPrefix(bytes, ARC_MAGIC.length))
                    .map(f -> f.arc ? ARC_GZIP : WARC_GZIP);
        }
        return plain(bytes);
    }

    /**
     * The format of bytes that hold records without a file around them (a Kafka message value): as
     * {@link #sniff} says, or ARC when they start with an ARC record's header line ({@code URL IP
     * date type length}, as jwarc reads it) rather than an ARC file's {@code filedesc://} record;
     * plain or inside a gzip member. The first byte decides whether more are looked at: bytes that
     * start otherwise (JSON, with <code>{</code> or white space) cost one comparison. Empty when
     * the bytes show no record.
     */
    public static Optional<ArchiveFormat> sniffRecord(byte[] bytes) {
        if (bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
            return plainRecord(gunzipPrefix(bytes, SNIFF_BYTES))
                    .map(f -> f.arc ? ARC_GZIP : WARC_GZIP);
        }
        if (bytes.length > 0 && (bytes[0] == 'W' || (bytes[0] >= 'a' && bytes[0] <= 'z'))) {
            return plainRecord(bytes);
        }
        return Optional.empty();
    }

    private static Optional<ArchiveFormat> plainRecord(byte[] bytes) {
        Optional<ArchiveFormat> format = plain(bytes);
        if (format.isPresent()) {
            return format;
        }
        return RecordStarts.isArcHeader(bytes, Math.min(bytes.length, SNIFF_BYTES))
                ? Optional.of(ARC)
                : Optional.empty();
    }

    /**
     * The format of {@code file}: by its first bytes when they tell, else by its name (so that an
     * empty or unreadable-looking file with a known name keeps it).
     */
    public static Optional<ArchiveFormat> detect(Path file) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(SNIFF_BYTES);
        }
        Optional<ArchiveFormat> sniffed = sniff(head);
        return sniffed.isPresent()
                ? sniffed
                : fromFileName(file.getFileName() == null ? "" : file.getFileName().toString());
    }

    private static Optional<ArchiveFormat> plain(byte[] bytes) {
        if (startsWith(bytes, WARC_MAGIC)) {
            return Optional.of(WARC);
        }
        if (startsWith(bytes, ARC_MAGIC)) {
            return Optional.of(ARC);
        }
        return Optional.empty();
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length
                && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    /**
     * The first bytes, at most {@code max}, that the gzip member at the start of {@code gz}
     * inflates to (maybe none).
     */
    private static byte[] gunzipPrefix(byte[] gz, int max) {
        byte[] out = new byte[max];
        int n = 0;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            int r;
            while (n < out.length && (r = in.read(out, n, out.length - n)) > 0) {
                n += r;
            }
        } catch (IOException e) {
            // A cut-off or corrupt member: whatever was inflated before.
        }
        return Arrays.copyOf(out, n);
    }
}
