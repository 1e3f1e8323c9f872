package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NeardupTest {

    @Test
    void helpListsTheCommands() {
        CliRun r = CliRun.run("--help").succeeded();
        assertThat(r.out()).contains("Usage: neardup").contains("tune").contains("compare");
        assertThat(r.out()).contains("Examples:");
    }

    @Test
    void everyCommandHasHelpWithDefaults() {
        CliRun tune = CliRun.run("tune", "--help").succeeded();
        assertThat(tune.out())
                .contains("Usage: neardup tune")
                .contains("--threshold")
                .contains("Default: 128")
                .contains("--plot");
        CliRun compare = CliRun.run("compare", "-h").succeeded();
        assertThat(compare.out())
                .contains("Usage: neardup compare")
                .contains("--shingle=word|char")
                .contains("Default: word")
                .contains("Default: oph");
    }

    /** picocli reads descriptions as format strings: an unescaped % prints a warning. */
    @Test
    void noHelpTextMakesPicocliWarn() {
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(
                new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            for (String command : new String[] {"run", "tune", "compare", "bench", "evaluate"}) {
                CliRun.run(command, "--help").succeeded();
            }
        } finally {
            System.setErr(original);
        }
        assertThat(captured.toString(java.nio.charset.StandardCharsets.UTF_8))
                .doesNotContain("picocli WARN");
        assertThat(CliRun.run("bench", "--help").succeeded().out()).contains("(2%");
    }

    @Test
    void everyCommandHasVersion() {
        for (String[] args :
                new String[][] {{"--version"}, {"tune", "--version"}, {"compare", "-V"}}) {
            CliRun r = CliRun.run(args).succeeded();
            assertThat(r.out()).startsWith("neardup ").contains("Java ");
        }
    }

    @Test
    void noCommandIsAUsageErrorThatShowsTheUsage() {
        CliRun r = CliRun.run();
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("neardup: missing command").contains("Commands:");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void unknownCommandOrOptionIsAUsageError() {
        CliRun.run("frobnicate").usageError("neardup", "frobnicate");
        CliRun.run("--frob").usageError("neardup", "--frob");
    }

    @Test
    void aMisspelledOptionGetsASuggestion() {
        CliRun.run("tune", "--treshold", "0.8").usageError("neardup tune", "--threshold");
    }

    @Test
    void debugModePrintsTheStackTrace() {
        System.setProperty("neardup.debug", "true");
        try {
            CliRun r = CliRun.run("tune", "--threshold", "2");
            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("ConfigException").contains("at dev.neardup.cli.");
        } finally {
            System.clearProperty("neardup.debug");
        }
    }
}
