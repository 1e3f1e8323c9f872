package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command's {@code --help} at 80 columns (picocli's width, whatever the terminal): examples
 * are printed as written, never wrapped in the middle of a token, and prose wraps at spaces only.
 */
class HelpTextTest {

    private static final int WIDTH = 80;

    private static List<CommandLine> everyCommand() {
        CommandLine top =
                Neardup.commandLine(
                        InputStream.nullInputStream(),
                        new PrintWriter(new StringWriter()),
                        new PrintWriter(new StringWriter()));
        List<CommandLine> all = new ArrayList<>();
        all.add(top);
        all.addAll(top.getSubcommands().values());
        return all;
    }

    private static String help(CommandLine cl) {
        cl.setUsageHelpWidth(WIDTH);
        return cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    private static String collapse(String text) {
        return text.replaceAll("\\s+", " ").strip();
    }

    @Test
    void helpFitsIn80Columns() {
        for (CommandLine cl : everyCommand()) {
            for (String line : help(cl).lines().toList()) {
                assertThat(line.length())
                        .as("%s --help: %s", cl.getCommandName(), line)
                        .isLessThanOrEqualTo(WIDTH);
            }
        }
    }

    /** Example lines (the footers) are short enough that picocli prints them as they are. */
    @Test
    void examplesAreNeverWrapped() {
        for (CommandLine cl : everyCommand()) {
            List<String> lines = help(cl).lines().toList();
            String[] footer = cl.getCommandSpec().usageMessage().footer();
            assertThat(footer).as(cl.getCommandName() + " has examples").isNotEmpty();
            for (String example : footer) {
                assertThat(lines)
                        .as("%s --help prints the example line as written", cl.getCommandName())
                        .contains(example.stripTrailing());
            }
        }
    }

    /**
     * Descriptions (of commands and of options) wrap only at spaces: with all white space
     * collapsed, the help contains each description as written. A break inside a token
     * ("verdicts.\njsonl") would leave a space in it.
     */
    @Test
    void proseWrapsAtSpacesOnly() {
        for (CommandLine cl : everyCommand()) {
            CommandSpec spec = cl.getCommandSpec();
            String help = collapse(help(cl));
            List<String> texts = new ArrayList<>(List.of(spec.usageMessage().description()));
            texts.addAll(List.of(spec.usageMessage().header()));
            for (OptionSpec option : spec.options()) {
                texts.add(
                        String.join(" ", option.description())
                                .replace(
                                        "${DEFAULT-VALUE}", String.valueOf(option.defaultValue())));
            }
            for (String text : texts) {
                String expected = collapse(text.replace("%n", " ").replace("%%", "%"));
                if (expected.isEmpty()) {
                    continue;
                }
                assertThat(help).as("%s --help", cl.getCommandName()).contains(expected);
            }
        }
    }

    /** The list of commands in 'neardup --help' gives each a one-line summary, a sentence. */
    @Test
    void theCommandListHasOneLineSummaries() {
        CommandLine top = everyCommand().get(0);
        for (CommandLine sub : top.getSubcommands().values()) {
            String[] header = sub.getCommandSpec().usageMessage().header();
            assertThat(header).as(sub.getCommandName()).hasSize(1);
            assertThat(header[0])
                    .as(sub.getCommandName())
                    .endsWith(".")
                    .hasSizeLessThan(WIDTH - 12);
        }
        String commands = help(top).split("Commands:")[1].split("Examples:")[0];
        assertThat(commands.lines().filter(l -> l.strip().endsWith(":"))).isEmpty();
    }
}
