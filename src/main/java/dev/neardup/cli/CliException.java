package dev.neardup.cli;

/**
 * An error with a message meant for the user, thrown by subcommands: either a usage error (exit
 * code 2, the message is followed by a pointer to the command's help) or a failure while running
 * (exit code 1). {@link Neardup} prints the message as one line, without a stack trace.
 */
final class CliException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final boolean usageError;

    private CliException(String message, boolean usageError, Throwable cause) {
        super(message, cause);
        this.usageError = usageError;
    }

    /** A problem with the arguments: a bad value, a missing or unreadable input file. */
    static CliException usage(String message) {
        return new CliException(message, true, null);
    }

    /** A failure while running: network, write errors and the like. */
    static CliException failure(String message, Throwable cause) {
        return new CliException(message, false, cause);
    }

    boolean isUsageError() {
        return usageError;
    }
}
