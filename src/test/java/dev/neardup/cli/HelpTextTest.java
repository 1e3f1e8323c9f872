package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.ConfigKeys;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.configuration.ConfigOption;
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

    /** The top command and every subcommand, at any depth. */
    private static List<CommandLine> everyCommand() {
        CommandLine top =
                Neardup.commandLine(
                        InputStream.nullInputStream(),
                        new PrintWriter(new StringWriter()),
                        new PrintWriter(new StringWriter()));
        List<CommandLine> all = new ArrayList<>();
        addWithSubcommands(top, all);
        return all;
    }

    private static void addWithSubcommands(CommandLine cl, List<CommandLine> all) {
        all.add(cl);
        cl.getSubcommands().values().forEach(sub -> addWithSubcommands(sub, all));
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

    /** An option's description as its help shows it. */
    private static String description(OptionSpec option) {
        return String.join(" ", option.description())
                .replace("${DEFAULT-VALUE}", String.valueOf(option.defaultValue()))
                .strip();
    }

    /**
     * No help says "Default: null" (a default that was never resolved), and no option's description
     * is empty or only a value (a resource bundle entry that replaced it).
     */
    @Test
    void noNullDefaultsAndNoDescriptionThatIsOnlyAValue() {
        for (CommandLine cl : everyCommand()) {
            String name = cl.getCommandSpec().qualifiedName();
            assertThat(collapse(help(cl))).as("%s --help", name).doesNotContain("Default: null");
            for (OptionSpec option : cl.getCommandSpec().options()) {
                assertThat(description(option))
                        .as("%s %s: description", name, option.longestName())
                        .isNotBlank()
                        .doesNotMatch("[-+]?[0-9.,]+[a-z%]*\\.?")
                        .doesNotContain("null");
            }
        }
    }

    /**
     * The ConfigOption a flag maps onto, by name: {@code --retention} is {@code neardup.retention},
     * {@code --bucket-capacity} {@code neardup.bucket.capacity}, {@code --fp-weight} {@code
     * neardup.tune.fp-weight}; null when none does.
     */
    private static ConfigOption<?> configOption(OptionSpec option) {
        String name = option.longestName().replaceFirst("^--", "");
        for (ConfigOption<?> c : ConfigKeys.OPTIONS) {
            // An option whose Setting declares other flags is not this flag's (--verify of
            // dedupe is neardup.dedupe.verify, not neardup.simhash.verify).
            dev.neardup.config.Setting<?> declared = dev.neardup.config.Setting.forKey(c.key());
            if (declared != null
                    && !declared.flags().isEmpty()
                    && !declared.flags().contains(option.longestName())) {
                continue;
            }
            String[] parts = c.key().split("\\.");
            String last = parts[parts.length - 1];
            String lastTwo = parts.length > 2 ? parts[parts.length - 2] + "-" + last : last;
            if (name.equals(last) || name.equals(lastTwo)) {
                return c;
            }
        }
        return null;
    }

    /** Flags named like a ConfigOption that has a default, which rightly show none. */
    private static final Map<String, String> NOT_ITS_DEFAULT =
            Map.of(
                    "neardup compare --content-type",
                    "how to read a document (auto, html, text), not neardup.field.content-type");

    /** A flag whose ConfigOption has a default shows it ("Default: 30d"), in every command. */
    @Test
    void everyFlagShowsTheDefaultOfItsConfigOption() {
        int checked = 0;
        List<String> missing = new ArrayList<>();
        for (CommandLine cl : everyCommand()) {
            String name = cl.getCommandSpec().qualifiedName();
            for (OptionSpec option : cl.getCommandSpec().options()) {
                ConfigOption<?> c = configOption(option);
                if (c == null
                        || !c.hasDefaultValue()
                        || option.arity().max() == 0
                        || NOT_ITS_DEFAULT.containsKey(name + " " + option.longestName())) {
                    continue;
                }
                checked++;
                String shown = dev.neardup.config.Setting.display(c.defaultValue());
                if (!collapse(description(option))
                        .matches("(?i).*default:? " + Pattern.quote(shown) + "\\b.*")) {
                    missing.add(name + " " + option.longestName() + " (" + c.key() + ")");
                }
            }
        }
        assertThat(missing).as("flags whose help does not show the default").isEmpty();
        assertThat(checked)
                .as("flags that map onto a ConfigOption with a default")
                .isGreaterThan(50);
    }

    /**
     * run, evaluate and dedupe list their options under headings (input and output, similarity,
     * buckets and state, Kafka, runtime), each option under one.
     */
    @Test
    void runEvaluateAndDedupeListTheirOptionsUnderHeadings() {
        for (CommandLine cl : everyCommand()) {
            String name = cl.getCommandName();
            if (!HelpSections.COMMANDS.contains(name)) {
                continue;
            }
            List<String> lines = help(cl).split("\nExamples:")[0].lines().toList();
            assertThat(lines)
                    .as(name)
                    .contains("Input and output:", "Similarity:", "Runtime:")
                    .doesNotContain(HelpSections.OTHER + ":");
            if (!name.equals("dedupe")) {
                assertThat(lines)
                        .as(name)
                        .contains("Buckets and state:", "Kafka (instead of files):");
            }
            for (OptionSpec option : cl.getCommandSpec().options()) {
                String heading = HelpSections.section(option) + ":";
                int at = lines.indexOf(heading);
                int listed = -1;
                // A flag that is on by default is listed as --[no-]FLAG.
                String shown =
                        option.negatable()
                                ? "--\\[no-\\]" + option.longestName().substring(2)
                                : option.longestName();
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).matches("\\s+(-\\w, )?" + shown + "([=\\s].*)?")) {
                        listed = i;
                    }
                }
                assertThat(listed).as("%s %s is listed", name, option.longestName()).isPositive();
                int next = listed;
                while (next > 0 && !lines.get(next).matches("\\S.*:")) {
                    next--;
                }
                assertThat(lines.get(next))
                        .as("%s %s is under its heading", name, option.longestName())
                        .isEqualTo(heading);
                assertThat(at).isPositive();
            }
        }
        assertThat(
                        help(everyCommand().stream()
                                        .filter(c -> c.getCommandName().equals("run"))
                                        .findFirst()
                                        .orElseThrow())
                                .replaceAll("\\s+", " "))
                .containsPattern("Similarity: -t, --threshold=T")
                .containsPattern("Kafka \\(instead of files\\): --bootstrap-servers");
    }
}
