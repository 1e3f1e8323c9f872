package dev.neardup.cli;

import dev.neardup.config.RulesOptions;
import dev.neardup.config.Setting;
import dev.neardup.runtime.CliFiles;
import dev.neardup.runtime.NeardupException;
import dev.neardup.tools.rules.Rules;
import dev.neardup.tools.rules.RunOutputs;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code neardup rules}: URL rewrite rules learned from a run's duplicates ({@link Rules}). */
@Command(
        name = "rules",
        header = "Learn URL rules that explain the duplicates, for the crawler.",
        description = {
            "Learns URL rewrite rules, per host, from the near-duplicate pairs of a run ('run"
                    + " --verdicts', and its alerts) or of a dedupe ('dedupe --clusters', and its"
                    + " pairs): host aliases (a www host that is its bare"
                    + " name), the scheme (http:// to https://), query parameters to drop"
                    + " (session ids, tracking parameters) and path replacements (/print/ to /,"
                    + " /index.html to /). Each pair proposes the rules that explain where its"
                    + " two URLs differ.",
            "",
            "A rule's support is the pairs it explains; its violations are the pairs of pages"
                    + " in different clusters that it would give one URL (a page number, an item"
                    + " id); precision = support / (support + violations). Rules with enough"
                    + " support and precision are written, one JSON object a line, in the order"
                    + " in which a crawler applies them: host aliases, schemes, parameters,"
                    + " paths.",
            ""
        },
        footer = {
            "  neardup run --input crawl.jsonl --verdicts verdicts.jsonl > alerts.jsonl",
            "  neardup rules --alerts alerts.jsonl --verdicts verdicts.jsonl \\",
            "      --output rules.jsonl",
            "  neardup rules --verdicts verdicts.jsonl --min-support 10 --min-precision 0.99",
            "  neardup rules --clusters clusters.jsonl --pairs pairs.jsonl",
            "  neardup rules --verdicts verdicts.jsonl --output-format regex-normalize \\",
            "      --output regex-normalize.xml"
        })
final class RulesCommand implements Callable<Integer>, SettingFlags.Bound {

    @Override
    public List<ConfigOption<?>> settings() {
        return List.of(RulesOptions.MIN_SUPPORT, RulesOptions.MIN_PRECISION);
    }

    @Spec CommandSpec spec;

    @Option(
            names = "--verdicts",
            paramLabel = "FILE",
            description =
                    "The verdicts of a run (JSON Lines, as 'run --verdicts' writes them): the"
                            + " pages, their clusters, and the pairs of their matches. This or"
                            + " --clusters is required.")
    Path verdicts;

    @Option(
            names = "--alerts",
            paramLabel = "FILE",
            description =
                    "The alerts of the same run (JSON Lines, as 'run' writes them): more pairs,"
                            + " and the cluster merges. Default: none (the verdicts' matches are"
                            + " the pairs).")
    Path alerts;

    @Option(
            names = "--clusters",
            paramLabel = "FILE",
            description =
                    "Instead of a run's outputs, those of 'dedupe': its --clusters file (the"
                            + " pages and their clusters).")
    Path clusters;

    @Option(
            names = "--pairs",
            paramLabel = "FILE",
            description =
                    "With --clusters: the --pairs file of the same dedupe. Default: none (each"
                            + " page is paired with its cluster's first page).")
    Path pairs;

    @Option(
            names = {"--output", "-o"},
            paramLabel = "FILE",
            description =
                    "Where to write the rules, as --output-format says. Default: standard output.")
    String output;

    @Option(
            names = "--output-format",
            paramLabel = "jsonl|regex-normalize|heritrix",
            defaultValue = "jsonl",
            description =
                    "How to write the rules: jsonl (one JSON object a line, with support,"
                            + " violations and examples), regex-normalize (a regex-normalize.xml"
                            + " for the regex URL normalisers of Nutch and StormCrawler) or"
                            + " heritrix (RegexRule beans for a Heritrix canonicalization"
                            + " policy). Default: ${DEFAULT-VALUE}.")
    String format;

    @Override
    public Integer call() throws IOException {
        Rules.Format how = Rules.Format.of(format);
        if (how == null) {
            throw NeardupException.usage(
                    "--output-format: expected jsonl, regex-normalize or heritrix, got '"
                            + format
                            + "'");
        }
        if ((verdicts == null) == (clusters == null)) {
            throw NeardupException.usage(
                    "give the outputs of a run (--verdicts) or of a dedupe (--clusters), one of"
                            + " them");
        }
        if (verdicts != null ? pairs != null : alerts != null) {
            throw NeardupException.usage("--alerts goes with --verdicts, --pairs with --clusters");
        }
        for (Path file : new Path[] {verdicts, alerts, clusters, pairs}) {
            if (file != null) {
                CliFiles.readableFile("file", file.toString(), file);
            }
        }
        CliFiles.writableFile("--output", output);
        Configuration conf = new Configuration();
        SettingFlags.given(spec).forEach(conf::setString);
        Setting.check(conf);
        Rules.Learned learned =
                Rules.learn(
                        verdicts != null
                                ? RunOutputs.read(alerts, verdicts, spec.commandLine().getErr())
                                : RunOutputs.readDedupe(
                                        clusters, pairs, spec.commandLine().getErr()),
                        conf);
        if (output == null || output.equals("-")) {
            Rules.write(learned.learned(), how, spec.commandLine().getOut());
        } else {
            Path file = Path.of(output).toAbsolutePath();
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                Rules.write(learned.learned(), how, out);
            } catch (IOException e) {
                throw NeardupException.failure(
                        "cannot write --output " + output + ": " + e.getMessage(), e);
            }
        }
        spec.commandLine().getErr().println(Rules.summary(learned));
        return 0;
    }
}
