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
 * Writes records as JSON Lines to one local file, standard output or standard error: the sinks of
 * the embedded ({@code neardup run} without Kafka) mode. Run it with parallelism 1. The file is
 * created (or truncated) when the job starts; lines are flushed at every checkpoint and at the end.
 * Records written are counted per sink name in this JVM ({@link #written}), which is what the
 * progress line of the embedded mode reads.
 */
public class JsonLinesSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    /** Target for standard output. */
    public static final String STDOUT = "-";

    /** Target for standard error (not reachable from the command line as a file name). */
    public static final String STDERR = "\0stderr";

    /**
     * Target for standard error, one {@code toString()} line per record instead of JSON: a readable
     * summary for interactive runs.
     */
    public static final String STDERR_SUMMARY = "\0stderr-summary";

    private final String target;
    private final String counterName;
    private final SerializableFunction<T, String> category;

    /**
     * @param target a file path, {@link #STDOUT}, {@link #STDERR}, or null to count records without
     *     writing them
     * @param counterName name under which written records are counted
     * @param category when not null, records are also counted under {@code counterName + "." +
     *     category(record)}
     */
    public JsonLinesSink(
            String target, String counterName, SerializableFunction<T, String> category) {
        this.target = target;
        this.counterName = counterName;
        this.category = category;
    }

    public JsonLinesSink(String target, String counterName) {
        this(target, counterName, null);
    }

    /** A serializable function, for {@code category}. */
    public interface SerializableFunction<A, B>
            extends java.util.function.Function<A, B>, java.io.Serializable {}

    /** Records written so far in this JVM by sinks with this counter name. */
    public static long written(String counterName) {
        AtomicLong count = COUNTS.get(counterName);
        return count == null ? 0 : count.get();
    }

    /** Resets a counter and its categories (a new run in the same JVM). */
    public static void resetCounter(String counterName) {
        COUNTS.keySet().removeIf(k -> k.equals(counterName) || k.startsWith(counterName + "."));
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        Writer writer;
        boolean summary = STDERR_SUMMARY.equals(target);
        boolean stdout =
                target == null || target.equals(STDOUT) || target.equals(STDERR) || summary;
        if (target == null) {
            writer = Writer.nullWriter();
        } else if (target.equals(STDOUT)) {
            writer = new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
        } else if (target.equals(STDERR) || summary) {
            writer = new OutputStreamWriter(System.err, StandardCharsets.UTF_8);
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
                summary,
                target == null,
                counterName,
                category);
    }

    private static final class LineWriter<T> implements SinkWriter<T> {
        private final BufferedWriter out;
        private final boolean stdout;
        private final boolean summary;
        private final boolean discard;
        private final String counterName;
        private final AtomicLong count;
        private final SerializableFunction<T, String> category;

        LineWriter(
                BufferedWriter out,
                boolean stdout,
                boolean summary,
                boolean discard,
                String counterName,
                SerializableFunction<T, String> category) {
            this.out = out;
            this.stdout = stdout;
            this.summary = summary;
            this.discard = discard;
            this.counterName = counterName;
            this.count = COUNTS.computeIfAbsent(counterName, k -> new AtomicLong());
            this.category = category;
        }

        @Override
        public void write(T element, Context context) throws IOException {
            if (!discard) {
                out.write(summary ? String.valueOf(element) : Json.write(element));
                out.write('\n');
            }
            count.incrementAndGet();
            if (category != null) {
                COUNTS.computeIfAbsent(
                                counterName + "." + category.apply(element), k -> new AtomicLong())
                        .incrementAndGet();
            }
            if (stdout && !discard) {
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
