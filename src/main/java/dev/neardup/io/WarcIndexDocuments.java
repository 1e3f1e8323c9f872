package dev.neardup.io;

import dev.neardup.io.warc.WarcOutcome;
import dev.neardup.io.warc.WarcRecordReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

/**
 * WARC inputs read in the order of an index ({@link SortedRecords}): a split of the index file is a
 * run of its entries, and each entry's record is read where it lies in its input, by that input's
 * format ({@link WarcDocuments}), so its source is {@code file@offset} as when the file is read
 * through. An entry gives the outcomes at its offset only (a broken record that a reader comes to
 * after its record has an entry of its own). A restored reader reads its split again from its start
 * and skips the records it had emitted.
 */
public final class WarcIndexDocuments implements InputFormat {

    private static final long serialVersionUID = 1L;

    private final List<Path> inputs;
    private final List<WarcDocuments> formats;

    /**
     * @param inputs the WARC files, in the order the index numbers them
     * @param formats the format of each
     */
    public WarcIndexDocuments(List<Path> inputs, List<WarcDocuments> formats) {
        if (inputs.isEmpty() || inputs.size() != formats.size()) {
            throw new IllegalArgumentException("one format per input, and at least one input");
        }
        this.inputs = List.copyOf(inputs);
        this.formats = List.copyOf(formats);
    }

    @Override
    public BulkFormat<ParsedRecord, FileSourceSplit> reader(SourceCounters counters) {
        return new Bulk(this, counters);
    }

    /** The index is read by the job only; the tools read the inputs themselves. */
    @Override
    public void read(java.nio.file.Path file, RecordConsumer consumer) {
        throw new UnsupportedOperationException(
                "an index of WARC records is read by the job's source only: " + file);
    }

    /** Reads the entries of a split of the index, then each entry's record in its input. */
    private static final class Bulk extends WarcDocuments.SplitBulk {
        private static final long serialVersionUID = 1L;
        private final WarcIndexDocuments format;

        Bulk(WarcIndexDocuments format, SourceCounters counters) {
            super(format.formats.get(0), counters);
            this.format = format;
        }

        @Override
        WarcDocuments.Outcomes outcomes(FileSourceSplit split, FSDataInputStream in) {
            return new IndexOutcomes(format, in, split.length() / SortedRecords.ENTRY_BYTES);
        }
    }

    /** The outcomes of the records an index split names, in its order. */
    private static final class IndexOutcomes implements WarcDocuments.Outcomes {
        private final WarcIndexDocuments format;
        private final DataInputStream index;
        private long entries;
        private WarcRecordReader record;

        /** The offset of the record that {@link #record} reads. */
        private long offset;

        private final OpenInputs<Input> open;

        /** An input open for reading, and its size. */
        private record Input(FSDataInputStream in, long size) implements java.io.Closeable {
            @Override
            public void close() throws IOException {
                in.close();
            }
        }

        IndexOutcomes(WarcIndexDocuments format, FSDataInputStream index, long entries) {
            this.format = format;
            this.index = new DataInputStream(new java.io.BufferedInputStream(index, 1 << 16));
            this.entries = entries;
            this.open =
                    new OpenInputs<>(
                            input -> {
                                Path path = format.inputs.get(input);
                                return new Input(
                                        path.getFileSystem().open(path),
                                        path.getFileSystem().getFileStatus(path).getLen());
                            });
        }

        @Override
        public WarcOutcome read() throws IOException {
            while (true) {
                if (record != null) {
                    WarcOutcome o = record.read();
                    if (o != null) {
                        if (o.offset() == offset) {
                            return o;
                        }
                        continue; // a broken record after this one: an entry of its own
                    }
                    record = null;
                }
                if (entries == 0) {
                    return null;
                }
                int input;
                try {
                    input = index.readInt();
                    offset = index.readLong();
                } catch (EOFException e) {
                    throw new IOException("the index of the WARC inputs ends early", e);
                }
                entries--;
                Input in = open.get(input);
                record = format.formats.get(input).recordAt(in.in(), in.size(), offset);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                open.close();
            } finally {
                index.close();
            }
        }
    }
}
