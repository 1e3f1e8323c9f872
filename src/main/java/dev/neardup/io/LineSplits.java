package dev.neardup.io;

import java.io.IOException;
import java.io.Serializable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.configuration.MemorySize;

/**
 * How one JSON Lines file is cut into splits that are read in parallel: each split starts at the
 * start of a line, and the plan knows the number of that line, so records keep their {@code
 * file:line} sources however many readers there are.
 *
 * <p>The plan is made by one pass over the file that counts line feeds (eight bytes at a time) and
 * places a boundary at the first line start at or after every {@code targetSplitBytes}. A line
 * belongs to the split in which its first byte lies; a line longer than a split makes that split
 * longer, never two readers read the same line. The plan is tied to the file's size and
 * modification time: {@link JsonLinesFormat} and {@link LineSplitEnumerator} ignore it for a file
 * that has changed since, and fall back to a single split.
 */
public final class LineSplits implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Smallest split size accepted. */
    public static final long MIN_SPLIT_BYTES = 1;

    private final String path;
    private final long fileSize;
    private final long modificationTime;
    private final long[] starts;
    private final long[] firstLines;

    private LineSplits(
            String path, long fileSize, long modificationTime, long[] starts, long[] firstLines) {
        this.path = path;
        this.fileSize = fileSize;
        this.modificationTime = modificationTime;
        this.starts = starts;
        this.firstLines = firstLines;
    }

    /**
     * Plans the splits of {@code file} for {@code parallelism} readers: splits of {@code
     * configured} bytes when it is set (not null); else, at parallelism 1, the whole file (one
     * reader gains nothing from splits, and the plan then reads nothing); else the size / (8 x
     * parallelism) (several splits per reader even out their speeds at the end), between 1 MB and
     * 64 MB.
     */
    public static LineSplits plan(java.nio.file.Path file, MemorySize configured, int parallelism)
            throws IOException {
        return plan(file, splitSize(configured, Files.size(file), parallelism));
    }

    /**
     * Splits of {@code file} that start at {@code starts} (after 0, increasing): the record starts
     * of a WARC file, which has no line numbers.
     */
    static LineSplits atOffsets(java.nio.file.Path file, List<Long> starts) throws IOException {
        java.nio.file.Path absolute = file.toAbsolutePath();
        long[] offsets = new long[starts.size() + 1];
        for (int i = 0; i < starts.size(); i++) {
            offsets[i + 1] = starts.get(i);
        }
        long[] lines = new long[offsets.length];
        Arrays.fill(lines, -1);
        return new LineSplits(
                absolute.toUri().getPath(),
                Files.size(absolute),
                Files.getLastModifiedTime(absolute).toMillis(),
                offsets,
                lines);
    }

    static long splitSize(MemorySize configured, long fileSize, int parallelism) {
        if (configured != null) {
            return configured.getBytes();
        }
        return parallelism <= 1
                ? fileSize
                : Math.min(64L << 20, Math.max(1L << 20, fileSize / (8L * parallelism)));
    }

    /**
     * Plans the splits of {@code file}.
     *
     * @param targetSplitBytes the size each split should at least have (at least {@link
     *     #MIN_SPLIT_BYTES} is used); the last split may be smaller
     */
    public static LineSplits plan(java.nio.file.Path file, long targetSplitBytes)
            throws IOException {
        long target = Math.max(MIN_SPLIT_BYTES, targetSplitBytes);
        java.nio.file.Path absolute = file.toAbsolutePath();
        long modified = Files.getLastModifiedTime(absolute).toMillis();
        List<long[]> splits = new ArrayList<>();
        splits.add(new long[] {0, 1});
        long size;
        try (FileChannel channel = FileChannel.open(absolute, StandardOpenOption.READ)) {
            size = channel.size();
            ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
            byte[] bytes = buffer.array();
            long position = 0; // file offset of bytes[0]
            long lineFeeds = 0; // line feeds before bytes[index]
            long next = target; // the next boundary is the first line start >= next
            int n;
            // Past size - 1 no line start can begin a split: the rest is not read.
            while (next < size && (n = channel.read(buffer.clear())) > 0) {
                int index = 0;
                while (index < n) {
                    // Line starts are 0 and the bytes after line feeds: look for the first line
                    // feed at or after next - 1.
                    int from = (int) Math.max(index, Math.min(n, next - 1 - position));
                    lineFeeds += countLineFeeds(bytes, index, from);
                    index = from;
                    index = indexOfLineFeed(bytes, index, n);
                    if (index == n) {
                        break; // go on searching in the next buffer
                    }
                    lineFeeds++;
                    index++;
                    long start = position + index;
                    if (start < size) {
                        splits.add(new long[] {start, lineFeeds + 1});
                    }
                    next = start + target;
                }
                position += n;
            }
        }
        return new LineSplits(
                absolute.toUri().getPath(),
                size,
                modified,
                splits.stream().mapToLong(split -> split[0]).toArray(),
                splits.stream().mapToLong(split -> split[1]).toArray());
    }

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    private static final long LINE_FEEDS = 0x0A0A0A0A0A0A0A0AL;

    /**
     * Number of {@code '\n'} bytes in {@code bytes[from, to)}, eight at a time (SWAR, with per-lane
     * sums: docs/design/input-records.md).
     */
    static long countLineFeeds(byte[] bytes, int from, int to) {
        long count = 0;
        int i = from;
        while (i + 8 <= to) {
            int blockEnd = (int) Math.min(to - 7L, i + 8L * 255);
            long lanes = 0; // eight byte lanes, each the line feeds seen in its position
            for (; i < blockEnd; i += 8) {
                long v = (long) LONGS.get(bytes, i) ^ LINE_FEEDS;
                long t = (v & LOW7) + LOW7;
                lanes += ~(t | v | LOW7) >>> 7;
            }
            long pairs = (lanes & LOW_BYTES) + ((lanes >>> 8) & LOW_BYTES); // four 16-bit lanes
            count += (pairs * SUM_SHORTS) >>> 48;
        }
        for (; i < to; i++) {
            if (bytes[i] == '\n') {
                count++;
            }
        }
        return count;
    }

    /**
     * Index of the first {@code '\n'} in {@code bytes[from, to)}, or {@code to} when there is none;
     * eight bytes at a time (SWAR, exact per byte as in {@link #countLineFeeds}).
     */
    static int indexOfLineFeed(byte[] bytes, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long v = (long) LONGS.get(bytes, i) ^ LINE_FEEDS;
            long t = (v & LOW7) + LOW7;
            long found = ~(t | v | LOW7); // the high bit of each byte that is a line feed
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return to;
    }

    private static final long LOW_BYTES = 0x00FF00FF00FF00FFL;
    private static final long SUM_SHORTS = 0x0001000100010001L;

    /** Number of splits (at least 1). */
    public int count() {
        return starts.length;
    }

    /** Offset of split {@code i}'s first byte. */
    public long start(int i) {
        return starts[i];
    }

    /** Offset just after split {@code i}'s last byte. */
    public long end(int i) {
        return i + 1 < starts.length ? starts[i + 1] : fileSize;
    }

    /** The file's size when it was planned. */
    public long fileSize() {
        return fileSize;
    }

    /**
     * True when the plan was made for this file as it is now (same path, as the path part of its
     * URI, same size and modification time).
     */
    public boolean matches(String uriPath, long size, long modified) {
        return path.equals(uriPath) && fileSize == size && modificationTime == modified;
    }

    /**
     * Number (1-based) of the line that starts at {@code offset}, when the offset is a split start
     * of this plan; -1 otherwise.
     */
    public long lineAt(long offset) {
        int i = Arrays.binarySearch(starts, offset);
        return i >= 0 ? firstLines[i] : -1;
    }

    @Override
    public String toString() {
        return count() + " splits of " + path + " (" + fileSize + " bytes)";
    }
}
