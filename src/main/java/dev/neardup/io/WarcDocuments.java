package dev.neardup.io;

import dev.neardup.io.DeadLetter.Reason;
import dev.neardup.io.warc.ArchiveFormat;
import dev.neardup.io.warc.WarcDocument;
import dev.neardup.io.warc.WarcError;
import dev.neardup.io.warc.WarcOutcome;
import dev.neardup.io.warc.WarcReadSettings;
import dev.neardup.io.warc.WarcRecordReader;
import dev.neardup.io.warc.WarcSkip;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.ArrayResultIterator;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.core.fs.FSDataInputStream;

/**
 * WARC, WET and ARC files (plain or one gzip member per record) read as parsed records, through
 * {@link WarcRecordReader}: a document record becomes a {@link Document} checked as a JSON record's
 * fields are ({@link DocumentParser#validated}), a broken record a dead letter whose source is
 * {@code file@offset}; records that are no documents (requests, metadata, images, error pages,
 * revisits) are skipped and counted by reason in the source's metric {@link
 * SourceCounters#SKIPPED}. A gzip-compressed WARC file is cut into splits that start at records
 * ({@link #plan}), read in parallel; a plain or ARC file is one split. A split is read in file
 * order; a restored reader reads it again from its start and skips the records it had emitted.
 */
public final class WarcDocuments implements InputFormat {

    private static final long serialVersionUID = 1L;

    /** The reason under which identical-payload revisits are counted. */
    public static final String REVISIT = "IDENTICAL_REVISIT";

    /** Records handed to the source in one batch. */
    private static final int BATCH = 64;

    private final String file;
    private final DocumentParser parser;
    private final WarcReadSettings settings;

    /**
     * @param file the file's name, as sources name it
     * @param parser the checks of a document's fields (limits, times)
     * @param settings the id field and the payload limit
     */
    public WarcDocuments(String file, DocumentParser parser, WarcReadSettings settings) {
        this.file = Objects.requireNonNull(file, "file");
        this.parser = Objects.requireNonNull(parser, "parser");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** How records are read: the id field and the payload limit. */
    public WarcReadSettings settings() {
        return settings;
    }

    @Override
    public BulkFormat<ParsedRecord, FileSourceSplit> reader(SourceCounters counters) {
        return new Bulk(this, counters);
    }

    /**
     * Reads the WARC file {@code file} outside a job, as the job's source reads it: each document
     * and dead letter in file order, with a record whose payload is the document as a JSON line
     * ({@code id}, {@code url}, {@code content}, {@code contentType}, {@code fetchedAt}: the line
     * that gives the same document as JSON Lines), empty for a dead letter.
     */
    public void read(java.nio.file.Path file, RecordConsumer consumer) throws IOException {
        try (WarcRecordReader records = WarcRecordReader.open(file, settings)) {
            WarcOutcome o;
            while ((o = records.read()) != null) {
                ParsedRecord r = parsed(o, System.currentTimeMillis(), reason -> {});
                if (r == null) {
                    continue;
                }
                RawRecord raw = new RawRecord(new byte[0], o.source());
                if (r.document != null) {
                    Document d = r.document;
                    Map<String, Object> json = new java.util.LinkedHashMap<>();
                    json.put("id", d.id);
                    json.put("url", d.url);
                    json.put("content", d.content);
                    json.put("contentType", d.contentType);
                    json.put("fetchedAt", Json.isoTime(d.eventTime));
                    raw =
                            new RawRecord(
                                    Json.write(json)
                                            .getBytes(java.nio.charset.StandardCharsets.UTF_8),
                                    o.source());
                }
                consumer.accept(raw, r);
            }
        }
    }

    /**
     * The splits of the local WARC file {@code file} for {@code parallelism} readers, of about
     * {@code configured} bytes (or as {@link LineSplits#plan} sizes them when it is null), each
     * starting at a record; null (one split) for a file that is not gzip-compressed WARC, whose
     * record starts could be imitated by a payload, and for ARC files.
     */
    public static LineSplits plan(java.nio.file.Path file, MemorySize configured, int parallelism)
            throws IOException {
        if (ArchiveFormat.detect(file).filter(f -> f.isGzip() && !f.isArc()).isEmpty()) {
            return null;
        }
        long size = java.nio.file.Files.size(file);
        long target =
                Math.max(
                        LineSplits.MIN_SPLIT_BYTES,
                        LineSplits.splitSize(configured, size, parallelism));
        java.util.List<Long> starts = new java.util.ArrayList<>();
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file)) {
            for (long at = target; at < size; ) {
                long start = WarcRecordReader.recordStart(channel, at);
                if (start < 0) {
                    break;
                }
                if (start > 0 && (starts.isEmpty() || start > starts.get(starts.size() - 1))) {
                    starts.add(start);
                }
                at = Math.max(at, start) + target;
            }
        }
        return starts.isEmpty() ? null : LineSplits.atOffsets(file, starts);
    }

    /**
     * The {@code WARC-Date}s of the split's response, resource and conversion records, from their
     * headers alone; a split the header scan cannot read through (a broken record, an ARC file) is
     * read with the reader instead.
     */
    @Override
    public void eventTimes(FileSourceSplit split, LongConsumer times) throws IOException {
        long[] dates = new long[1024];
        int[] n = {0};
        try (FSDataInputStream in = split.path().getFileSystem().open(split.path())) {
            in.seek(split.offset());
            long[][] grown = {dates};
            WarcRecordReader.documentDates(
                    new StreamChannel(in, split.fileSize(), true),
                    split.offset() + split.length(),
                    t -> {
                        if (n[0] == grown[0].length) {
                            grown[0] = java.util.Arrays.copyOf(grown[0], n[0] * 2);
                        }
                        grown[0][n[0]++] = t;
                    });
            dates = grown[0];
        } catch (IOException | RuntimeException e) {
            InputFormat.super.eventTimes(split, times);
            return;
        }
        for (int i = 0; i < n[0]; i++) {
            times.accept(dates[i]);
        }
    }

    /** The parsed record of an outcome; null for a skipped one, told to {@code skip}. */
    ParsedRecord parsed(WarcOutcome outcome, long now, Consumer<String> skip) {
        return parsed(parser, outcome, new RawRecord(new byte[0], outcome.source()), now, skip);
    }

    /**
     * The parsed record of an outcome read from {@code raw} (a file's record: no payload, {@code
     * file@offset}; a Kafka message: its value and coordinates), checked by {@code parser}; null
     * for a skipped one, whose reason is told to {@code skip}. Files and Kafka messages both go
     * through here.
     */
    static ParsedRecord parsed(
            DocumentParser parser,
            WarcOutcome outcome,
            RawRecord raw,
            long now,
            Consumer<String> skip) {
        if (outcome instanceof WarcDocument d) {
            return parser.validated(
                    raw,
                    d.id(),
                    d.url(),
                    d.content(),
                    d.contentType(),
                    d.fetchedAt(),
                    "WARC-Date",
                    now);
        }
        if (outcome instanceof WarcError e) {
            return new ParsedRecord(
                    null,
                    DocumentParser.deadLetter(raw, reason(e.reason()), message(e), null, now));
        }
        skip.accept(outcome instanceof WarcSkip s ? s.reason().name() : REVISIT);
        return null;
    }

    private static Reason reason(WarcError.Reason r) {
        return switch (r) {
            case TOO_LARGE -> Reason.TOO_LARGE;
            case BAD_FIELD -> Reason.BAD_FIELD;
            default -> Reason.MALFORMED_RECORD;
        };
    }

    /** "REASON: message (url)", the url cut at 200 characters. */
    private static String message(WarcError e) {
        String url = e.url();
        if (url == null) {
            return e.reason() + ": " + e.message();
        }
        return e.reason()
                + ": "
                + e.message()
                + " ("
                + (url.length() > 200 ? url.substring(0, 197) + "..." : url)
                + ")";
    }

    /**
     * Reads a split as batches of parsed records ({@link WarcReader}) over the outcomes that {@link
     * #outcomes} makes of the split's file, opened as it is stored (a file source would undo a
     * {@code .gz} file's compression, and with it the record offsets) at the split's start. A
     * restored reader reads the split again and skips the records it had emitted before the
     * checkpoint.
     */
    abstract static class SplitBulk implements BulkFormat<ParsedRecord, FileSourceSplit> {
        private static final long serialVersionUID = 1L;
        private final WarcDocuments parsing;
        private final transient SourceCounters counters;

        /**
         * @param parsing the checks of a document's fields, for every outcome
         */
        SplitBulk(WarcDocuments parsing, SourceCounters counters) {
            this.parsing = parsing;
            this.counters = counters;
        }

        /** The outcomes of {@code split}, whose file {@code in} is at the split's start. */
        abstract Outcomes outcomes(FileSourceSplit split, FSDataInputStream in) throws IOException;

        @Override
        public BulkFormat.Reader<ParsedRecord> createReader(
                Configuration config, FileSourceSplit split) throws IOException {
            return restoreReader(config, split);
        }

        @Override
        public BulkFormat.Reader<ParsedRecord> restoreReader(
                Configuration config, FileSourceSplit split) throws IOException {
            long emitted =
                    split.getReaderPosition()
                            .map(CheckpointedPosition::getRecordsAfterOffset)
                            .orElse(0L);
            FSDataInputStream in = split.path().getFileSystem().open(split.path());
            Outcomes outcomes;
            try {
                in.seek(split.offset());
                outcomes = outcomes(split, in);
            } catch (IOException | RuntimeException e) {
                in.close();
                throw e;
            }
            return new WarcReader(parsing, outcomes, emitted, counters);
        }

        @Override
        public boolean isSplittable() {
            return false;
        }

        @Override
        public TypeInformation<ParsedRecord> getProducedType() {
            return TypeInformation.of(ParsedRecord.class);
        }
    }

    /** Reads a file's records from the split's start to its end. */
    private static final class Bulk extends SplitBulk {
        private static final long serialVersionUID = 1L;
        private final WarcDocuments format;

        Bulk(WarcDocuments format, SourceCounters counters) {
            super(format, counters);
            this.format = format;
        }

        @Override
        Outcomes outcomes(FileSourceSplit split, FSDataInputStream in) {
            WarcRecordReader records =
                    new WarcRecordReader(
                                    new StreamChannel(in, split.fileSize(), true),
                                    format.file,
                                    format.settings)
                            .until(split.offset() + split.length());
            return new Outcomes() {
                @Override
                public WarcOutcome read() {
                    return records.read();
                }

                @Override
                public void close() throws IOException {
                    records.close();
                }
            };
        }
    }

    /** The outcomes a reader batches: a file's records, or an index's. */
    interface Outcomes extends java.io.Closeable {
        /** The next outcome, or null at the end. */
        WarcOutcome read() throws IOException;
    }

    /**
     * The reader of the one record at {@code offset} of this format's file, open as {@code in} (of
     * {@code size} bytes), which the reader leaves open.
     */
    WarcRecordReader recordAt(FSDataInputStream in, long size, long offset) throws IOException {
        StreamChannel channel = new StreamChannel(in, size, false);
        channel.position(offset);
        return new WarcRecordReader(channel, file, settings).until(offset + 1);
    }

    /**
     * Batches of parsed records (a file's, or an index's), after skipping those emitted before a
     * restore.
     */
    static final class WarcReader implements BulkFormat.Reader<ParsedRecord> {
        private final WarcDocuments format;
        private final Outcomes records;
        private final SourceCounters counters;
        private long emitted;
        private long toSkip;

        WarcReader(WarcDocuments format, Outcomes records, long toSkip, SourceCounters counters) {
            this.format = format;
            this.records = records;
            this.toSkip = toSkip;
            this.counters = counters;
        }

        @Override
        public BulkFormat.RecordIterator<ParsedRecord> readBatch() throws IOException {
            ParsedRecord[] batch = new ParsedRecord[BATCH];
            int n = 0;
            WarcOutcome o;
            while (n < BATCH && (o = records.read()) != null) {
                // A re-read after a restore counts its skips again.
                ParsedRecord r = format.parsed(o, System.currentTimeMillis(), this::skip);
                if (r == null) {
                    continue;
                }
                if (toSkip > 0) {
                    toSkip--;
                    emitted++;
                    continue;
                }
                batch[n++] = r;
            }
            if (n == 0) {
                return null;
            }
            ArrayResultIterator<ParsedRecord> out = new ArrayResultIterator<>();
            out.set(batch, n, CheckpointedPosition.NO_OFFSET, emitted);
            emitted += n;
            return out;
        }

        /** Counts a skipped record by reason (one re-read after a restore counts again). */
        private void skip(String reason) {
            counters.skipped(reason).inc();
        }

        @Override
        public void close() throws IOException {
            records.close();
        }
    }

    /** A Flink input stream as the seekable channel that {@link WarcRecordReader} reads. */
    static final class StreamChannel implements SeekableByteChannel {
        private final FSDataInputStream in;
        private final long size;
        private final boolean closesStream;
        private boolean open = true;

        /**
         * @param closesStream whether closing the channel closes {@code in}
         */
        StreamChannel(FSDataInputStream in, long size, boolean closesStream) {
            this.in = in;
            this.size = size;
            this.closesStream = closesStream;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (!dst.hasRemaining()) {
                return 0;
            }
            int n;
            if (dst.hasArray()) {
                n = in.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
                if (n > 0) {
                    dst.position(dst.position() + n);
                }
            } else {
                byte[] b = new byte[Math.min(dst.remaining(), 64 * 1024)];
                n = in.read(b, 0, b.length);
                if (n > 0) {
                    dst.put(b, 0, n);
                }
            }
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            throw new NonWritableChannelException();
        }

        @Override
        public long position() throws IOException {
            return in.getPos();
        }

        @Override
        public SeekableByteChannel position(long newPosition) throws IOException {
            in.seek(newPosition);
            return this;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new NonWritableChannelException();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() throws IOException {
            open = false;
            if (closesStream) {
                in.close();
            }
        }
    }
}
