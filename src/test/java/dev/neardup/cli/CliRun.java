package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/** Runs the command line in-process and captures exit code, stdout and stderr. */
record CliRun(int exitCode, String out, String err) {

    static CliRun run(String... args) {
        return runWithStdin(InputStream.nullInputStream(), args);
    }

    static CliRun runWithStdin(String stdin, String... args) {
        return runWithStdin(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), args);
    }

    static CliRun runWithStdin(InputStream stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                Neardup.execute(
                        stdin, new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** Asserts success with nothing on stderr. */
    CliRun succeeded() {
        assertThat(exitCode).as("exit code; stderr: %s", err).isZero();
        assertThat(err).as("stderr").isEmpty();
        return this;
    }

    /**
     * Asserts a usage error: exit code 2, nothing on stdout, exactly one line on stderr that names
     * the command, contains {@code fragment}, points to the help and shows no stack trace.
     */
    CliRun usageError(String command, String fragment) {
        assertThat(exitCode).as("exit code; stderr: %s", err).isEqualTo(2);
        assertThat(out).as("stdout").isEmpty();
        assertOneCleanLine(command);
        assertThat(err).contains(fragment).contains("(see '" + command + " --help')");
        return this;
    }

    /** Asserts a failure while running: exit code 1 and one clean line naming the command. */
    CliRun failure(String command, String fragment) {
        assertThat(exitCode).as("exit code; stderr: %s", err).isEqualTo(1);
        assertOneCleanLine(command);
        assertThat(err).contains(fragment);
        return this;
    }

    private void assertOneCleanLine(String command) {
        assertThat(err.lines().count()).as("lines on stderr: %s", err).isEqualTo(1);
        assertThat(err).startsWith(command + ": ");
        assertThat(err)
                .doesNotContain("Exception")
                .doesNotContain("at dev.")
                .doesNotContain("\tat ");
    }
}
