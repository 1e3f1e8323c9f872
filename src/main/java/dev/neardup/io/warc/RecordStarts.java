package dev.neardup.io.warc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.util.zip.GZIPInputStream;
import org.netpreserve.jwarc.WarcParser;

/**
 * Finds where the next record starts after broken bytes, so that reading goes on there. In a plain
 * file a record starts with a {@code WARC/} version line (ISO 28500:2017, WARC 1.1, section 5) or,
 * in an ARC file, with an ARC header line ({@code URL IP date type length}) at the start of a line;
 * in a gzip file with a gzip member (RFC 1952: bytes 1F 8B 08) that inflates to one. A candidate
 * counts only when jwarc's own header parser accepts the header there (or the file ends inside it:
 * a truncated record), so that text in a payload that merely looks like a header does not.
 */
final class RecordStarts {

    /** How many bytes a header candidate is checked on (the header must fit). */
    static final int HEADER_BYTES = 64 * 1024;

    private static final int WINDOW = 256 * 1024;

    /** Bytes after a candidate's first one that telling it needs. */
    private static final int LOOK_AHEAD = 32;

    private RecordStarts() {}

    /**
     * The offset of the first record start at or after {@code from}, or -1 when the file has none.
     * Moves the channel's position.
     *
     * @param gzip whether records are gzip members
     * @param arc whether ARC header lines count too (an ARC file), or only WARC headers
     */
    static long find(SeekableByteChannel channel, long from, boolean gzip, boolean arc)
            throws IOException {
        ByteBuffer window = ByteBuffer.allocate(WINDOW);
        long start = Math.max(0, from - 1); // one byte before, to see whether from starts a line
        while (true) {
            window.clear();
            channel.position(start);
            boolean eof = false;
            while (window.hasRemaining()) {
                if (channel.read(window) < 0) {
                    eof = true;
                    break;
                }
            }
            window.flip();
            int n = window.limit();
            byte[] b = window.array();
            // Candidates need a few bytes of look-ahead; a window that is not the last leaves
            // them to the next one, which starts at the first position not looked at.
            int end = eof ? n : n - LOOK_AHEAD;
            int first = (int) (from - start);
            for (int i = first; i < end; i++) {
                boolean candidate =
                        gzip
                                ? isGzipMagic(b, i, n)
                                : isWarcMagic(b, i, n)
                                        || (arc
                                                && i > 0
                                                && b[i - 1] == '\n'
                                                && isArcStart(b, i, n));
                if (candidate
                        && (gzip
                                ? gzipHeaderAt(channel, start + i)
                                : headerAt(channel, start + i))) {
                    return start + i;
                }
            }
            if (eof) {
                return -1;
            }
            from = start + end;
            start = from - 1;
        }
    }

    private static boolean isGzipMagic(byte[] b, int i, int n) {
        return i + 3 <= n && (b[i] & 0xff) == 0x1f && (b[i + 1] & 0xff) == 0x8b && b[i + 2] == 8;
    }

    private static boolean isWarcMagic(byte[] b, int i, int n) {
        return i + 5 <= n
                && b[i] == 'W'
                && b[i + 1] == 'A'
                && b[i + 2] == 'R'
                && b[i + 3] == 'C'
                && b[i + 4] == '/';
    }

    /** A lower-case URL scheme and a colon, as an ARC header line starts. */
    private static boolean isArcStart(byte[] b, int i, int n) {
        int j = i;
        while (j < n && j - i < 16 && b[j] >= 'a' && b[j] <= 'z') {
            j++;
        }
        return j > i && j < n && b[j] == ':';
    }

    /**
     * Whether the first {@code n} bytes of {@code b} start with an ARC record's header line that
     * jwarc's parser reads (or that they end inside of).
     */
    static boolean isArcHeader(byte[] b, int n) {
        return isArcStart(b, 0, n) && parses(ByteBuffer.wrap(b, 0, n));
    }

    private static boolean headerAt(SeekableByteChannel channel, long position) throws IOException {
        // Read a little at a time: most candidates fail on their first bytes.
        WarcParser parser = new WarcParser();
        parser.setLenient(true);
        ByteBuffer buf = ByteBuffer.allocate(4096);
        channel.position(position);
        for (long total = 0; total < HEADER_BYTES; ) {
            buf.clear();
            int n = channel.read(buf);
            if (n < 0) {
                return total > 0; // the file ends inside the header: a truncated record
            }
            buf.flip();
            parser.parse(buf);
            total += n;
            if (parser.isFinished()) {
                return true;
            }
            if (parser.isError()) {
                return false;
            }
        }
        return true; // a header longer than the buffer: let jwarc decide
    }

    private static boolean gzipHeaderAt(SeekableByteChannel channel, long position)
            throws IOException {
        channel.position(position);
        byte[] out = new byte[HEADER_BYTES];
        int n = 0;
        try {
            // Not closed: closing would close the channel. The inflater is freed by the GC.
            InputStream in = new GZIPInputStream(Channels.newInputStream(channel), 8192);
            int r;
            while (n < out.length && (r = in.read(out, n, out.length - n)) > 0) {
                n += r;
            }
        } catch (IOException e) {
            if (isSourceError(e)) {
                throw e;
            }
            // Inflated as far as it goes: a cut-off member, or no member at all.
        }
        return n > 0 && parses(ByteBuffer.wrap(out, 0, n));
    }

    /**
     * Whether jwarc's parser reads a record header in the bytes, or runs out of them before it
     * fails (a header cut off by the end of the file or longer than the buffer).
     */
    private static boolean parses(ByteBuffer bytes) {
        WarcParser parser = new WarcParser();
        parser.setLenient(true);
        parser.parse(bytes);
        return parser.isFinished() || (!parser.isError() && bytes.position() > 0);
    }

    static boolean isSourceError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SourceChannel.SourceException) {
                return true;
            }
        }
        return false;
    }
}
