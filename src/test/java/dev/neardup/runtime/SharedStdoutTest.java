package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A run whose outputs share stdout says so on stderr, with how to tell their records apart. */
class SharedStdoutTest {

    @Test
    void verdictsOnStdoutBesideTheDefaultAlertsAreNamedWithTheFieldThatTellsThemApart() {
        assertThat(EmbeddedRun.sharedStdout(null, "-", null))
                .startsWith("neardup: alerts and verdicts both go to stdout, interleaved: ")
                .contains("a verdict has \"verdict\"")
                .contains("give one a file");
        assertThat(EmbeddedRun.sharedStdout("-", "-", "-"))
                .startsWith("neardup: alerts, verdicts and dead letters all go to stdout")
                .contains("a dead letter has \"reason\"");
        assertThat(EmbeddedRun.sharedStdout("a.jsonl", "-", "-"))
                .startsWith("neardup: verdicts and dead letters both go to stdout");
    }

    @Test
    void oneOutputOnStdoutIsNotWorthALine() {
        assertThat(EmbeddedRun.sharedStdout(null, null, null)).isNull();
        assertThat(EmbeddedRun.sharedStdout(null, "v.jsonl", "d.jsonl")).isNull();
        assertThat(EmbeddedRun.sharedStdout("a.jsonl", "-", null)).isNull();
    }
}
