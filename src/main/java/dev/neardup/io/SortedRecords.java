package dev.neardup.io;

import dev.neardup.io.warc.ArchiveFormat;
import dev.neardup.io.warc.WarcDocument;
import dev.neardup.io.warc.WarcOutcome;
import dev.neardup.io.warc.WarcReadSettings;
import dev.neardup.io.warc.WarcRecordReader;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.configuration.MemorySize;

/**
 * An index of WARC inputs in the order of their records' {@code WARC-Date}s, for a run over WARC
 * files far out of fetch order (the files of parallel crawler threads, each in order but
 * overlapping in time): read through the index ({@link WarcIndexDocuments}), the records have no
 * disorder, so their pages go through the job as they are read instead of waiting for its end. The
 * records stay where they are, and keep their sources ({@code file@offset}).
 *
 * <p>The record headers of every input are read for their offsets and dates (where a broken record
 * stops that, the job's reader reads the input instead), and the entries are sorted by (date, input
 * order) as {@link SortedLines} sorts lines, in runs merged from disk beyond a million records.
 * Each entry of the index is {@link #ENTRY_BYTES} bytes: the input (int) and the record's offset in
 * it (long), big-endian.
 */
public final class SortedRecords {

    /** The size of one index entry. */
    public static final int ENTRY_BYTES = 12;

    private SortedRecords() {}

    /** The headers of an input could not be read through (a broken record, an ARC file). */
    public static final class NotIndexable extends IOException {
        private static final long serialVersionUID = 1L;

        NotIndexable(Path input, IOException cause) {
            super("cannot index the records of " + input + ": " + cause.getMessage(), cause);
        }

        NotIndexable(String message) {
            super(message);
        }
    }

    /** What a header read gave, or its failure as thrown there. */
    private static long[][] done(Future<long[][]> read) throws IOException {
        try {
            return read.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while indexing the WARC input", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IOException(e.getCause());
        }
    }

    /**
     * The offsets and dates of the records of {@code input}: from its record headers, or where they
     * cannot be read through (a broken record), from what the job's reader makes of each record
     * (documents by their dates, anything else first: it only counts or is a dead letter).
     *
     * @throws NotIndexable for an ARC file (its records are told apart by its first record)
     */
    private static long[][] records(Path input, WarcReadSettings settings) throws IOException {
        if (ArchiveFormat.detect(input).filter(ArchiveFormat::isArc).isPresent()) {
            throw new NotIndexable(
                    input.getFileName() + " is an ARC file, whose records cannot be read in place");
        }
        Longs offsets = new Longs();
        Longs dates = new Longs();
        try (FileChannel channel = FileChannel.open(input)) {
            WarcRecordReader.recordDates(
                    channel,
                    (offset, date) -> {
                        offsets.add(offset);
                        dates.add(date);
                    });
        } catch (IOException | RuntimeException headers) {
            offsets.size = 0;
            dates.size = 0;
            try (WarcRecordReader reader = WarcRecordReader.open(input, settings)) {
                WarcOutcome o;
                while ((o = reader.read()) != null) {
                    offsets.add(o.offset());
                    dates.add(o instanceof WarcDocument d ? d.fetchedAt() : Long.MIN_VALUE);
                }
            } catch (java.io.UncheckedIOException e) {
                throw new NotIndexable(input, e.getCause());
            }
        }
        return new long[][] {offsets.values(), dates.values()};
    }

    /** A growing array of longs. */
    private static final class Longs {
        private long[] values = new long[1024];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        long[] values() {
            return java.util.Arrays.copyOf(values, size);
        }
    }

    /**
     * The splits of {@code index}, written from {@code inputs}: as many as {@link LineSplits#plan}
     * would cut the inputs' bytes into for {@code parallelism} readers, each a run of whole entries
     * (null for one split).
     */
    public static LineSplits plan(
            Path index, List<Path> inputs, MemorySize configured, int parallelism)
            throws IOException {
        long bytes = 0;
        for (Path input : inputs) {
            bytes += Files.size(input);
        }
        long entries = Files.size(index) / ENTRY_BYTES;
        long target = Math.max(1, LineSplits.splitSize(configured, bytes, parallelism));
        long splits = Math.max(1, Math.min(entries, (bytes + target - 1) / target));
        long perSplit = (entries + splits - 1) / Math.max(1, splits);
        List<Long> starts = new java.util.ArrayList<>();
        for (long at = perSplit; at < entries; at += perSplit) {
            starts.add(at * ENTRY_BYTES);
        }
        return starts.isEmpty() ? null : LineSplits.atOffsets(index, starts);
    }

    /**
     * Writes to {@code index} the records of the local WARC files {@code inputs} in the order of
     * their dates, reading the headers of up to {@code threads} files at once (each file's offsets
     * and dates are held until it is added: 16 bytes a record); sorted runs of a large input go to
     * {@code scratch} meanwhile.
     *
     * @throws NotIndexable when an input's record headers cannot be read through
     */
    public static SortedLines.Result write(
            List<Path> inputs, WarcReadSettings settings, Path index, Path scratch, int threads)
            throws IOException {
        return write(inputs, settings, index, scratch, threads, SortedLines.RUN_LINES);
    }

    /** As {@link #write}, with sorted runs of {@code runLines} records. */
    static SortedLines.Result write(
            List<Path> inputs,
            WarcReadSettings settings,
            Path index,
            Path scratch,
            int threads,
            int runLines)
            throws IOException {
        long start = System.nanoTime();
        Files.createDirectories(scratch);
        long records;
        try (DataOutputStream out =
                new DataOutputStream(
                        new BufferedOutputStream(Files.newOutputStream(index), 1 << 16))) {
            records =
                    SortedLines.sort(
                            entries -> {
                                // Up to `threads` inputs' headers read at once, added in input
                                // order (ties in time go by input order).
                                ExecutorService pool = Executors.newFixedThreadPool(threads);
                                try {
                                    for (int from = 0; from < inputs.size(); from += threads) {
                                        List<Future<long[][]>> read = new ArrayList<>();
                                        for (int i = from;
                                                i < Math.min(inputs.size(), from + threads);
                                                i++) {
                                            Path input = inputs.get(i);
                                            read.add(pool.submit(() -> records(input, settings)));
                                        }
                                        for (int k = 0; k < read.size(); k++) {
                                            long[][] found = done(read.get(k));
                                            for (int r = 0; r < found[0].length; r++) {
                                                long offset = found[0][r];
                                                entries.add(
                                                        found[1][r],
                                                        from + k,
                                                        offset,
                                                        offset,
                                                        offset);
                                            }
                                        }
                                    }
                                } finally {
                                    pool.shutdownNow();
                                }
                            },
                            scratch,
                            runLines,
                            line -> {
                                out.writeInt(line.input());
                                out.writeLong(line.start());
                            });
        }
        return new SortedLines.Result(
                records, 0, Files.size(index), (System.nanoTime() - start) / 1e9, true);
    }
}
