package dev.neardup.cli;

import dev.neardup.config.Setting;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The option list of {@code run}, {@code evaluate} and {@code dedupe} under headings (input and
 * output, similarity, buckets and state, Kafka, runtime), in place of picocli's one list: the
 * options come from mixins shared by several commands, so a heading is chosen here by the option's
 * name, once for all of them. An option without a section would still be listed, last, under "Other
 * options:" (HelpTextTest fails on it).
 */
final class HelpSections {

    /** The commands whose options are listed under headings. */
    static final Set<String> COMMANDS = Set.of("run", "evaluate", "dedupe");

    /** Heading of the options no section names. */
    static final String OTHER = "Other options";

    /** The sections in the order they are printed, with the (longest) names of their options. */
    static final Map<String, List<String>> SECTIONS = new LinkedHashMap<>();

    static {
        SECTIONS.put(
                "Input and output",
                List.of(
                        "--input",
                        "--input-format",
                        "--sample",
                        "--alerts",
                        "--verdicts",
                        "--dead-letters",
                        "--clusters",
                        "--keep",
                        "--pairs",
                        "--summary",
                        "--histogram",
                        "--json",
                        "--plot",
                        "--report",
                        "--report-samples"));
        SECTIONS.put(
                "Evaluation", List.of("--floor", "--recall-similarity", "--precision-similarity"));
        SECTIONS.put("Clusters", List.of("--keep-policy", "--split-below"));
        SECTIONS.put(
                "Similarity",
                List.of(
                        "--threshold",
                        "--similarity",
                        "--containment",
                        "--max-size-ratio",
                        "--sketch-size",
                        "--max-hamming",
                        "--simhash-bits",
                        "--simhash-blocks",
                        "--simhash-table-hamming",
                        "--simhash-verify",
                        "--simhash-verify-bits",
                        "--simhash-features",
                        "--shingle",
                        "--shingle-size",
                        "--stopwords",
                        "--stem",
                        "--num-hashes",
                        "--algorithm",
                        "--bands",
                        "--rows",
                        "--candidates",
                        "--window",
                        "--permutations",
                        "--verify"));
        SECTIONS.put(
                "Buckets and state",
                List.of(
                        "--bucket-capacity",
                        "--retention",
                        "--signature-bits",
                        "--block-size",
                        "--state-backend",
                        "--checkpoint-interval"));
        List<String> kafka = new ArrayList<>();
        KafkaOptions.SETTINGS.forEach(o -> kafka.add(Setting.forKey(o.key()).flags().get(0)));
        kafka.addAll(
                List.of(
                        "--kafka-property",
                        "--kafka-properties",
                        "--state-dir",
                        "--fresh",
                        "--max-out-of-orderness",
                        "--idle-timeout",
                        "--early-alerts"));
        SECTIONS.put("Kafka (instead of files)", kafka);
        SECTIONS.put(
                "Runtime",
                List.of(
                        "--parallelism",
                        "-D",
                        "--work-dir",
                        "--quiet",
                        "--progress-interval",
                        "--help",
                        "--version"));
    }

    private HelpSections() {}

    /** Lists the options of {@link #COMMANDS} under headings. */
    static void install(CommandLine top) {
        for (String name : COMMANDS) {
            top.getSubcommands()
                    .get(name)
                    .getHelpSectionMap()
                    .put(
                            CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST,
                            HelpSections::render);
        }
    }

    /** The heading of an option: its section, or {@link #OTHER}. */
    static String section(OptionSpec option) {
        return SECTIONS.entrySet().stream()
                .filter(e -> e.getValue().contains(option.longestName()))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElse(OTHER);
    }

    private static String render(Help help) {
        Map<String, List<OptionSpec>> bySection = new LinkedHashMap<>();
        SECTIONS.keySet().forEach(s -> bySection.put(s, new ArrayList<>()));
        bySection.put(OTHER, new ArrayList<>());
        help.commandSpec().options().stream()
                .filter(option -> !option.hidden())
                .forEach(option -> bySection.get(section(option)).add(option));
        StringBuilder out = new StringBuilder();
        bySection.forEach(
                (heading, options) -> {
                    if (options.isEmpty()) {
                        return;
                    }
                    List<String> order = SECTIONS.getOrDefault(heading, List.of());
                    options.sort(Comparator.comparingInt(o -> order.indexOf(o.longestName())));
                    Help.Layout layout = help.createDefaultLayout();
                    for (OptionSpec option : options) {
                        layout.addOption(option, help.parameterLabelRenderer());
                    }
                    out.append(out.length() == 0 ? "" : "\n").append(heading).append(":\n");
                    out.append(layout);
                });
        return out.toString();
    }
}
