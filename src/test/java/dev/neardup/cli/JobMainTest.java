package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The job jar's failure message, which {@code flink run} and the REST API show. */
class JobMainTest {

    @Test
    void theFailureLeadsWithTheCommandsErrorThenItsWholeOutput() {
        String stderr =
                "neardup: dedupe threshold=0.80 K=128 11 bands x 11 rows\n"
                        + "neardup dedupe: the job failed: FileNotFoundException: File"
                        + " file:/data/in.jsonl does not exist\n";
        String message = JobMain.failureMessage("dedupe", 1, stderr);
        assertThat(message.lines().findFirst().orElseThrow())
                .isEqualTo(
                        "neardup dedupe failed (exit code 1): neardup dedupe: the job failed:"
                                + " FileNotFoundException: File file:/data/in.jsonl does not"
                                + " exist");
        assertThat(message).endsWith(stderr.strip());
    }

    @Test
    void aOneLineErrorIsNotRepeatedAndNoOutputStillSaysWhatFailed() {
        assertThat(JobMain.failureMessage("run", 2, "neardup run: no input\n"))
                .isEqualTo("neardup run failed (exit code 2): neardup run: no input");
        assertThat(JobMain.failureMessage("run", 2, "  \n"))
                .isEqualTo("neardup run failed (exit code 2)");
    }
}
