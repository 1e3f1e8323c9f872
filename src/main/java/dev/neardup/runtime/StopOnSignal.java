package dev.neardup.runtime;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

/**
 * Ctrl-C (SIGINT) and SIGTERM for a Kafka-mode run on this machine: the first stops the job with a
 * savepoint into the state directory; if that fails or takes longer than {@code timeout}, or on a
 * second signal, the job is cancelled instead and the next run resumes from its last retained
 * checkpoint. Installed until {@link #close()}, through {@link SignalHandlers}. Design:
 * docs/design/local-runs.md.
 */
public final class StopOnSignal implements AutoCloseable {

    private static final List<String> SIGNALS = List.of("INT", "TERM");

    private final JobClient job;
    private final String savepointDir;
    private final Duration timeout;
    private final PrintWriter err;
    private final AtomicReference<String> signal = new AtomicReference<>();
    private final CompletableFuture<String> stopped = new CompletableFuture<>();
    private Runnable restore;

    private StopOnSignal(JobClient job, Path savepoints, Duration timeout, PrintWriter err) {
        this.job = job;
        this.savepointDir = savepoints.toUri().toString();
        this.timeout = timeout;
        this.err = err;
    }

    /** Installs the handlers for {@code job}; savepoints go to {@code savepoints}. */
    public static StopOnSignal install(
            JobClient job, Path savepoints, Duration timeout, PrintWriter err) {
        StopOnSignal stop = new StopOnSignal(job, savepoints, timeout, err);
        stop.restore = SignalHandlers.handle(SIGNALS, stop::signal);
        return stop;
    }

    /** Acts as if {@code name} ("INT", "TERM") had been received. */
    public void signal(String name) {
        if (signal.compareAndSet(null, name)) {
            err.println(
                    "neardup: SIG"
                            + name
                            + ": stopping with a savepoint in "
                            + Path.of(java.net.URI.create(savepointDir))
                            + " (Ctrl-C again cancels at once; the next run then resumes from the"
                            + " last checkpoint)");
            err.flush();
            job.stopWithSavepoint(false, savepointDir, SavepointFormatType.NATIVE)
                    .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .whenComplete(
                            (path, e) -> {
                                if (e == null) {
                                    stopped.complete(path);
                                } else {
                                    job.cancel();
                                    stopped.completeExceptionally(e);
                                }
                            });
        } else {
            err.println("neardup: SIG" + name + " again: cancelling");
            err.flush();
            job.cancel();
        }
    }

    public boolean requested() {
        return signal.get() != null;
    }

    /** The exit code of a stopped run: 130, after SIGINT or SIGTERM. */
    public int exitCode() {
        String s = signal.get();
        return SignalHandlers.exitCode(s == null ? "INT" : s);
    }

    /** The outcome of the stop: the savepoint's path, or why there is none (then cancelled). */
    public CompletableFuture<String> stopped() {
        return stopped;
    }

    @Override
    public void close() {
        restore.run();
    }
}
