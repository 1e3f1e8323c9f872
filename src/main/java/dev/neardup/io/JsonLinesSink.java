package dev.neardup.io;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Writes records as JSON Lines to one local file, standard output or standard error: the sinks of
 * the embedded ({@code neardup run} without Kafka) mode. Run it with parallelism 1. The file is
 * created (or truncated) when the job starts; lines are written whole, at the latest at every
 * checkpoint and at the end, so that a file never ends with part of a line ({@link LineWriter}).
 * Records written are counted per sink name in this JVM ({@link #written}), which is what the
 * progress line of the embedded mode reads.
 */
public class JsonLinesSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    /** Records {@link #first} keeps per counter name. */
    public static final int FIRST = 3;

    private static final Map<String, List<Object>> FIRST_RECORDS = new ConcurrentHashMap<>();

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

    /** The bytes that erase the current terminal line: carriage return, erase to end of line. */
    private static final byte[] ERASE_LINE = "\r\033[K".getBytes(StandardCharsets.US_ASCII);

    private static volatile boolean eraseBeforeStdout;
    private static volatile boolean eraseBeforeStderr;

    /**
     * Whether lines written to standard output and standard error (in this JVM) first erase the
     * terminal line: the command line's progress line, rewritten in place on a terminal, would
     * otherwise be continued by the next alert or dead letter. Set only for streams that are that
     * terminal.
     */
    public static void eraseProgressLine(boolean stdout, boolean stderr) {
        eraseBeforeStdout = stdout;
        eraseBeforeStderr = stderr;
    }

    /** Records written so far in this JVM by sinks with this counter name. */
    public static long written(String counterName) {
        AtomicLong count = COUNTS.get(counterName);
        return count == null ? 0 : count.get();
    }

    /** Resets a counter, its categories and its first records (a new run in the same JVM). */
    public static void resetCounter(String counterName) {
        COUNTS.keySet().removeIf(k -> k.equals(counterName) || k.startsWith(counterName + "."));
        FIRST_RECORDS.remove(counterName);
    }

    /**
     * The first {@link #FIRST} records written in this JVM by sinks with this counter name, of type
     * {@code type} (e.g. the first dead letters, to say why a run read no document).
     */
    public static <R> List<R> first(String counterName, Class<R> type) {
        List<Object> records = FIRST_RECORDS.getOrDefault(counterName, List.of());
        synchronized (records) {
            return records.stream().filter(type::isInstance).map(type::cast).toList();
        }
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        boolean summary = STDERR_SUMMARY.equals(target);
        OutputStream out;
        boolean console = true;
        boolean erase = false;
        if (target == null) {
            out = OutputStream.nullOutputStream();
        } else if (target.equals(STDOUT)) {
            out = System.out;
            erase = eraseBeforeStdout;
        } else if (target.equals(STDERR) || summary) {
            out = System.err;
            erase = eraseBeforeStderr;
        } else {
            Path path = Path.of(target);
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            // A FileOutputStream, not a channel: an interrupted task thread (a cancelled job) must
            // not close the file in the middle of a write.
            out = new FileOutputStream(path.toFile());
            console = false;
        }
        LineWriter<T> writer =
                new LineWriter<>(
                        out, console, summary, target == null, counterName, category, BUFFER_BYTES);
        writer.eraseLine = erase;
        return writer;
    }

    /** Bytes of complete lines a writer collects before it writes them to its file. */
    static final int BUFFER_BYTES = 1 << 16;

    /**
     * Writes whole lines only: each record's line goes into a buffer, and the buffer, which holds
     * complete lines only, is written out in one call when the next line would not fit, at every
     * checkpoint and at the end. However the job stops (finished, failed, cancelled by Ctrl-C), a
     * file never ends in the middle of a line. Standard output and error get every line at once.
     */
    static final class LineWriter<T> implements SinkWriter<T> {
        private final OutputStream out;
        private final boolean console;
        private final boolean summary;
        private final boolean discard;
        private final String counterName;
        private final AtomicLong count;
        private final SerializableFunction<T, String> category;
        private final byte[] buffer;
        private int buffered;

        /** Console only: erase the terminal's current line (the progress line) before a line. */
        boolean eraseLine;

        LineWriter(
                OutputStream out,
                boolean console,
                boolean summary,
                boolean discard,
                String counterName,
                SerializableFunction<T, String> category,
                int bufferBytes) {
            this.out = out;
            this.console = console;
            this.summary = summary;
            this.discard = discard;
            this.counterName = counterName;
            this.count = COUNTS.computeIfAbsent(counterName, k -> new AtomicLong());
            this.category = category;
            this.buffer = new byte[bufferBytes];
        }

        @Override
        public void write(T element, Context context) throws IOException {
            if (!discard) {
                String text = summary ? String.valueOf(element) : Json.write(element);
                byte[] line = (text + "\n").getBytes(StandardCharsets.UTF_8);
                if (console) {
                    // Interactive: show records as they come.
                    if (eraseLine) {
                        out.write(ERASE_LINE);
                    }
                    out.write(line);
                    out.flush();
                } else {
                    if (buffered + line.length > buffer.length) {
                        writeBuffer();
                    }
                    if (line.length > buffer.length) {
                        out.write(line); // one line larger than the buffer: written whole
                    } else {
                        System.arraycopy(line, 0, buffer, buffered, line.length);
                        buffered += line.length;
                    }
                }
            }
            if (count.incrementAndGet() <= FIRST) {
                List<Object> first =
                        FIRST_RECORDS.computeIfAbsent(counterName, k -> new ArrayList<>());
                synchronized (first) {
                    first.add(element);
                }
            }
            if (category != null) {
                COUNTS.computeIfAbsent(
                                counterName + "." + category.apply(element), k -> new AtomicLong())
                        .incrementAndGet();
            }
        }

        private void writeBuffer() throws IOException {
            if (buffered > 0) {
                out.write(buffer, 0, buffered);
                buffered = 0;
            }
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            writeBuffer();
            out.flush();
        }

        @Override
        public void close() throws IOException {
            writeBuffer();
            if (console) {
                out.flush(); // never close System.out
            } else {
                out.close();
            }
        }
    }
}
