package dev.neardup.io;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Writes records as JSON Lines to one local file, or to standard output for {@code "-"}: the sinks
 * of the embedded ({@code neardup run} without Kafka) mode. Run it with parallelism 1. The file is
 * created (or truncated) when the job starts; lines are flushed at every checkpoint and at the end.
 * Records written are counted per sink name in this JVM ({@link #written}), which is what the
 * progress line of the embedded mode reads.
 */
public class JsonLinesSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    private final String target;
    private final String counterName;

    /**
     * @param target a file path, or "-" for standard output
     * @param counterName name under which written records are counted
     */
    public JsonLinesSink(String target, String counterName) {
        this.target = target;
        this.counterName = counterName;
    }

    /** Records written so far in this JVM by sinks with this counter name. */
    public static long written(String counterName) {
        AtomicLong count = COUNTS.get(counterName);
        return count == null ? 0 : count.get();
    }

    /** Resets a counter (a new run in the same JVM). */
    public static void resetCounter(String counterName) {
        COUNTS.remove(counterName);
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        Writer writer;
        boolean stdout = target.equals("-");
        if (stdout) {
            writer = new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
        } else {
            Path path = Path.of(target);
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            writer = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
        }
        return new LineWriter<>(
                new BufferedWriter(writer, 1 << 16),
                stdout,
                COUNTS.computeIfAbsent(counterName, k -> new AtomicLong()));
    }

    private static final class LineWriter<T> implements SinkWriter<T> {
        private final BufferedWriter out;
        private final boolean stdout;
        private final AtomicLong count;

        LineWriter(BufferedWriter out, boolean stdout, AtomicLong count) {
            this.out = out;
            this.stdout = stdout;
            this.count = count;
        }

        @Override
        public void write(T element, Context context) throws IOException {
            out.write(Json.write(element));
            out.write('\n');
            count.incrementAndGet();
            if (stdout) {
                out.flush(); // interactive: show records as they come
            }
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            if (stdout) {
                out.flush(); // never close System.out
            } else {
                out.close();
            }
        }
    }
}
