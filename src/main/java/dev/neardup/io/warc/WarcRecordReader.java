package dev.neardup.io.warc;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.zip.ZipException;
import org.netpreserve.jwarc.MessageBody;
import org.netpreserve.jwarc.ParsingException;
import org.netpreserve.jwarc.WarcCompression;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;

/**
 * Reads a WARC file (ISO 28500:2017, WARC 1.1, and 1.0; WET files are WARC), or an ARC file, plain
 * or gzip-compressed, as a sequence of {@link WarcOutcome}s: one per record, in file order, each a
 * {@link WarcDocument}, a {@link WarcSkip}, an {@link IdenticalRevisit} or a {@link WarcError};
 * bytes between records that are no record are one {@link WarcError} too. jwarc reads the records;
 * this class decides what each one is and goes on after broken input.
 *
 * <p>Bad input never ends the iteration and never costs a good record: after a record that cannot
 * be read (the file ends inside it, its block is not as long as its {@code Content-Length} says,
 * its gzip member does not inflate, its header does not parse), reading goes on at the next place
 * where a record starts ({@link RecordStarts}): a {@code WARC/1.x} header (or an ARC header line)
 * in a plain file, a gzip member in a compressed one. A record's outcome is handed out only once
 * the next record's header was read, because only then is it known that its block ended where its
 * {@code Content-Length} said. Only an I/O error of the channel itself is thrown, as an {@link
 * UncheckedIOException}.
 *
 * <p>Not thread-safe. Offsets are positions in the channel: to start at a record's offset (to
 * resume), position the channel there before making the reader.
 *
 * <p>Design: docs/design/warc-input.md.
 */
public final class WarcRecordReader implements Iterator<WarcOutcome>, Closeable {

    /**
     * History kept from a forward-only input beyond the largest block read: the search for the next
     * record reads ahead in windows and checks candidates.
     */
    private static final long HISTORY_SLACK = 1024 * 1024;

    /** What jwarc says when a record's block is not followed by {@code CRLF CRLF}. */
    private static final String INVALID_TRAILER = "invalid record trailer";

    private final SourceChannel channel;
    private final SeekableByteChannel source;
    private final String file;

    /** What messages call the input: "file", or "message" for records that came without one. */
    private final String input;

    private final WarcReadSettings settings;
    private final RecordConverter converter;
    private final ArrayDeque<WarcOutcome> ready = new ArrayDeque<>();
    private WarcReader reader;
    private boolean gzip;
    private boolean done;

    /** Records that start at or after this offset are not read ({@link #until}). */
    private long end = Long.MAX_VALUE;

    /** Whether the file holds ARC records (seen so far): their header lines are record starts. */
    private boolean arc;

    /** Set by jwarc's warnings while it reads the next record. */
    private boolean invalidTrailer;

    /** The outcome of the last record read, until the next record's header confirms its end. */
    private Pending pending;

    private record Pending(WarcOutcome outcome, long offset, String url, long blockLength) {}

    /**
     * A reader of {@code channel} from its current position.
     *
     * @param file the file's name, for {@link WarcOutcome#source()}
     * @throws UncheckedIOException when the channel cannot be read
     */
    public WarcRecordReader(SeekableByteChannel channel, String file, WarcReadSettings settings) {
        this(channel, file, "file", settings);
    }

    private WarcRecordReader(
            SeekableByteChannel channel, String file, String input, WarcReadSettings settings) {
        this.input = input;
        this.source = Objects.requireNonNull(channel, "channel");
        this.channel = new SourceChannel(source);
        this.file = Objects.requireNonNull(file, "file");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.converter = new RecordConverter(settings, file);
        long start = 0;
        try {
            start = this.channel.position();
            arc = sniffArc(start);
            open();
        } catch (IOException e) {
            rethrowSourceError(e);
            // One byte: too short to be anything.
            ready.add(
                    new WarcError(
                            WarcError.Reason.TRUNCATED,
                            "the " + input + " ends after one byte",
                            null,
                            file,
                            start));
            done = true;
        }
    }

    /**
     * A reader of a forward-only input (standard input, a pipe), named {@code file}, positions
     * counted from its first byte. To go on after broken input it goes back into the bytes it read:
     * it keeps the last {@link WarcReadSettings#maxPayloadBytes()} plus 1 MiB of them (and no
     * record it reads in full is larger), so it reads such input as a file is read, unless a broken
     * record (one whose block is not read: a skipped or too large one) is larger.
     */
    public static WarcRecordReader fromStream(
            InputStream in, String file, WarcReadSettings settings) {
        int history = (int) (settings.maxBlockBytes() + HISTORY_SLACK);
        return new WarcRecordReader(
                new RewindableChannel(Channels.newChannel(in), history), file, settings);
    }

    /**
     * A reader of records held in memory without a file around them (a Kafka message value: one
     * record, or several, each plain or a gzip member), named {@code name}; offsets are positions
     * in {@code bytes}, and messages call the input "the message".
     */
    public static WarcRecordReader ofMessage(byte[] bytes, String name, WarcReadSettings settings) {
        return new WarcRecordReader(new ByteChannels.InMemory(bytes), name, "message", settings);
    }

    /** A reader of the file at {@code path}, named by its file name. */
    public static WarcRecordReader open(Path path, WarcReadSettings settings) throws IOException {
        FileChannel channel = FileChannel.open(path);
        try {
            return new WarcRecordReader(channel, String.valueOf(path.getFileName()), settings);
        } catch (RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Whether the file starts as an ARC file does; leaves the channel where it was. */
    private boolean sniffArc(long start) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(ArchiveFormat.SNIFF_BYTES);
        while (head.hasRemaining() && channel.read(head) >= 0) {
            // fill
        }
        channel.position(start);
        return ArchiveFormat.sniff(java.util.Arrays.copyOf(head.array(), head.position()))
                .map(ArchiveFormat::isArc)
                .orElse(false);
    }

    private void open() throws IOException {
        reader = new WarcReader(channel);
        reader.setLenient(true);
        reader.onWarning(
                warning -> {
                    if (warning.startsWith(INVALID_TRAILER)) {
                        invalidTrailer = true;
                    }
                });
        gzip = reader.compression() == WarcCompression.GZIP;
    }

    @Override
    public boolean hasNext() {
        while (ready.isEmpty() && !done) {
            step();
        }
        return !ready.isEmpty();
    }

    @Override
    public WarcOutcome next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.poll();
    }

    /**
     * Reads only the records that start before {@code end}: a split of a file, whose next split
     * starts at a record start ({@link #recordStart}) at or after it. Returns this reader.
     */
    public WarcRecordReader until(long end) {
        this.end = end;
        return this;
    }

    /**
     * The offset of the first record at or after {@code from} in the gzip-compressed WARC file
     * {@code channel} (one gzip member per record), or -1 when none follows: where a split of the
     * file can start.
     */
    public static long recordStart(SeekableByteChannel channel, long from) throws IOException {
        return RecordStarts.find(channel, from, true, false);
    }

    /**
     * Tells {@code dates} the {@code WARC-Date} of every response, resource and conversion record
     * of a WARC file (plain or gzip) that starts before {@code end}, from the channel's position,
     * reading record headers only: more records than become documents (pages that are skipped too),
     * never fewer. Throws on anything it cannot read (a broken record, an ARC file), for the caller
     * to read the split with a reader, which goes on after broken records.
     */
    public static void documentDates(SeekableByteChannel channel, long end, LongConsumer dates)
            throws IOException {
        WarcReader reader = new WarcReader(channel);
        Optional<WarcRecord> next;
        while ((next = reader.next()).isPresent()) {
            if (reader.position() >= end) {
                return;
            }
            WarcRecord r = next.get();
            if (!"WARC".equals(r.version().getProtocol())) {
                throw new IOException("not a WARC record: " + r.version());
            }
            switch (r.type()) {
                case "response", "resource", "conversion" -> dates.accept(r.date().toEpochMilli());
                default -> {}
            }
        }
    }

    /** Takes a record's offset and its {@code WARC-Date}. */
    @FunctionalInterface
    public interface RecordDate {
        void accept(long offset, long dateMillis);
    }

    /**
     * Tells {@code dates} the offset and {@code WARC-Date} of every record of a WARC file (plain or
     * gzip), from the channel's position to its end, reading record headers only: where a reader
     * placed at each offset finds each record ({@link #until} the next byte). Throws on anything it
     * cannot read (a broken record, an ARC file).
     */
    public static void recordDates(SeekableByteChannel channel, RecordDate dates)
            throws IOException {
        WarcReader reader = new WarcReader(channel);
        Optional<WarcRecord> next;
        while ((next = reader.next()).isPresent()) {
            WarcRecord r = next.get();
            if (!"WARC".equals(r.version().getProtocol())) {
                throw new IOException("not a WARC record: " + r.version());
            }
            dates.accept(reader.position(), r.date().toEpochMilli());
        }
    }

    /** The next outcome, or null at the end of the file. */
    public WarcOutcome read() {
        return hasNext() ? ready.poll() : null;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** Reads the next record's header, confirming the pending record, and reads the record. */
    private void step() {
        invalidTrailer = false;
        Optional<WarcRecord> next;
        try {
            next = reader.next();
        } catch (IOException | RuntimeException e) {
            rethrowSourceError(e);
            nextFailed(e);
            return;
        }
        if (pending != null) {
            ready.add(pending.outcome());
            pending = null;
        }
        if (next.isEmpty() || reader.position() >= end) {
            done = true; // the end of the file, or of its split
            return;
        }
        read(next.get(), reader.position());
    }

    private void read(WarcRecord record, long offset) {
        arc |= "ARC".equals(record.version().getProtocol());
        Object decided = converter.beforeBlock(record, offset);
        long length = blockLength(record.body());
        if (decided instanceof WarcOutcome outcome) {
            pending = new Pending(outcome, offset, url(outcome), length);
            return;
        }
        RecordConverter.Header header = (RecordConverter.Header) decided;
        boolean tooLarge = length > settings.maxBlockBytes();
        byte[] block;
        try {
            block = readBlock(record.body(), tooLarge ? WarcReadSettings.HEADER_ALLOWANCE : length);
        } catch (IOException | RuntimeException e) {
            rethrowSourceError(e);
            // The file is broken inside this record: go on at the next record after its start.
            resync(offset + 1, reason(e), message(e, offset, length), header.url(), offset);
            return;
        }
        WarcOutcome outcome =
                tooLarge
                        ? converter.tooLarge(header, block, length)
                        : converter.fromBlock(header, block);
        pending = new Pending(outcome, offset, header.url(), length);
    }

    /** jwarc could not read the next record's header, or not skip the pending record's block. */
    private void nextFailed(Exception e) {
        long position = reader.position();
        if (pending != null && (position == pending.offset() || invalidTrailer)) {
            // The pending record itself is broken: its block did not end where its
            // Content-Length said, or (in a gzip member) it could not be skipped.
            Pending p = pending;
            pending = null;
            if (position == p.offset()) {
                resync(
                        p.offset() + 1,
                        reason(e),
                        message(e, p.offset(), p.blockLength()),
                        p.url(),
                        p.offset());
            } else {
                resync(
                        p.offset() + 1,
                        WarcError.Reason.BAD_LENGTH,
                        "the block does not end after the "
                                + p.blockLength()
                                + " bytes its header announces: no record end follows",
                        p.url(),
                        p.offset());
            }
            return;
        }
        if (pending != null) {
            ready.add(pending.outcome());
            pending = null;
        }
        resync(position + 1, reason(e), message(e, position, -1), null, position);
    }

    /**
     * Reports the error at {@code offset} and goes on at the first record that starts at or after
     * {@code from}; the end when there is none.
     */
    private void resync(
            long from, WarcError.Reason reason, String message, String url, long offset) {
        long next;
        try {
            if (source instanceof RewindableChannel stream) {
                // Bytes that are gone cannot be searched: from the first that is kept.
                from = Math.max(from, stream.earliest() + 1);
            }
            next = RecordStarts.find(channel, from, gzip, arc);
        } catch (IOException e) {
            rethrowSourceError(e);
            next = -1;
        }
        String where =
                next < 0
                        ? "; no record follows in the " + input
                        : "; reading goes on at the next record, at offset " + next;
        ready.add(new WarcError(reason, message + where, url, file, offset));
        if (next < 0 || next >= end) {
            done = true;
            return;
        }
        try {
            reader.position(next);
        } catch (IOException e) {
            rethrowSourceError(e);
            throw new UncheckedIOException(e);
        }
    }

    /** Reads up to {@code length} bytes of the block: all of them, unless the block is shorter. */
    private static byte[] readBlock(MessageBody body, long length) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) Math.min(length, Integer.MAX_VALUE - 8));
        while (buf.hasRemaining()) {
            int n = body.read(buf);
            if (n < 0) {
                break;
            }
        }
        return buf.position() == buf.capacity()
                ? buf.array()
                : java.util.Arrays.copyOf(buf.array(), buf.position());
    }

    private static long blockLength(MessageBody body) {
        try {
            return body.size();
        } catch (IOException e) {
            return -1;
        }
    }

    private static WarcError.Reason reason(Exception e) {
        if (e instanceof ParsingException) {
            return WarcError.Reason.MALFORMED_HEADER;
        }
        if (e instanceof EOFException) {
            return WarcError.Reason.TRUNCATED;
        }
        if (e instanceof ZipException) {
            return WarcError.Reason.CORRUPT_GZIP;
        }
        return WarcError.Reason.MALFORMED_HEADER;
    }

    private String message(Exception e, long offset, long blockLength) {
        String detail =
                e instanceof ParsingException p ? p.getBaseMessage() : HttpPayload.message(e);
        switch (reason(e)) {
            case TRUNCATED:
                return blockLength >= 0
                        ? "the "
                                + input
                                + " ends inside the record's block of "
                                + blockLength
                                + " bytes"
                        : "the " + input + " ends inside a record header (" + detail + ")";
            case CORRUPT_GZIP:
                return "the gzip member does not inflate: " + detail;
            default:
                return "no WARC or ARC record header at offset " + offset + ": " + detail;
        }
    }

    private static String url(WarcOutcome outcome) {
        if (outcome instanceof WarcSkip s) {
            return s.url();
        }
        if (outcome instanceof WarcError e) {
            return e.url();
        }
        if (outcome instanceof IdenticalRevisit r) {
            return r.url();
        }
        return ((WarcDocument) outcome).url();
    }

    private static void rethrowSourceError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SourceChannel.SourceException s) {
                throw new UncheckedIOException((IOException) s.getCause());
            }
        }
    }
}
