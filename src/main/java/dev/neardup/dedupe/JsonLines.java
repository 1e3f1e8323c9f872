package dev.neardup.dedupe;

import dev.neardup.io.Json;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.reader.TextLineInputFormat;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The dedupe job's working files: records as JSON Lines in a directory of part files, written by a
 * {@link FileSink} and read by a {@link FileSource}, so that they live on any Flink filesystem (a
 * local directory, or object storage shared by a cluster's TaskManagers).
 */
final class JsonLines {

    private JsonLines() {}

    /** A sink writing records into part files under {@code dir}. */
    static <T> FileSink<T> sink(Path dir) {
        return FileSink.forRowFormat(dir, new LineEncoder<T>()).build();
    }

    /** The records of every part file under {@code dir} (which must exist). */
    static <T> DataStream<T> read(
            StreamExecutionEnvironment env, Path dir, Class<T> type, String name) {
        FileSource<String> source =
                FileSource.forRecordStreamFormat(new TextLineInputFormat(), dir).build();
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), name)
                .uid("read-" + name)
                .name("read " + name)
                .map(new LineDecoder<>(type))
                .returns(TypeInformation.of(type))
                .uid("parse-" + name)
                .name("parse " + name);
    }

    static final class LineEncoder<T> implements Encoder<T> {
        private static final long serialVersionUID = 1L;

        @Override
        public void encode(T element, OutputStream stream) throws IOException {
            stream.write(Json.MAPPER.writeValueAsBytes(element));
            stream.write('\n');
        }
    }

    static final class LineDecoder<T> implements MapFunction<String, T> {
        private static final long serialVersionUID = 1L;
        private final Class<T> type;

        LineDecoder(Class<T> type) {
            this.type = type;
        }

        @Override
        public T map(String line) throws IOException {
            return Json.MAPPER.readValue(line, type);
        }
    }
}
