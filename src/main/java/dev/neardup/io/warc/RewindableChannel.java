package dev.neardup.io.warc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;

/**
 * A forward-only input (standard input, a pipe, a network stream) as a seekable channel: it keeps
 * the last bytes read, so that the reader can go back into them to look for the next record after
 * broken input, and it skips forward by reading. Positions start at 0.
 */
final class RewindableChannel implements SeekableByteChannel {

    private final ReadableByteChannel in;
    private final byte[] history;

    /** How many bytes were read from {@link #in}. */
    private long end;

    private long position;
    private boolean eof;

    /**
     * @param historyBytes how far back the channel can go from the furthest byte read
     */
    RewindableChannel(ReadableByteChannel in, int historyBytes) {
        this.in = in;
        this.history = new byte[historyBytes];
    }

    /** The first position that can still be read. */
    long earliest() {
        return Math.max(0, end - history.length);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!dst.hasRemaining()) {
            return 0;
        }
        while (position > end) {
            // Skipping forward: read and keep, then go on.
            if (fill(position - end) < 0) {
                return -1;
            }
        }
        if (position == end && fill(dst.remaining()) < 0) {
            return -1;
        }
        int n = (int) Math.min(dst.remaining(), end - position);
        int at = (int) (position % history.length);
        int first = Math.min(n, history.length - at);
        dst.put(history, at, first);
        dst.put(history, 0, n - first);
        position += n;
        return n;
    }

    /** Reads up to {@code max} new bytes into the history: how many, or -1 at the end. */
    private int fill(long max) throws IOException {
        if (eof) {
            return -1;
        }
        int at = (int) (end % history.length);
        int room = (int) Math.min(max, Math.min(history.length - at, 64 * 1024));
        int n = in.read(ByteBuffer.wrap(history, at, room));
        if (n < 0) {
            eof = true;
            return -1;
        }
        end += n;
        return n;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        if (newPosition < earliest()) {
            throw new IOException(
                    "cannot go back to position "
                            + newPosition
                            + ": the input is not seekable and only the last "
                            + history.length
                            + " bytes are kept");
        }
        position = newPosition;
        return this;
    }

    /** The size once the input was read to its end; until then, as large as it may be. */
    @Override
    public long size() {
        return eof ? end : Long.MAX_VALUE;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return in.isOpen();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
