package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The error messages issue 12 found wrong, one test each: every one is a single line naming what is
 * wrong, with exit code 2 for a usage error, given before any job starts (the help-text ones are in
 * {@link HelpTextTest}, the picocli warning in {@link NeardupTest}).
 */
class CliMessagesTest {

    @TempDir Path dir;
    private Path input;

    @BeforeEach
    void input() throws Exception {
        input = dir.resolve("docs.jsonl");
        Files.writeString(input, "{\"id\": \"a\", \"content\": \"one two three four five\"}\n");
    }

    /** It ended in "internal error: IllegalArgumentException" (exit 1). */
    @Test
    void aZeroCheckpointIntervalIsAUsageError() {
        CliRun.run("run", "--input", input.toString(), "--checkpoint-interval", "0s")
                .usageError("neardup run", "--checkpoint-interval")
                .usageError("neardup run", "must be at least 10ms");
        CliRun.run("bench", "--checkpoint-interval", "0s")
                .usageError("neardup bench", "--checkpoint-interval")
                .usageError("neardup bench", "must be at least 10ms");
    }

    /** It said "input file not found". */
    @Test
    void aDirectoryGivenAsInputIsCalledADirectory() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Files.writeString(empty.resolve("_SUCCESS"), "");
        for (String command : new String[] {"run", "evaluate", "dedupe"}) {
            CliRun r =
                    CliRun.run(command, "--input", empty.toString(), "--clusters", "-")
                            .usageError(
                                    "neardup " + command,
                                    "no input file in the directory " + empty);
            assertThat(r.err()).doesNotContain("not found");
        }
        CliRun.run("compare", dir.toString(), input.toString())
                .usageError("neardup compare", dir + " is a directory, not a file");
    }

    /** The job started and failed late with exit code 1 ("the job failed: ... Is a directory"). */
    @Test
    void anOutputThatIsADirectoryIsAUsageErrorBeforeTheJobStarts() {
        for (String option : new String[] {"--alerts", "--verdicts", "--dead-letters"}) {
            CliRun.run("run", "--input", input.toString(), option, dir.toString())
                    .usageError("neardup run", option + " " + dir + " is a directory");
        }
    }

    /**
     * evaluate exited 1 where run exited 2. /proc/self/mem is a regular file that every process may
     * open but whose first byte cannot be read (an I/O error), also as root; a file without read
     * permission is the same case for other users.
     */
    @Test
    void anUnreadableInputIsTheSameUsageErrorInEveryCommand() throws Exception {
        String unreadable = "/proc/self/mem";
        String message = "cannot read " + unreadable + ": ";
        CliRun.run("run", "--input", unreadable).usageError("neardup run", message);
        CliRun.run("evaluate", "--input", unreadable).usageError("neardup evaluate", message);
        CliRun.run("compare", unreadable, input.toString()).usageError("neardup compare", message);

        Path locked = dir.resolve("locked.jsonl");
        Files.copy(input, locked);
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        if (!Files.isReadable(locked)) { // not root, who may read it anyway
            String denied = "cannot read " + locked + ": permission denied";
            CliRun.run("run", "--input", locked.toString()).usageError("neardup run", denied);
            CliRun.run("evaluate", "--input", locked.toString())
                    .usageError("neardup evaluate", denied);
        }
    }

    /** picocli's message for a map option said "value for option option '-D'". */
    @Test
    void aMalformedKeyValueOptionSaysOptionOnce() {
        CliRun r =
                CliRun.run("run", "--input", input.toString(), "-D", "foo")
                        .usageError("neardup run", "option '-D' takes KEY=VALUE, got 'foo'");
        assertThat(r.err()).doesNotContain("option option");
        CliRun.run("run", "--bootstrap-servers", "h:1", "--kafka-property", "x")
                .usageError("neardup run", "option '--kafka-property' takes KEY=VALUE, got 'x'");
        // An argument that names a secret is not shown (issue 30).
        CliRun.run("run", "--bootstrap-servers", "h:1", "--kafka-property", "ssl.key.password:pw1")
                .usageError(
                        "neardup run",
                        "got an argument without '=' that names a secret (not shown)");
        // A key alone is refused too.
        CliRun.run("run", "--sample", "-D", "neardup.threshold")
                .usageError("neardup run", "option '-D' takes KEY=VALUE, got 'neardup.threshold'");
    }

    /** picocli's "Error: ..." prefix said nothing after "neardup run: ". */
    @Test
    void exclusiveOptionsNeedNoErrorPrefix() {
        CliRun.run("run", "--input", input.toString(), "--sample")
                .usageError(
                        "neardup run",
                        "neardup run: --input=FILE, --sample are mutually exclusive");
    }
}
