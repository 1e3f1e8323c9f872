package dev.neardup.runtime;

import org.apache.flink.util.function.SupplierWithException;

/**
 * An error with a message meant for the user, thrown by subcommands: either a usage error (exit
 * code 2, the message is followed by a pointer to the command's help) or a failure while running
 * (exit code 1). {@link Neardup} prints the message as one line, without a stack trace.
 */
public final class NeardupException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final boolean usageError;

    private NeardupException(String message, boolean usageError, Throwable cause) {
        super(message, cause);
        this.usageError = usageError;
    }

    /** A problem with the arguments: a bad value, a missing or unreadable input file. */
    public static NeardupException usage(String message) {
        return new NeardupException(message, true, null);
    }

    /** A failure while running: network, write errors and the like. */
    public static NeardupException failure(String message, Throwable cause) {
        return new NeardupException(message, false, cause);
    }

    /** What {@code step} gives; an IllegalArgumentException (invalid setting) is a usage error. */
    public static <T, E extends Exception> T usageIfInvalid(SupplierWithException<T, E> step)
            throws E {
        try {
            return step.get();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    public boolean isUsageError() {
        return usageError;
    }

    /** Why {@code e} happened, in one line: its message, or its class when it has none. */
    static String reason(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : oneLine(e.getMessage());
    }

    /** Collapses line breaks and runs of white space, so that a message stays one line. */
    public static String oneLine(String message) {
        if (message == null || message.isBlank()) {
            return "unknown error";
        }
        return message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
