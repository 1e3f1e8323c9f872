package dev.neardup.io;

import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.SimpleStreamFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;

/**
 * A JSON Lines file read as parsed records: {@link JsonLinesFormat}'s lines, each parsed and
 * validated by a {@link DocumentParser} in the source, so documents leave the source with their
 * event times.
 */
public class DocumentLinesFormat extends SimpleStreamFormat<ParsedRecord> {

    private static final long serialVersionUID = 1L;

    private final JsonLinesFormat lines;
    private final DocumentParser parser;

    public DocumentLinesFormat(JsonLinesFormat lines, DocumentParser parser) {
        this.lines = Objects.requireNonNull(lines, "lines");
        this.parser = Objects.requireNonNull(parser, "parser");
    }

    @Override
    public StreamFormat.Reader<ParsedRecord> createReader(
            Configuration config, FSDataInputStream stream) throws IOException {
        StreamFormat.Reader<RawRecord> reader = lines.createReader(config, stream);
        return new StreamFormat.Reader<>() {
            @Override
            public ParsedRecord read() throws IOException {
                RawRecord raw = reader.read();
                return raw == null ? null : parser.parseRecord(raw, System.currentTimeMillis());
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
