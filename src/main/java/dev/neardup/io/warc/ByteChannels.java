package dev.neardup.io.warc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.util.Arrays;
import org.netpreserve.jwarc.LengthedBody;

/**
 * Reading bytes with a limit, a record block held in memory as a channel for jwarc, and records in
 * memory as a channel for the reader.
 */
final class ByteChannels {

    private ByteChannels() {}

    /** Thrown when more than the limit could be read. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(long limit) {
            super("more than " + limit + " bytes", null);
        }
    }

    /**
     * Bytes read up to the end or the first error; what was read before an error is kept in {@link
     * #bytes}, the error in {@link #error}.
     */
    record Read(byte[] bytes, IOException error) {}

    /**
     * Reads {@code in} to its end, but at most {@code limit} bytes.
     *
     * @throws TooLarge when there are more
     */
    static Read readUpTo(InputStream in, long limit) throws TooLarge {
        byte[] buf = new byte[(int) Math.min(limit + 1, 64 * 1024)];
        int n = 0;
        try {
            while (true) {
                if (n == buf.length) {
                    if (n > limit) {
                        throw new TooLarge(limit);
                    }
                    buf = Arrays.copyOf(buf, (int) Math.min(limit + 1, 2L * buf.length));
                }
                int r = in.read(buf, n, buf.length - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
        } catch (TooLarge e) {
            throw e;
        } catch (IOException e) {
            return new Read(Arrays.copyOf(buf, n), e);
        }
        if (n > limit) {
            throw new TooLarge(limit);
        }
        return new Read(Arrays.copyOf(buf, n), null);
    }

    /**
     * A channel over bytes in memory that tells jwarc its length, so that an HTTP message parsed
     * from it has a body up to the end of the bytes (the record's block), whatever its own {@code
     * Content-Length} says.
     */
    static class Block implements LengthedBody.LengthedReadableByteChannel {
        final byte[] bytes;
        int position;

        Block(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (position >= bytes.length) {
                return -1;
            }
            int n = Math.min(dst.remaining(), bytes.length - position);
            dst.put(bytes, position, n);
            position += n;
            return n;
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public long size() {
            return bytes.length;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

    /**
     * Bytes in memory as a read-only seekable channel: records that came without a file. Reads as
     * {@link Block} does; closing it closes it.
     */
    static final class InMemory extends Block implements SeekableByteChannel {
        private boolean open = true;

        InMemory(byte[] bytes) {
            super(bytes);
        }

        @Override
        public int write(ByteBuffer src) {
            throw new NonWritableChannelException();
        }

        @Override
        public SeekableByteChannel position(long newPosition) {
            if (newPosition < 0) {
                throw new IllegalArgumentException("negative position " + newPosition);
            }
            position = (int) Math.min(newPosition, bytes.length);
            return this;
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
        public void close() {
            open = false;
        }
    }

    /** {@code channel} as a stream, for the JDK's decoders. */
    static InputStream stream(ReadableByteChannel channel) {
        return java.nio.channels.Channels.newInputStream(channel);
    }
}
