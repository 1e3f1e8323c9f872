package dev.neardup.runtime;

import dev.neardup.config.OptionValues;
import dev.neardup.io.Json;
import dev.neardup.io.JsonLinesSink;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;

/**
 * The progress of a local job on stderr, one report every few seconds: on a terminal, one line
 * rewritten in place (documents read, documents/s, alerts, verdicts, dead letters); otherwise one
 * JSON object per line (format: docs/run.md, "Progress"), the rate being since the previous report.
 * The counts are the job's metrics ({@link JobCounts}); another job reports its own ({@link
 * Counts}: {@code dedupe} reports its stage and the records that stage passed).
 */
public final class Progress {

    /**
     * What a report shows: the stage the job is in, or null (a job of one stage; asked first, so
     * that it may take the snapshot the others come from); what {@code count} counts, in JSON
     * ("documents", the rate is {@code NAMEPerSecond}); the count the rate is taken over; the other
     * counts, in the order shown.
     */
    public record Counts(
            Supplier<String> stage, String name, LongSupplier count, Supplier<List<Field>> fields) {
        public Counts(String name, LongSupplier count, Supplier<List<Field>> fields) {
            this(() -> null, name, count, fields);
        }
    }

    /**
     * One count of a report: its JSON name, its words on a terminal ("dead letters"), value; a
     * {@link #named} one shows its words first ("consumer lag 12", "unknown" when null).
     */
    public record Field(String json, String words, Long value, boolean named) {
        public Field(String json, String words, long value) {
            this(json, words, value, false);
        }

        public static Field named(String json, String words, Long value) {
            return new Field(json, words, value, true);
        }

        String text() {
            if (named && json.endsWith("Millis") && value != null) {
                return words + " " + value + " ms";
            }
            return named ? words + " " + (value == null ? "unknown" : value) : value + " " + words;
        }
    }

    /** The streaming job's counts: documents, alerts, verdicts, dead letters. */
    public static Counts run(JobCounts job) {
        return streaming(job, () -> job.written(EmbeddedJob.ALERTS, EmbeddedJob.PAIR), List::of);
    }

    /**
     * The latency of early alerts, the other alerts and the verdicts (event time to emission, p50
     * and p99 over the latest of each subtask), for a live input whose event times are stamped as
     * pages are published; each once it has values.
     */
    public static List<Field> latencies(JobCounts job) {
        List<Field> out = new ArrayList<>();
        String[][] kinds = {
            {"earlyAlertLatency", "early alerts"},
            {"alertLatency", "other alerts"},
            {"verdictLatency", "verdicts"}
        };
        for (String[] k : kinds) {
            long[] p = job.percentiles(k[0]);
            if (p != null) {
                out.add(Field.named(k[0] + "P50Millis", k[1] + " p50", p[0]));
                out.add(Field.named(k[0] + "P99Millis", "p99", p[1]));
            }
        }
        return out;
    }

    /**
     * The {@link #latencies} as one sentence for the end of a run, or null when nothing was
     * emitted.
     */
    public static String latencySummary(JobCounts job) {
        List<Field> fields = latencies(job);
        if (fields.isEmpty()) {
            return null;
        }
        return "latency from event time to output (latest of each subtask): "
                + fields.stream().map(Field::text).collect(Collectors.joining(", "));
    }

    /** The streaming job's documents, {@code alerts}, verdicts, dead letters and {@code more}. */
    static Counts streaming(JobCounts job, LongSupplier alerts, Supplier<List<Field>> more) {
        return new Counts(
                "documents",
                () -> job.count(JobCounts.DOCUMENTS),
                () -> {
                    List<Field> fields = new ArrayList<>();
                    fields.add(new Field("alerts", "alerts", alerts.getAsLong()));
                    fields.add(
                            new Field("verdicts", "verdicts", job.written(EmbeddedJob.VERDICTS)));
                    long dead = job.written(EmbeddedJob.DEAD_LETTERS);
                    fields.add(new Field("deadLetters", "dead letters", dead));
                    fields.addAll(more.get());
                    return fields;
                });
    }

    /** Default interval between reports on a terminal. */
    public static final Duration TERMINAL_INTERVAL = Duration.ofSeconds(1);

    /** Default interval between JSON lines. */
    public static final Duration JSON_INTERVAL = Duration.ofSeconds(5);

    private final PrintWriter err;
    private final boolean terminal;
    private final long intervalNanos;
    private final String command;
    private final Counts counts;
    private String phase;
    private long lastTime = System.nanoTime();
    private long lastDocuments;
    private String lastStage;
    private long nextReport;
    private boolean lineShown;

    /**
     * @param interval between reports, or null for the default ({@link #TERMINAL_INTERVAL} on a
     *     terminal, {@link #JSON_INTERVAL} otherwise)
     */
    public Progress(
            PrintWriter err, boolean terminal, Duration interval, String command, Counts counts) {
        this.err = err;
        this.counts = counts;
        this.terminal = terminal;
        Duration every = interval != null ? interval : terminal ? TERMINAL_INTERVAL : JSON_INTERVAL;
        this.intervalNanos = every.toNanos();
        this.command = command;
        this.nextReport = lastTime + intervalNanos;
    }

    /** Reports {@code counts} on the process's stderr: a terminal or not, as it is. */
    public static Progress onStderr(
            PrintWriter err, Duration interval, String command, Counts counts) {
        return new Progress(err, isTerminal(2), interval, command, counts);
    }

    /** A --progress-interval: positive, or null (then the default for where stderr goes). */
    public static Duration parseInterval(String text) {
        if (text == null) {
            return null;
        }
        Duration d =
                NeardupException.usageIfInvalid(
                        () -> OptionValues.duration("--progress-interval", text));
        if (d.isNegative() || d.isZero()) {
            throw NeardupException.usage("--progress-interval must be positive, got " + text);
        }
        return d;
    }

    /**
     * Whether file descriptor {@code fd} (1 standard output, 2 standard error) is a terminal. On
     * Linux, where /proc tells what it is; elsewhere, as {@link System#console()} says (a terminal
     * on both standard input and output).
     */
    public static boolean isTerminal(int fd) {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return target.startsWith("/dev/pts/")
                    || target.startsWith("/dev/tty")
                    || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    public boolean terminal() {
        return terminal;
    }

    /**
     * The phase reported from now on ({@code bench}: "warm-up", "measured", "cut warm-up", "cut",
     * "hot"), a new job run whose counts start from 0.
     */
    public void phase(String name) {
        this.phase = name;
        this.lastDocuments = 0;
        this.lastTime = System.nanoTime();
    }

    /** Nanoseconds until the next report is due (0 if it is due now). */
    public long nanosUntilDue() {
        return Math.max(0, nextReport - System.nanoTime());
    }

    /** Reports if the interval has passed since the previous report. */
    public void maybeReport() {
        if (nanosUntilDue() == 0) {
            report();
        }
    }

    /** Reports now: a line rewritten in place on a terminal, else a JSON line. */
    public void report() {
        long now = System.nanoTime();
        String stage = counts.stage().get(); // first: the counts may take their snapshot here
        long count = counts.count().getAsLong();
        if (!java.util.Objects.equals(stage, lastStage)) {
            lastStage = stage;
            lastDocuments = 0; // a new stage counts other records from 0
        }
        double rate = Math.max(0, count - lastDocuments) / Math.max(1e-3, (now - lastTime) / 1e9);
        lastTime = now;
        lastDocuments = count;
        nextReport = now + intervalNanos;
        List<Field> fields = counts.fields().get();
        String name = counts.name();
        if (terminal) {
            err.print(
                    "\r\033[Kneardup"
                            + (phase == null ? "" : " " + command + " (" + phase + ")")
                            + ": "
                            + (stage == null ? "" : stage + ": ")
                            + String.format(
                                    Locale.ROOT, "%d %s, %.0f %s/s", count, name, rate, name)
                            + fields.stream()
                                    .map(f -> ", " + f.text())
                                    .collect(Collectors.joining()));
            lineShown = true;
        } else {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("progress", command);
            line.put("time", Instant.now().toString());
            if (phase != null) {
                line.put("phase", phase);
            }
            if (stage != null) {
                line.put("stage", stage);
            }
            line.put(name, count);
            line.put(name + "PerSecond", Math.round(rate * 10) / 10.0);
            for (Field f : fields) {
                line.put(f.json(), f.value());
            }
            err.println(Json.write(line));
        }
        err.flush();
    }

    /**
     * Waits for the job to end, reporting progress (unless {@code progress} is null), and returns
     * its result; null when a signal stopped it ({@code interruption}, which may be null). A job
     * that ends in an error is a failure whose cause is the job's. The progress line is erased at
     * the end.
     */
    public static JobExecutionResult await(
            JobClient job, Progress progress, Interruption interruption) throws Exception {
        var result = job.getJobExecutionResult();
        try {
            while (true) {
                try {
                    if (progress == null) {
                        return result.get();
                    }
                    return result.get(Math.max(1, progress.nanosUntilDue()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    progress.maybeReport();
                } catch (ExecutionException e) {
                    if (interruption != null && interruption.interrupted()) {
                        return null; // cancelled, or failed while stopping: the caller says so
                    }
                    throw NeardupException.failure("the job failed: " + rootCause(e), e);
                }
            }
        } finally {
            if (progress != null) {
                progress.clear();
            }
        }
    }

    /** The innermost cause of {@code e}: its class and message. */
    public static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = t.getMessage();
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /**
     * Records that sinks write to the terminal (stdout, stderr) erase the progress line first, when
     * {@code progress} shows one ({@link JsonLinesSink#eraseProgressLine}).
     */
    public static void eraseBeforeConsoleRecords(Progress progress) {
        boolean line = progress != null && progress.terminal();
        JsonLinesSink.eraseProgressLine(line && isTerminal(1), line);
    }

    /** Ends the terminal line, keeping it: what follows starts on a line of its own. */
    public void finish() {
        endLine(System.lineSeparator());
    }

    /** Ends the progress display: erases the terminal line, so that what follows starts clean. */
    public void clear() {
        endLine("\r\033[K");
    }

    private void endLine(String end) {
        if (terminal && lineShown) {
            err.print(end);
            err.flush();
            lineShown = false;
        }
    }
}
