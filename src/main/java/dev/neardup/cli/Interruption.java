package dev.neardup.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP during a local run: instead of the JVM's default (exit at
 * once, in the middle of whatever the job was writing, leaving the temporary directory behind), the
 * first signal runs an action that stops the job ({@link #onSignal}), and the command then finishes
 * normally: sinks closed, summary printed, temporary files removed, and exit code 128 + the signal
 * number ({@link #exitCode()}: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP, as a shell reports
 * a process the signal ended). A second signal, or the job not stopping within {@link
 * #GRACE_MILLIS}, exits at once.
 *
 * <p>Installed for the duration of a command ({@link #install}, then {@link #close}, which puts the
 * previous handlers back). Where the JVM does not let the handlers be replaced (run with {@code
 * -Xrs}, or a signal it reserves), that signal keeps its default behaviour.
 */
final class Interruption implements AutoCloseable {

    /** How long the job may take to stop after the first signal before the process exits. */
    static final long GRACE_MILLIS = 60_000;

    /** Ctrl-C, kill's default, and the terminal closing (as the JVM itself handles them). */
    private static final String[] SIGNALS = {"INT", "TERM", "HUP"};

    private final PrintWriter err;
    private final boolean terminal;
    private final Runnable cleanUp;
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
    private final AtomicReference<Signal> received = new AtomicReference<>();
    private Runnable action;
    private Thread watchdog;

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
     * @param terminal whether err is a terminal (a message then starts on a new line, after the
     *     progress line and the "^C" the terminal echoes)
     */
    static Interruption install(PrintWriter err, boolean terminal, Runnable cleanUp) {
        Interruption interruption = new Interruption(err, terminal, cleanUp);
        for (String name : SIGNALS) {
            try {
                Signal signal = new Signal(name);
                interruption.previous.put(signal, Signal.handle(signal, interruption::handle));
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                // -Xrs, or a signal the JVM reserves here: its default behaviour stays
            }
        }
        return interruption;
    }

    /**
     * What the first signal does from now on (stop the job; it must not block). If a signal came
     * already, runs it at once.
     */
    void onSignal(Runnable stop) {
        boolean now;
        synchronized (this) {
            action = stop;
            now = received.get() != null;
        }
        if (now) {
            stop.run();
        }
    }

    /** True once a signal has arrived. */
    boolean interrupted() {
        return received.get() != null;
    }

    /** "SIGINT", "SIGTERM" or "SIGHUP", or null. */
    String signalName() {
        Signal s = received.get();
        return s == null ? null : "SIG" + s.getName();
    }

    /** 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP. */
    int exitCode() {
        Signal s = received.get();
        return s == null ? 0 : 128 + s.getNumber();
    }

    private void handle(Signal signal) {
        if (!received.compareAndSet(null, signal)) {
            exitNow("neardup: " + "SIG" + signal.getName() + " again: exiting now", signal);
            return;
        }
        Runnable stop;
        synchronized (this) {
            stop = action;
        }
        if (stop == null) {
            exitNow("neardup: interrupted (SIG" + signal.getName() + ")", signal);
            return;
        }
        err.println();
        err.println(
                "neardup: SIG" + signal.getName() + ": stopping the job (again to exit at once)");
        err.flush();
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

    private void exitNow(String message, Signal signal) {
        say(message);
        // Not in the signal's thread: System.exit waits for the shutdown hooks.
        Thread exit =
                new Thread(
                        () -> {
                            try {
                                cleanUp.run();
                            } finally {
                                System.exit(128 + signal.getNumber());
                            }
                        },
                        "neardup-exit");
        exit.start();
    }

    /** Puts the previous handlers back. */
    @Override
    public void close() {
        previous.forEach(Signal::handle);
        previous.clear();
        synchronized (this) {
            if (watchdog != null) {
                watchdog.interrupt();
            }
        }
    }
}
