package dev.neardup.io;

import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;

/**
 * A JSON Lines file read as parsed records: {@link JsonLinesFormat}'s lines, each parsed and
 * validated by a {@link DocumentParser} in the source, so documents leave the source with their
 * event times. Splittable as {@link JsonLinesFormat} is.
 */
public class DocumentLinesFormat implements StreamFormat<ParsedRecord> {

    private static final long serialVersionUID = 1L;

    private final JsonLinesFormat lines;
    private final DocumentParser parser;
    private final long ingestTime;

    public DocumentLinesFormat(JsonLinesFormat lines, DocumentParser parser) {
        this(lines, parser, -1);
    }

    /**
     * @param ingestTime the event time of records without fetchedAt; -1 for the time they are read
     *     (the streaming job). A bounded job that orders documents gives one fixed time, so that
     *     such records order by id among themselves, the same in every run.
     */
    public DocumentLinesFormat(JsonLinesFormat lines, DocumentParser parser, long ingestTime) {
        this.lines = Objects.requireNonNull(lines, "lines");
        this.parser = Objects.requireNonNull(parser, "parser");
        this.ingestTime = ingestTime;
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
                return parser.parseRecord(raw, ingestTime < 0 ? now : ingestTime, now);
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
