package dev.neardup.io;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A copy of JSON Lines inputs with their lines in the order of their event times, for a run over an
 * input far out of fetch order: read in this order, the input has no disorder, so its pages go
 * through the job as it is read instead of waiting for its end.
 *
 * <p>An index of every line (event time, input, line number, bytes) is sorted by event time, then
 * input order, with bounded memory: runs of {@link #RUN_LINES} lines are sorted in memory and
 * written out, then merged (external merge sort, Knuth, The Art of Computer Programming vol. 3,
 * section 5.4.1). The lines are then copied in that order, each prefixed with its input and line
 * number ({@link JsonLinesFormat#copied}), so that every record keeps the name, line number and
 * place of its original line: its sources, dead letters and the event time of an undated line are
 * those of the input as given. The blank lines of the inputs come first, as blank lines, so that
 * the run counts them. A line without an event time (a dead letter) comes before every dated one.
 */
public final class SortedLines {

    /** Lines sorted in memory at once (about 64 bytes each on the heap, 44 in a run's file). */
    static final int RUN_LINES = 1 << 20;

    private SortedLines() {}

    /**
     * What sorting did.
     *
     * @param lines the non-blank lines copied (WARC: the records indexed)
     * @param blankLines the blank lines (copied first)
     * @param bytes the size of the copy (WARC: of the index)
     * @param seconds how long indexing, sorting and copying took
     * @param inPlace whether the job reads the records in their inputs, in the order of an index
     *     ({@link SortedRecords}), instead of a copy
     */
    public record Result(
            long lines, long blankLines, long bytes, double seconds, boolean inPlace) {}

    /** One line of an input, where it lies and when it was fetched. */
    record Line(long time, long seq, int input, long number, long start, long end) {
        static final Comparator<Line> ORDER =
                Comparator.comparingLong(Line::time).thenComparingLong(Line::seq);
    }

    /**
     * Writes to {@code copy} the lines of the local JSON Lines files {@code inputs} (each read with
     * its format) in the order of their event times; the sorted runs of a large input go to {@code
     * scratch} meanwhile.
     */
    public static Result write(
            List<Path> inputs, List<DocumentLinesFormat> formats, Path copy, Path scratch)
            throws IOException {
        return write(inputs, formats, copy, scratch, RUN_LINES);
    }

    /** As {@link #write}, with sorted runs of {@code runLines} lines. */
    static Result write(
            List<Path> inputs,
            List<DocumentLinesFormat> formats,
            Path copy,
            Path scratch,
            int runLines)
            throws IOException {
        if (inputs.size() != formats.size()) {
            throw new IllegalArgumentException("one format per input");
        }
        long start = System.nanoTime();
        long[] blank = {0};
        Files.createDirectories(scratch);
        try (Copier copier = new Copier(inputs, copy)) {
            long lines =
                    sort(
                            entries -> {
                                for (int i = 0; i < inputs.size(); i++) {
                                    int input = i;
                                    blank[0] +=
                                            formats.get(i)
                                                    .index(
                                                            inputs.get(i),
                                                            (time, number, from, to) ->
                                                                    entries.add(
                                                                            time, input, number,
                                                                            from, to));
                                }
                                // Blank lines come first, as blank lines: the run counts them.
                                for (long b = 0; b < blank[0]; b++) {
                                    copier.blankLine();
                                }
                            },
                            scratch,
                            runLines,
                            copier::copy);
            copier.close();
            return new Result(
                    lines, blank[0], Files.size(copy), (System.nanoTime() - start) / 1e9, false);
        }
    }

    /** Takes the lines of an index: when each was fetched, and where it lies. */
    @FunctionalInterface
    interface Entries {
        void add(long time, int input, long number, long start, long end);
    }

    /** Adds every line of some inputs to {@link Entries}. */
    @FunctionalInterface
    interface Indexer {
        void index(Entries entries) throws IOException;
    }

    /** Takes the lines in order. */
    @FunctionalInterface
    interface LineSink {
        void accept(Line line) throws IOException;
    }

    /**
     * Hands {@code sink} the lines that {@code indexer} adds, in the order (time, order added),
     * holding at most {@code runLines} of them in memory: the rest are sorted in runs under {@code
     * scratch} and merged. Returns how many lines there were.
     */
    static long sort(Indexer indexer, Path scratch, int runLines, LineSink sink)
            throws IOException {
        Files.createDirectories(scratch);
        List<Path> runs = new ArrayList<>();
        List<Line> run = new ArrayList<>();
        long[] seq = {0};
        try {
            try {
                indexer.index(
                        (time, input, number, from, to) -> {
                            run.add(new Line(time, seq[0]++, input, number, from, to));
                            if (run.size() == runLines) {
                                runs.add(spill(run, scratch, runs.size()));
                            }
                        });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            if (runs.isEmpty()) {
                run.sort(Line.ORDER);
                for (Line line : run) {
                    sink.accept(line);
                }
            } else {
                if (!run.isEmpty()) {
                    runs.add(spillOrThrow(run, scratch, runs.size()));
                }
                merge(runs, sink);
            }
            return seq[0];
        } finally {
            for (Path r : runs) {
                Files.deleteIfExists(r);
            }
        }
    }

    /** Sorts {@code run}, writes it to a file under {@code scratch} and empties it. */
    private static Path spill(List<Line> run, Path scratch, int index) {
        try {
            return spillOrThrow(run, scratch, index);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path spillOrThrow(List<Line> run, Path scratch, int index) throws IOException {
        run.sort(Line.ORDER);
        Path file = scratch.resolve("sort-run-" + index);
        try (DataOutputStream out =
                new DataOutputStream(
                        new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
            for (Line line : run) {
                out.writeLong(line.time());
                out.writeLong(line.seq());
                out.writeInt(line.input());
                out.writeLong(line.number());
                out.writeLong(line.start());
                out.writeLong(line.end());
            }
        }
        run.clear();
        return file;
    }

    /** Hands {@code sink} the lines of the sorted {@code runs} in their merged order. */
    private static void merge(List<Path> runs, LineSink sink) throws IOException {
        record Head(Line line, DataInputStream in) {}
        PriorityQueue<Head> heads =
                new PriorityQueue<>(Comparator.comparing(Head::line, Line.ORDER));
        List<DataInputStream> open = new ArrayList<>();
        try {
            for (Path r : runs) {
                DataInputStream in =
                        new DataInputStream(
                                new BufferedInputStream(Files.newInputStream(r), 1 << 16));
                open.add(in);
                Line first = next(in);
                if (first != null) {
                    heads.add(new Head(first, in));
                }
            }
            while (!heads.isEmpty()) {
                Head head = heads.poll();
                sink.accept(head.line());
                Line next = next(head.in());
                if (next != null) {
                    heads.add(new Head(next, head.in()));
                }
            }
        } finally {
            for (DataInputStream in : open) {
                in.close();
            }
        }
    }

    private static Line next(DataInputStream in) throws IOException {
        long time;
        try {
            time = in.readLong();
        } catch (EOFException end) {
            return null;
        }
        return new Line(
                time, in.readLong(), in.readInt(), in.readLong(), in.readLong(), in.readLong());
    }

    /** Writes the copy: each line read from its input at its offset, after its prefix. */
    private static final class Copier implements AutoCloseable {
        private final List<Path> inputs;
        private final OutputStream out;
        private final OpenInputs<FileChannel> channels;
        private ByteBuffer buffer = ByteBuffer.allocate(1 << 16);

        Copier(List<Path> inputs, Path copy) throws IOException {
            this.inputs = inputs;
            this.channels =
                    new OpenInputs<>(
                            input -> FileChannel.open(inputs.get(input), StandardOpenOption.READ));
            this.out =
                    new BufferedOutputStream(
                            Files.newOutputStream(
                                    copy,
                                    StandardOpenOption.CREATE,
                                    StandardOpenOption.TRUNCATE_EXISTING,
                                    StandardOpenOption.WRITE),
                            1 << 20);
        }

        void blankLine() throws IOException {
            out.write('\n');
        }

        void copy(Line line) throws IOException {
            byte[] prefix =
                    (line.input() + "," + line.number() + "\t").getBytes(StandardCharsets.US_ASCII);
            out.write(prefix);
            FileChannel channel = channels.get(line.input());
            long position = line.start();
            int last = -1;
            while (position < line.end()) {
                buffer.clear();
                buffer.limit((int) Math.min(buffer.capacity(), line.end() - position));
                int n = channel.read(buffer, position);
                if (n < 0) {
                    throw new IOException(
                            inputs.get(line.input()) + " changed while it was being sorted");
                }
                out.write(buffer.array(), 0, n);
                last = buffer.array()[n - 1];
                position += n;
            }
            if (last != '\n') {
                out.write('\n'); // the input's last line, without a line feed
            }
        }

        @Override
        public void close() throws IOException {
            try {
                out.close();
            } finally {
                channels.close();
                buffer = null;
            }
        }
    }
}
