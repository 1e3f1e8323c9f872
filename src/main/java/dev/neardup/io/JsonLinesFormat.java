package dev.neardup.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.SimpleStreamFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;

/**
 * Reads a JSON Lines file as raw records: one record per line, as bytes (so invalid UTF-8 is
 * detected downstream rather than silently replaced), with {@code name:line} as its source. Blank
 * lines are skipped. A line longer than {@code maxBytes} is not held in memory: its first bytes are
 * kept and the record is marked truncated, which the parser turns into a dead letter. Restores
 * after failure by re-reading and skipping (Flink's {@link SimpleStreamFormat}), so line numbers
 * stay stable.
 */
public class JsonLinesFormat extends SimpleStreamFormat<RawRecord> {

    private static final long serialVersionUID = 1L;

    private final String name;
    private final int maxBytes;

    /**
     * @param name how the file is named in record sources (e.g. its file name)
     * @param maxBytes longest line kept whole
     */
    public JsonLinesFormat(String name, int maxBytes) {
        this.name = name;
        this.maxBytes = maxBytes;
    }

    @Override
    public StreamFormat.Reader<RawRecord> createReader(
            Configuration config, FSDataInputStream stream) {
        return new Reader(stream, name, maxBytes);
    }

    @Override
    public TypeInformation<RawRecord> getProducedType() {
        return TypeInformation.of(RawRecord.class);
    }

    private static final class Reader implements StreamFormat.Reader<RawRecord> {
        private final InputStream in;
        private final String name;
        private final int maxBytes;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(4096);
        private final byte[] buffer = new byte[1 << 16];
        private int pos;
        private int limit;
        private long lineNumber;

        Reader(InputStream in, String name, int maxBytes) {
            this.in = in;
            this.name = name;
            this.maxBytes = maxBytes;
        }

        @Override
        public RawRecord read() throws IOException {
            while (true) {
                line.reset();
                long size = 0;
                int last = -1;
                boolean endOfLine = false;
                while (true) {
                    if (pos == limit) {
                        int n = in.read(buffer, 0, buffer.length);
                        pos = 0;
                        limit = Math.max(n, 0);
                        if (n <= 0) {
                            break; // end of the file
                        }
                    }
                    int start = pos;
                    while (pos < limit && buffer[pos] != '\n') {
                        pos++;
                    }
                    int n = pos - start;
                    if (n > 0) {
                        long room = maxBytes + 1L - size;
                        if (room > 0) {
                            line.write(buffer, start, (int) Math.min(n, room));
                        }
                        size += n;
                        last = buffer[pos - 1];
                    }
                    if (pos < limit) {
                        pos++; // the '\n'
                        endOfLine = true;
                        break;
                    }
                }
                if (!endOfLine && size == 0) {
                    return null;
                }
                lineNumber++;
                byte[] bytes = line.toByteArray();
                int length = bytes.length;
                if (last == '\r') { // the CR of a CRLF line end is not part of the record
                    size--;
                    if (length > size) {
                        length--; // it was kept: drop it
                    }
                }
                if (isBlank(bytes, length) && size <= maxBytes) {
                    continue;
                }
                RawRecord r = new RawRecord();
                r.payload = length == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, length);
                r.source = name + ":" + lineNumber;
                r.size = size;
                r.truncated = size > length;
                return r;
            }
        }

        private static boolean isBlank(byte[] bytes, int length) {
            for (int i = 0; i < length; i++) {
                byte c = bytes[i];
                if (c != ' ' && c != '\t' && c != '\r') {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
