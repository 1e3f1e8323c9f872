package dev.neardup.io;

import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.impl.StreamFormatAdapter;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;

/**
 * A JSON Lines file read as parsed records: {@link JsonLinesFormat}'s lines, each parsed and
 * validated by a {@link DocumentParser} in the source, so documents leave the source with their
 * event times. Splittable as {@link JsonLinesFormat} is.
 *
 * <p>A line without {@code fetchedAt} takes its event time from {@link UndatedLines}: for a file or
 * standard input read to its end, its position in the input, so that "earlier" follows the input
 * and the same input gives the same outputs on every run, however the file is split and read.
 */
public class DocumentLinesFormat implements StreamFormat<ParsedRecord>, InputFormat {

    private static final long serialVersionUID = 1L;

    /** The event time of a line without {@code fetchedAt}. */
    public enum UndatedLines {
        /**
         * Its {@link RawRecord#position} as milliseconds after the epoch: line n of the input (the
         * lines of earlier inputs counted) is at 1970-01-01T00:00:00Z + n ms. So undated lines are
         * ordered by their place in the input, and before every dated one.
         */
        POSITION,
        /** The time it is read (a file watched as a live input). */
        READ_TIME
    }

    private final JsonLinesFormat lines;
    private final DocumentParser parser;
    private final UndatedLines undated;

    public DocumentLinesFormat(JsonLinesFormat lines, DocumentParser parser, UndatedLines undated) {
        this.lines = Objects.requireNonNull(lines, "lines");
        this.parser = Objects.requireNonNull(parser, "parser");
        this.undated = Objects.requireNonNull(undated, "undated");
    }

    /** This format's lines, counting the blank lines they skip in {@code counters}. */
    @Override
    public BulkFormat<ParsedRecord, FileSourceSplit> reader(SourceCounters counters) {
        return new StreamFormatAdapter<>(countingBlankLines(counters.blankLines()));
    }

    /**
     * Reads {@code file} outside a job: each line's record (blank lines skipped) and its parsed
     * form, an undated line at its position (its line number) whatever {@link UndatedLines} says.
     */
    @Override
    public void read(java.nio.file.Path file, RecordConsumer consumer) throws IOException {
        try (StreamFormat.Reader<RawRecord> reader =
                lines.createReader(
                        new Configuration(),
                        new org.apache.flink.core.fs.local.LocalDataInputStream(file.toFile()))) {
            RawRecord raw;
            while ((raw = reader.read()) != null) {
                consumer.accept(
                        raw, parser.parseRecord(raw, raw.position, System.currentTimeMillis()));
            }
        }
    }

    /**
     * Each line's event time as its parsed record would have it, read by {@link
     * DocumentParser#eventTime} (the fetch time only, other values skipped undecoded).
     */
    @Override
    public void eventTimes(FileSourceSplit split, java.util.function.LongConsumer times)
            throws IOException {
        InputFormat.forEachRecord(
                new StreamFormatAdapter<>(lines),
                split,
                raw -> {
                    long time = eventTime(raw);
                    if (time != Long.MIN_VALUE) {
                        times.accept(time);
                    }
                });
    }

    /** Where a line lies in its file, with its event time. */
    public interface LineIndex {
        /**
         * @param time its event time as {@link #eventTimes} tells it, or {@link Long#MIN_VALUE}
         *     when it has none (a record that is a dead letter)
         * @param line its line number in the file
         * @param start the offset of its first byte
         * @param end the offset after its line feed (or after its last byte, for a last line
         *     without one)
         */
        void accept(long time, long line, long start, long end);
    }

    /**
     * Each non-blank line of the local {@code file}, in order, with its event time and bytes, for a
     * copy in another order ({@link SortedLines}); returns the blank lines skipped.
     */
    public long index(java.nio.file.Path file, LineIndex index) throws IOException {
        SimpleCounter blank = new SimpleCounter();
        try (JsonLinesFormat.LineReader reader =
                lines.countingBlankLines(blank)
                        .lineReader(
                                new org.apache.flink.core.fs.local.LocalDataInputStream(
                                        file.toFile()))) {
            RawRecord raw;
            while ((raw = reader.read()) != null) {
                long time = eventTime(raw);
                index.accept(
                        time,
                        raw.position - lines.linesBefore(),
                        reader.lineStart(),
                        reader.lineEnd());
            }
        }
        return blank.getCount();
    }

    /** How record sources name the file, and the lines of the inputs before it. */
    public String name() {
        return lines.name();
    }

    /** The lines of the inputs before this file. */
    public long linesBefore() {
        return lines.linesBefore();
    }

    /**
     * A line's event time as its parsed record would have it, read by {@link
     * DocumentParser#eventTime}; {@link Long#MIN_VALUE} for none.
     */
    private long eventTime(RawRecord raw) {
        long now = System.currentTimeMillis();
        return parser.eventTime(raw, undatedTime(raw, now), now);
    }

    /** The event time of a line without {@code fetchedAt}, as {@link UndatedLines} says. */
    private long undatedTime(RawRecord raw, long now) {
        return undated == UndatedLines.POSITION ? raw.position : now;
    }

    /** This format, with readers that count the blank lines they skip in {@code counter}. */
    public DocumentLinesFormat countingBlankLines(Counter counter) {
        return new DocumentLinesFormat(lines.countingBlankLines(counter), parser, undated);
    }

    @Override
    public StreamFormat.Reader<ParsedRecord> createReader(
            Configuration config, FSDataInputStream stream, long fileLen, long splitEnd)
            throws IOException {
        return parsing(lines.createReader(config, stream, fileLen, splitEnd));
    }

    @Override
    public StreamFormat.Reader<ParsedRecord> restoreReader(
            Configuration config,
            FSDataInputStream stream,
            long restoredOffset,
            long fileLen,
            long splitEnd)
            throws IOException {
        return parsing(lines.restoreReader(config, stream, restoredOffset, fileLen, splitEnd));
    }

    @Override
    public boolean isSplittable() {
        return lines.isSplittable();
    }

    private StreamFormat.Reader<ParsedRecord> parsing(StreamFormat.Reader<RawRecord> reader) {
        return new StreamFormat.Reader<>() {
            @Override
            public ParsedRecord read() throws IOException {
                RawRecord raw = reader.read();
                if (raw == null) {
                    return null;
                }
                long now = System.currentTimeMillis();
                // What the parser throws is the record's dead letter (INTERNAL_ERROR).
                return parser.parseRecord(raw, undatedTime(raw, now), now);
            }

            @Override
            public void close() throws IOException {
                reader.close();
            }
        };
    }

    @Override
    public TypeInformation<ParsedRecord> getProducedType() {
        return TypeInformation.of(ParsedRecord.class);
    }
}
