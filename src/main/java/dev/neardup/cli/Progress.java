package dev.neardup.cli;

import dev.neardup.io.Json;
import dev.neardup.io.JsonLinesSink;
import dev.neardup.pipeline.EmbeddedJob;
import dev.neardup.pipeline.SignatureFunction;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The progress of a local job on stderr, one report every few seconds: on a terminal, one line
 * rewritten in place (documents read, documents/s, alerts, verdicts, dead letters); otherwise (a
 * log file, a pipe, a CI job) one JSON object per line, for machines, in the format of the Kafka
 * mode's {@link KafkaProgress} (without the consumer lag):
 *
 * <pre>{@code
 * {"progress":"run","time":"2026-11-24T12:40:03Z","documents":24000,"documentsPerSecond":2010.5,
 *  "alerts":310,"verdicts":0,"deadLetters":2}
 * }</pre>
 *
 * ({@code bench} writes {@code "progress":"bench"} and adds {@code "phase"}.) {@code
 * documentsPerSecond} is the rate since the previous report. The counts are the embedded job's, in
 * this JVM ({@link SignatureFunction#sketched}, {@link JsonLinesSink#written}).
 */
final class Progress {

    /** Default interval between reports on a terminal. */
    static final Duration TERMINAL_INTERVAL = Duration.ofSeconds(1);

    /** Default interval between JSON lines. */
    static final Duration JSON_INTERVAL = Duration.ofSeconds(5);

    private final PrintWriter err;
    private final boolean terminal;
    private final long intervalNanos;
    private final String command;
    private String phase;
    private long lastTime = System.nanoTime();
    private long lastDocuments;
    private long nextReport;
    private boolean lineShown;

    /**
     * @param interval between reports, or null for the default ({@link #TERMINAL_INTERVAL} on a
     *     terminal, {@link #JSON_INTERVAL} otherwise)
     */
    Progress(PrintWriter err, boolean terminal, Duration interval, String command) {
        this.err = err;
        this.terminal = terminal;
        Duration every = interval != null ? interval : terminal ? TERMINAL_INTERVAL : JSON_INTERVAL;
        this.intervalNanos = every.toNanos();
        this.command = command;
        this.nextReport = lastTime + intervalNanos;
    }

    /** Reports on the process's stderr: a terminal or not, as it is. */
    static Progress onStderr(PrintWriter err, Duration interval, String command) {
        return new Progress(err, stderrIsTerminal(), interval, command);
    }

    /**
     * A --progress-interval: a positive duration, or null (then the default for where stderr goes).
     */
    static Duration parseInterval(String text) {
        if (text == null) {
            return null;
        }
        Duration d = RunCommand.parseDuration(text);
        if (d.isNegative() || d.isZero()) {
            throw CliException.usage("--progress-interval must be positive, got " + text);
        }
        return d;
    }

    /**
     * Whether this process's standard error is a terminal. On Linux, where /proc tells what file
     * descriptor 2 is; elsewhere, as {@link System#console()} says (a terminal on both standard
     * input and output).
     */
    static boolean stderrIsTerminal() {
        return isTerminal(2);
    }

    /** Whether file descriptor {@code fd} (1 standard output, 2 standard error) is a terminal. */
    static boolean isTerminal(int fd) {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return target.startsWith("/dev/pts/")
                    || target.startsWith("/dev/tty")
                    || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    boolean terminal() {
        return terminal;
    }

    /**
     * The phase reported from now on ({@code bench}: "warm-up", "measured", "hot"), a new job run
     * whose counts start from 0.
     */
    void phase(String name) {
        this.phase = name;
        this.lastDocuments = 0;
        this.lastTime = System.nanoTime();
    }

    /** Nanoseconds until the next report is due (0 if it is due now). */
    long nanosUntilDue() {
        return Math.max(0, nextReport - System.nanoTime());
    }

    /** Reports if the interval has passed since the previous report. */
    void maybeReport() {
        if (nanosUntilDue() == 0) {
            report();
        }
    }

    /** Reports now: a line rewritten in place on a terminal, else a JSON line. */
    void report() {
        long now = System.nanoTime();
        long documents = SignatureFunction.sketched();
        double rate = (documents - lastDocuments) / Math.max(1e-3, (now - lastTime) / 1e9);
        lastTime = now;
        lastDocuments = documents;
        nextReport = now + intervalNanos;
        long alerts = JsonLinesSink.written(EmbeddedJob.ALERTS + ".pair");
        long verdicts = JsonLinesSink.written(EmbeddedJob.VERDICTS);
        long deadLetters = JsonLinesSink.written(EmbeddedJob.DEAD_LETTERS);
        if (terminal) {
            err.print(
                    "\r\033[K"
                            + String.format(
                                    Locale.ROOT,
                                    "neardup%s: %d documents, %.0f documents/s, %d alerts, %d"
                                            + " verdicts, %d dead letters",
                                    phase == null ? "" : " " + command + " (" + phase + ")",
                                    documents,
                                    rate,
                                    alerts,
                                    verdicts,
                                    deadLetters));
            lineShown = true;
        } else {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("progress", command);
            line.put("time", Instant.now().toString());
            if (phase != null) {
                line.put("phase", phase);
            }
            line.put("documents", documents);
            line.put("documentsPerSecond", Math.round(rate * 10) / 10.0);
            line.put("alerts", alerts);
            line.put("verdicts", verdicts);
            line.put("deadLetters", deadLetters);
            err.println(Json.write(line));
        }
        err.flush();
    }

    /** Ends the progress display: erases the terminal line, so that what follows starts clean. */
    void clear() {
        if (terminal && lineShown) {
            err.print("\r\033[K");
            err.flush();
            lineShown = false;
        }
    }
}
