package dev.neardup.runtime;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP during a local run: the first signal runs the action that
 * stops the job ({@link #onSignal}) and the command then finishes normally, with {@link
 * #exitCode()}; a second signal, or the job not stopping within {@link #GRACE_MILLIS}, exits at
 * once. Installed from {@link #install} until {@link #close}, through {@link SignalHandlers}.
 * Design: docs/design/local-runs.md.
 */
public final class Interruption implements AutoCloseable {

    /** How long the job may take to stop after the first signal before the process exits. */
    public static final long GRACE_MILLIS = 60_000;

    /** Ctrl-C, kill's default, and the terminal closing. */
    private static final List<String> SIGNALS = List.of("INT", "TERM", "HUP");

    private final PrintWriter err;
    private final boolean terminal;
    private final Runnable cleanUp;
    private Runnable restore;
    private final AtomicReference<String> received = new AtomicReference<>();
    private Runnable action;
    private Thread watchdog;

    /**
     * The interruption installed when this one was (a command run inside another, as {@code bench
     * --files} runs {@code run}), or null: exiting at once runs its clean-up too.
     */
    private Interruption outer;

    /** The innermost interruption installed, or null. */
    private static final AtomicReference<Interruption> INSTALLED = new AtomicReference<>();

    private Interruption(PrintWriter err, boolean terminal, Runnable cleanUp) {
        this.err = err;
        this.terminal = terminal;
        this.cleanUp = cleanUp;
    }

    /**
     * Handles SIGINT, SIGTERM and SIGHUP from now on. Until {@link #onSignal} sets an action, a
     * signal exits at once (nothing to stop yet), as do a second signal and a job that does not
     * stop in time: {@code cleanUp} (removing temporary files) runs first then.
     *
     * @param err where to say what happens, or null for nothing ({@code --quiet})
     * @param progress the run's progress display, or null; on a terminal, a message then starts on
     *     a new line, after the progress line and the "^C" the terminal echoes
     */
    public static Interruption install(PrintWriter err, Progress progress, Runnable cleanUp) {
        boolean terminal = progress != null && progress.terminal();
        Interruption interruption = new Interruption(err, terminal, cleanUp);
        interruption.restore = SignalHandlers.handle(SIGNALS, interruption::handle);
        interruption.outer = INSTALLED.getAndSet(interruption);
        return interruption;
    }

    /** The first signal's action (stops the job, must not block); run at once if a signal came. */
    public void onSignal(Runnable stop) {
        boolean now;
        synchronized (this) {
            action = stop;
            now = received.get() != null;
        }
        if (now) {
            stop.run();
        }
    }

    public boolean interrupted() {
        return received.get() != null;
    }

    /** "SIGINT", "SIGTERM" or "SIGHUP", or null. */
    public String signalName() {
        String s = received.get();
        return s == null ? null : "SIG" + s;
    }

    /** 130 after SIGINT or SIGTERM, 129 after SIGHUP ({@link SignalHandlers#exitCode}). */
    public int exitCode() {
        String s = received.get();
        return s == null ? 0 : SignalHandlers.exitCode(s);
    }

    /** What a signal does ("INT", "TERM", "HUP"); called by the handler, and by tests. */
    public void handle(String signal) {
        if (!received.compareAndSet(null, signal)) {
            exitNow("neardup: SIG" + signal + " again: exiting now", signal);
            return;
        }
        Runnable stop;
        synchronized (this) {
            stop = action;
        }
        if (stop == null) {
            exitNow("neardup: interrupted (SIG" + signal + ")", signal);
            return;
        }
        say("neardup: SIG" + signal + ": stopping the job (again to exit at once)");
        Thread timer =
                new Thread(
                        () -> {
                            try {
                                Thread.sleep(GRACE_MILLIS);
                            } catch (InterruptedException e) {
                                return;
                            }
                            exitNow(
                                    "neardup: the job did not stop within "
                                            + GRACE_MILLIS / 1000
                                            + " s: exiting",
                                    signal);
                        },
                        "neardup-interrupt-watchdog");
        timer.setDaemon(true);
        synchronized (this) {
            watchdog = timer;
        }
        timer.start();
        stop.run();
    }

    private void say(String message) {
        if (err != null) {
            if (terminal) {
                err.println();
            }
            err.println(message);
            err.flush();
        }
    }

    private void exitNow(String message, String signal) {
        say(message);
        // Not in the signal's thread: System.exit waits for the shutdown hooks.
        Thread exit =
                new Thread(
                        () -> {
                            try {
                                cleanUpWithOuter();
                            } finally {
                                System.exit(SignalHandlers.exitCode(signal));
                            }
                        },
                        "neardup-exit");
        exit.start();
    }

    /** This one's clean-up, then the outer interruptions' (each even if one before failed). */
    private void cleanUpWithOuter() {
        try {
            cleanUp.run();
        } finally {
            if (outer != null) {
                outer.cleanUpWithOuter();
            }
        }
    }

    /** Puts the previous handlers back. */
    @Override
    public void close() {
        restore.run();
        INSTALLED.compareAndSet(this, outer);
        synchronized (this) {
            if (watchdog != null) {
                watchdog.interrupt();
            }
        }
    }
}
