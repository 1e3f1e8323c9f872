package dev.neardup.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;

/**
 * Reads a JSON Lines file as raw records: one record per line, as bytes (so invalid UTF-8 is
 * detected downstream rather than silently replaced), with {@code name:line} as its source and its
 * {@link RawRecord#position} (the line number plus the lines of the inputs before this one). Blank
 * lines are skipped, and counted ({@link #countingBlankLines}, for the run summary). A line longer
 * than {@code maxBytes} is not held in memory: its first bytes are kept and the record is marked
 * truncated, which the parser turns into a dead letter.
 *
 * <p>Splittable: a reader for the split {@code [offset, end)} reads the lines that start in it (a
 * split that does not begin at a line start skips to the next one; the line it cut belongs to the
 * split before). Line numbers come from the {@link LineSplits} plan when the split starts where the
 * plan says; otherwise the reader counts the line feeds before its split. Restores after failure by
 * re-reading its split and skipping the records already emitted (Flink's {@link
 * org.apache.flink.connector.file.src.impl.StreamFormatAdapter} does that when {@link
 * Reader#getCheckpointedPosition()} is null), so line numbers stay stable.
 */
public class JsonLinesFormat implements StreamFormat<RawRecord> {

    private static final long serialVersionUID = 1L;

    private final String name;
    private final int maxBytes;
    private final LineSplits plan;
    private final long linesBefore;

    /**
     * For a copy of several inputs in another order ({@link SortedLines}): each line starts with
     * its input's index in these and its line number there ({@code 2,1234\t}), and is named and
     * placed as in that input; null for a file read as it is.
     */
    private final String[] inputNames;

    private final long[] inputLinesBefore;

    /** Where readers count the blank lines they skip; null: nowhere. */
    private transient Counter blankLines;

    /** The longest prefix of a line of a {@link #copied} copy: two numbers, a comma and a tab. */
    static final int MAX_PREFIX = 2 * 20 + 2;

    public JsonLinesFormat(String name, int maxBytes) {
        this(name, maxBytes, null, 0);
    }

    /**
     * @param name how the file is named in record sources (e.g. its file name)
     * @param maxBytes longest line kept whole
     * @param plan the file's split plan, for line numbers without counting; may be null
     * @param linesBefore lines of the inputs read before this file, added to the line number in
     *     each record's {@link RawRecord#position}
     */
    public JsonLinesFormat(String name, int maxBytes, LineSplits plan, long linesBefore) {
        this(name, maxBytes, plan, linesBefore, null, null);
    }

    private JsonLinesFormat(
            String name,
            int maxBytes,
            LineSplits plan,
            long linesBefore,
            String[] inputNames,
            long[] inputLinesBefore) {
        this.name = name;
        this.maxBytes = maxBytes;
        this.plan = plan;
        this.linesBefore = linesBefore;
        this.inputNames = inputNames;
        this.inputLinesBefore = inputLinesBefore;
    }

    /**
     * The lines of a copy written by {@link SortedLines}: each record is named and placed as the
     * line of the input it was copied from ({@code inputNames.get(i)} is input i, after the {@code
     * inputLinesBefore[i]} lines of the inputs before it).
     *
     * @param maxBytes longest line kept whole, not counting the copy's prefix
     * @param plan the copy's split plan
     */
    public static JsonLinesFormat copied(
            int maxBytes, LineSplits plan, List<String> inputNames, long[] inputLinesBefore) {
        return new JsonLinesFormat(
                "copy",
                maxBytes,
                plan,
                0,
                inputNames.toArray(String[]::new),
                inputLinesBefore.clone());
    }

    /** How record sources name the file. */
    String name() {
        return name;
    }

    /** The lines of the inputs before this file. */
    long linesBefore() {
        return linesBefore;
    }

    /** A reader of the whole stream, from its start, that tells where each line lies. */
    LineReader lineReader(FSDataInputStream stream) {
        return new Reader(stream, 1, Long.MAX_VALUE);
    }

    /** Reads lines and tells the bytes of the last one read. */
    interface LineReader extends StreamFormat.Reader<RawRecord> {
        /** The offset of the last line read, from the stream's start. */
        long lineStart();

        /** The offset after the last line read (after its line feed, if any). */
        long lineEnd();
    }

    /** A reader of the whole stream, from its current position (line 1) to its end. */
    public StreamFormat.Reader<RawRecord> createReader(
            Configuration config, FSDataInputStream stream) {
        return new Reader(stream, 1, Long.MAX_VALUE);
    }

    @Override
    public StreamFormat.Reader<RawRecord> createReader(
            Configuration config, FSDataInputStream stream, long fileLen, long splitEnd)
            throws IOException {
        long offset = stream.getPos();
        if (offset == 0) {
            return new Reader(stream, 1, splitEnd);
        }
        long line = plan != null && plan.fileSize() == fileLen ? plan.lineAt(offset) : -1;
        if (line < 0) {
            // Not a planned split start: find the first line start at or after the offset (the
            // byte before it is a line feed), and count the line feeds before it.
            stream.seek(offset - 1);
            long start = offset - 1;
            int b;
            while ((b = stream.read()) >= 0) {
                start++;
                if (b == '\n') {
                    break;
                }
            }
            if (b < 0) {
                start = fileLen;
            }
            stream.seek(0);
            line = 1 + countLineFeeds(stream, start);
            stream.seek(start);
            offset = start;
        }
        return new Reader(stream, line, splitEnd - offset);
    }

    /**
     * Number of lines in the file {@code path}, on any Flink filesystem: its line feeds, plus one
     * for a last line without one. What the positions of a later input start after.
     */
    public static long countLines(org.apache.flink.core.fs.Path path) throws IOException {
        org.apache.flink.core.fs.FileSystem fs = path.getFileSystem();
        long size = fs.getFileStatus(path).getLen();
        try (FSDataInputStream in = fs.open(path)) {
            long lineFeeds = countLineFeeds(in, size);
            if (size == 0) {
                return 0;
            }
            in.seek(size - 1);
            return in.read() == '\n' ? lineFeeds : lineFeeds + 1;
        }
    }

    /** Number of line feeds in the first {@code length} bytes of {@code in}. */
    private static long countLineFeeds(FSDataInputStream in, long length) throws IOException {
        byte[] buffer = new byte[1 << 16];
        long count = 0;
        long left = length;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                break;
            }
            count += LineSplits.countLineFeeds(buffer, 0, n);
            left -= n;
        }
        return count;
    }

    /**
     * Not used: readers report no checkpointed position, so Flink restores a split by creating a
     * reader at its start and skipping the records already emitted.
     */
    @Override
    public StreamFormat.Reader<RawRecord> restoreReader(
            Configuration config,
            FSDataInputStream stream,
            long restoredOffset,
            long fileLen,
            long splitEnd)
            throws IOException {
        stream.seek(restoredOffset);
        return createReader(config, stream, fileLen, splitEnd);
    }

    /** This format, with readers that count the blank lines they skip in {@code counter}. */
    public JsonLinesFormat countingBlankLines(Counter counter) {
        JsonLinesFormat format =
                new JsonLinesFormat(
                        name, maxBytes, plan, linesBefore, inputNames, inputLinesBefore);
        format.blankLines = counter;
        return format;
    }

    @Override
    public boolean isSplittable() {
        return true;
    }

    @Override
    public TypeInformation<RawRecord> getProducedType() {
        return TypeInformation.of(RawRecord.class);
    }

    private final class Reader implements LineReader {
        private final FSDataInputStream in;
        private final Counter blankLines =
                JsonLinesFormat.this.blankLines == null
                        ? new SimpleCounter()
                        : JsonLinesFormat.this.blankLines;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(4096);
        private final byte[] buffer = new byte[1 << 16];
        private int pos;
        private int limit;
        private long lineNumber;

        /** Bytes from the reader's start to its split's end; lines starting there are not read. */
        private final long splitLength;

        /** Bytes consumed from the reader's start: where the next line starts. */
        private long consumed;

        /** Where the last line read starts, from the reader's start. */
        private long lineStart;

        Reader(FSDataInputStream in, long firstLine, long splitLength) {
            this.in = in;
            this.lineNumber = firstLine - 1;
            this.splitLength = splitLength;
        }

        @Override
        public RawRecord read() throws IOException {
            while (true) {
                if (consumed >= splitLength) {
                    return null; // the next line belongs to the next split
                }
                lineStart = consumed;
                line.reset();
                long size = 0;
                int last = -1;
                boolean endOfLine = false;
                byte[] whole = null; // the line, when it lies in the buffer and is kept whole
                while (true) {
                    if (pos == limit) {
                        int n = in.read(buffer, 0, buffer.length);
                        pos = 0;
                        limit = Math.max(n, 0);
                        if (n <= 0) {
                            break; // end of the file
                        }
                    }
                    int start = pos;
                    pos = LineSplits.indexOfLineFeed(buffer, pos, limit);
                    int n = pos - start;
                    consumed += n;
                    long room = maxBytes + (inputNames == null ? 0 : MAX_PREFIX) + 1L - size;
                    if (size == 0 && pos < limit && n <= room) {
                        // The common case: the whole line is in the buffer; one copy.
                        whole = java.util.Arrays.copyOfRange(buffer, start, pos);
                        size = n;
                        last = n > 0 ? buffer[pos - 1] : -1;
                    } else if (n > 0) {
                        if (room > 0) {
                            line.write(buffer, start, (int) Math.min(n, room));
                        }
                        size += n;
                        last = buffer[pos - 1];
                    }
                    if (pos < limit) {
                        pos++; // the '\n'
                        consumed++;
                        endOfLine = true;
                        break;
                    }
                }
                if (!endOfLine && size == 0) {
                    return null;
                }
                lineNumber++;
                byte[] bytes = whole != null ? whole : line.toByteArray();
                int length = bytes.length;
                if (last == '\r') { // the CR of a CRLF line end is not part of the record
                    size--;
                    if (length > size) {
                        length--; // it was kept: drop it
                    }
                }
                if (isBlank(bytes, length) && size <= maxBytes) {
                    blankLines.inc();
                    continue;
                }
                RawRecord r = new RawRecord();
                if (inputNames != null) {
                    return copied(r, bytes, length, size);
                }
                r.payload = length == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, length);
                r.source = name + ":" + lineNumber;
                r.position = linesBefore + lineNumber;
                r.size = size;
                r.truncated = size > length;
                return r;
            }
        }

        /** A line of a copy: named and placed by its prefix, which is not part of it. */
        private RawRecord copied(RawRecord r, byte[] bytes, int length, long size) {
            int i = 0;
            int input = 0;
            while (i < length && bytes[i] != ',') {
                input = input * 10 + (bytes[i++] - '0');
            }
            long number = 0;
            for (i++; i < length && bytes[i] != '\t'; i++) {
                number = number * 10 + (bytes[i] - '0');
            }
            int from = i + 1;
            if (from > length || input >= inputNames.length) {
                throw new IllegalStateException("not a line of a sorted copy: " + lineNumber);
            }
            int kept = (int) Math.min(length - from, maxBytes + 1L);
            r.payload = java.util.Arrays.copyOfRange(bytes, from, from + kept);
            r.source = inputNames[input] + ":" + number;
            r.position = inputLinesBefore[input] + number;
            r.size = size - from;
            r.truncated = r.size > kept;
            return r;
        }

        @Override
        public long lineStart() {
            return lineStart;
        }

        @Override
        public long lineEnd() {
            return consumed;
        }

        private boolean isBlank(byte[] bytes, int length) {
            for (int i = 0; i < length; i++) {
                byte c = bytes[i];
                if (c != ' ' && c != '\t' && c != '\r') {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
