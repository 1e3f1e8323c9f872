package dev.neardup.io;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.function.SerializableFunction;

/**
 * Writes records as JSON Lines to one local file, standard output or standard error: the sinks of
 * the embedded ({@code neardup run} without Kafka) mode. Run it with parallelism 1. The file is
 * created (or truncated) when the job starts; lines are written whole, at the latest at every
 * checkpoint and at the end, so that a file never ends with part of a line ({@link LineWriter}).
 * Records written are counted in the writer's metrics: Flink's {@code numRecordsSend}, {@link
 * #RECORDS_WRITTEN} per category, and the first records as the gauge {@link #FIRST_RECORDS}, which
 * is what the progress and summaries of the embedded mode read.
 */
public class JsonLinesSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;

    /** The counter of the records of one category, in the group {@code category} = its name. */
    public static final String RECORDS_WRITTEN = "recordsWritten";

    /** The metric group key of {@link #RECORDS_WRITTEN}. */
    public static final String CATEGORY = "category";

    /** The gauge of the first {@link #FIRST} records written (a list). */
    public static final String FIRST_RECORDS = "firstRecords";

    /** Records {@link #FIRST_RECORDS} keeps. */
    public static final int FIRST = 3;

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
    private final SerializableFunction<T, String> category;

    /**
     * @param target a file path, {@link #STDOUT}, {@link #STDERR}, or null to count records without
     *     writing them
     * @param category when not null, records are also counted per {@code category(record)} ({@link
     *     #RECORDS_WRITTEN})
     */
    public JsonLinesSink(String target, SerializableFunction<T, String> category) {
        this.target = target;
        this.category = category;
    }

    public JsonLinesSink(String target) {
        this(target, null);
    }

    /** The line a JSON Lines sink writes for {@code value}: its JSON, a line feed, in UTF-8. */
    public static byte[] line(Object value) {
        return (Json.write(value) + "\n").getBytes(StandardCharsets.UTF_8);
    }

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
        MetricGroup metrics =
                context == null ? new UnregisteredMetricsGroup() : context.metricGroup();
        LineWriter<T> writer =
                new LineWriter<>(
                        out,
                        console,
                        summary,
                        target == null,
                        category,
                        BUFFER_BYTES,
                        context == null
                                ? new SimpleCounter()
                                : context.metricGroup().getNumRecordsSendCounter(),
                        metrics);
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
        private final Counter count;
        private final SerializableFunction<T, String> category;
        private final MetricGroup metrics;
        private final Map<String, Counter> categories = new HashMap<>();
        private final List<T> first = new ArrayList<>();
        private final byte[] buffer;
        private int buffered;

        /** Console only: erase the terminal's current line (the progress line) before a line. */
        boolean eraseLine;

        LineWriter(
                OutputStream out,
                boolean console,
                boolean summary,
                boolean discard,
                SerializableFunction<T, String> category,
                int bufferBytes,
                Counter count,
                MetricGroup metrics) {
            this.out = out;
            this.console = console;
            this.summary = summary;
            this.discard = discard;
            this.category = category;
            this.buffer = new byte[bufferBytes];
            this.count = count;
            this.metrics = metrics;
            metrics.gauge("firstRecords", this::first);
        }

        private List<T> first() {
            synchronized (first) {
                return List.copyOf(first);
            }
        }

        @Override
        public void write(T element, Context context) throws IOException {
            if (!discard) {
                byte[] line =
                        element instanceof EncodedLine encoded
                                ? encoded.line()
                                : summary
                                        ? (element + "\n").getBytes(StandardCharsets.UTF_8)
                                        : line(element);
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
            count.inc();
            if (count.getCount() <= FIRST) {
                synchronized (first) {
                    first.add(element);
                }
            }
            if (category != null) {
                categories
                        .computeIfAbsent(
                                category.apply(element),
                                c -> metrics.addGroup(CATEGORY, c).counter("recordsWritten"))
                        .inc();
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
