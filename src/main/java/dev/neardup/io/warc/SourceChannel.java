package dev.neardup.io.warc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;

/**
 * The file's channel, with its own I/O errors marked ({@link SourceException}), so that the reader
 * tells a disk or network failure, which it throws, from bad bytes, which are outcomes.
 */
final class SourceChannel implements SeekableByteChannel {

    /** An I/O error of the underlying channel. */
    static final class SourceException extends IOException {
        private static final long serialVersionUID = 1L;

        SourceException(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    private final SeekableByteChannel channel;

    SourceChannel(SeekableByteChannel channel) {
        this.channel = channel;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        try {
            return channel.read(dst);
        } catch (IOException e) {
            throw new SourceException(e);
        }
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        throw new java.nio.channels.NonWritableChannelException();
    }

    @Override
    public long position() throws IOException {
        try {
            return channel.position();
        } catch (IOException e) {
            throw new SourceException(e);
        }
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        try {
            channel.position(newPosition);
            return this;
        } catch (IOException e) {
            throw new SourceException(e);
        }
    }

    @Override
    public long size() throws IOException {
        try {
            return channel.size();
        } catch (IOException e) {
            throw new SourceException(e);
        }
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new java.nio.channels.NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
