package dev.neardup.io;

import dev.neardup.io.warc.ArchiveFormat;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;

/**
 * A file format of the job's input: it reads {@link ParsedRecord}s (documents, deletions and dead
 * letters, parsed in the source so that they leave it with their event times) as a Flink bulk
 * format of file splits, whose readers count what they skip in the source's metrics. JSON Lines
 * ({@link DocumentLinesFormat}) and WARC, WET and ARC ({@link WarcDocuments}) are the two; the
 * input settings pick one for a file ({@code InputSettings.format}), and {@link InputFiles} reads
 * many files, each with its own.
 */
public interface InputFormat extends java.io.Serializable {

    /** Which format a file is read with. */
    enum Kind {
        /** WARC for a file named or starting as a WARC, WET or ARC file; else JSON Lines. */
        AUTO,
        /** JSON Lines: one JSON object per line. */
        JSON_LINES,
        /** WARC, WET or ARC records, plain or gzip-compressed. */
        WARC
    }

    /** The file reader of this format, counting what it skips in {@code counters}. */
    BulkFormat<ParsedRecord, FileSourceSplit> reader(SourceCounters counters);

    /**
     * Tells {@code times} the event time of every record of {@code split} that can become a
     * document or deletion (more is allowed, never fewer): what {@link InputOrder} measures the
     * input's disorder on. By default, the split's parsed records.
     */
    default void eventTimes(FileSourceSplit split, java.util.function.LongConsumer times)
            throws java.io.IOException {
        forEachRecord(
                reader(SourceCounters.NONE),
                split,
                r -> {
                    if (r.deadLetter == null) {
                        times.accept(r.eventTime());
                    }
                });
    }

    /** Reads every record of {@code split} with {@code format}, outside a job, in split order. */
    static <T> void forEachRecord(
            BulkFormat<T, FileSourceSplit> format,
            FileSourceSplit split,
            java.util.function.Consumer<T> each)
            throws java.io.IOException {
        try (BulkFormat.Reader<T> reader =
                format.createReader(new org.apache.flink.configuration.Configuration(), split)) {
            BulkFormat.RecordIterator<T> batch;
            while ((batch = reader.readBatch()) != null) {
                org.apache.flink.connector.file.src.util.RecordAndPosition<T> r;
                while ((r = batch.next()) != null) {
                    each.accept(r.getRecord());
                }
                batch.releaseBatch();
            }
        }
    }

    /**
     * Reads the local file {@code file} outside a job (the tools), as the job's source reads it:
     * each record that is not skipped, in file order, with its parsed form.
     */
    void read(java.nio.file.Path file, RecordConsumer consumer) throws java.io.IOException;

    /** Takes a record as read (for WARC, the document as a JSON line) and its parsed form. */
    @FunctionalInterface
    interface RecordConsumer {
        void accept(RawRecord raw, ParsedRecord parsed) throws java.io.IOException;
    }

    /**
     * Whether the input {@code name} is read as WARC records: as {@code kind} says, or for {@link
     * Kind#AUTO} by its name, or by its first bytes when it is a local file ({@code local}, else
     * null).
     */
    static boolean isArchive(Kind kind, String name, java.nio.file.Path local)
            throws java.io.IOException {
        if (kind != Kind.AUTO) {
            return kind == Kind.WARC;
        }
        return ArchiveFormat.fromFileName(name).isPresent()
                || (local != null
                        && java.nio.file.Files.isRegularFile(local)
                        && ArchiveFormat.detect(local).isPresent());
    }
}
