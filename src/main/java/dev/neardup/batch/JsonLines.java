package dev.neardup.batch;

import dev.neardup.io.Json;
import org.apache.flink.api.common.serialization.Encoder;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;

/**
 * Outputs on a Flink filesystem ({@code file://}, {@code s3://}, ...): records as JSON Lines in a
 * directory of part files written by Flink's {@link FileSink}, one or more per sink subtask, so
 * that the TaskManagers of a cluster write them in parallel and nothing passes through the client.
 * Part files are named {@code NAME-UUID-SUBTASK-N.jsonl}; in BATCH mode they are committed (made
 * visible) when the job finishes, so a failed job leaves only hidden in-progress files.
 */
final class JsonLines {

    private JsonLines() {}

    /** A sink writing records into part files {@code name-*.jsonl} directly under {@code dir}. */
    static <T> FileSink<T> sink(Path dir, String name) {
        Encoder<T> lines =
                (element, stream) -> {
                    stream.write(Json.MAPPER.writeValueAsBytes(element));
                    stream.write('\n');
                };
        return FileSink.forRowFormat(dir, lines)
                .withBucketAssigner(new BasePathBucketAssigner<>())
                .withOutputFileConfig(
                        OutputFileConfig.builder()
                                .withPartPrefix(name)
                                .withPartSuffix(".jsonl")
                                .build())
                .build();
    }
}
