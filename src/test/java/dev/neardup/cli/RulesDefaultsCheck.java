package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.testing.PlantedRulesCrawl;
import dev.neardup.tools.rules.RunOutputs;
import dev.neardup.urlrules.RuleLearner;
import dev.neardup.urlrules.UrlRule;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The measurement behind the defaults of {@code --min-support} and {@code --min-precision}: the
 * real job runs on generated crawls with planted rules (5, 10 and 30 pages per rule, three seeds
 * each) and on the sample crawl, and the rules are learned from its outputs at each pair of bounds.
 * Prints, per bound, the planted pairs not normalised together, the content-changing parameters
 * dropped, the largest share of URLs merged with a URL of other content, and the rules written. Too
 * slow for every build (nine job runs), so its name keeps it out of the default test run; run it
 * with {@code mvn test -Dtest=RulesDefaultsCheck}.
 */
class RulesDefaultsCheck {

    private static final int[] SUPPORTS = {1, 2, 3, 5};
    private static final double[] PRECISIONS = {0.5, 0.8, 0.9, 0.95, 0.99};

    @TempDir Path dir;

    @Test
    void boundsOnPlantedCrawlsAndTheSample() throws Exception {
        Map<String, long[]> unlearned = new HashMap<>();
        Map<String, long[]> dropped = new HashMap<>();
        Map<String, double[]> merged = new HashMap<>();
        Map<String, long[]> rules = new HashMap<>();
        Map<String, long[]> noisy = new HashMap<>();
        long planted = 0;
        for (int perRule : new int[] {5, 10, 30}) {
            for (long seed = 1; seed <= 3; seed++) {
                PlantedRulesCrawl crawl = PlantedRulesCrawl.generate(seed, perRule);
                planted += crawl.planted.size();
                Path in = dir.resolve("crawl-" + perRule + "-" + seed + ".jsonl");
                crawl.writeJsonl(in);
                Path alerts = dir.resolve("alerts-" + perRule + "-" + seed + ".jsonl");
                Path verdicts = dir.resolve("verdicts-" + perRule + "-" + seed + ".jsonl");
                assertThat(
                                CliRun.run(
                                                "run",
                                                "--input",
                                                in.toString(),
                                                "--alerts",
                                                alerts.toString(),
                                                "--verdicts",
                                                verdicts.toString())
                                        .exitCode())
                        .isZero();
                RunOutputs outputs =
                        RunOutputs.read(alerts, verdicts, new PrintWriter(new StringWriter()));
                for (int s : SUPPORTS) {
                    for (double p : PRECISIONS) {
                        String key = s + " " + p;
                        List<UrlRule> found =
                                RuleLearner.learn(
                                                outputs.pages(),
                                                outputs.pairs(),
                                                new RuleLearner.Settings(s, p, 3))
                                        .rules()
                                        .stream()
                                        .map(RuleLearner.Learned::rule)
                                        .toList();
                        unlearned.computeIfAbsent(key, k -> new long[1])[0] +=
                                crawl.planted.stream()
                                        .filter(
                                                x ->
                                                        !UrlRule.normalise(found, x.url())
                                                                .equals(
                                                                        UrlRule.normalise(
                                                                                found,
                                                                                x.variantUrl())))
                                        .count();
                        dropped.computeIfAbsent(key, k -> new long[1])[0] +=
                                found.stream()
                                        .filter(r -> r.kind() == UrlRule.Kind.DROP_PARAMETER)
                                        .filter(
                                                r ->
                                                        PlantedRulesCrawl.CONTENT_PARAMETERS
                                                                .contains(r.parameter()))
                                        .count();
                        noisy.computeIfAbsent(key, k -> new long[1])[0] +=
                                found.contains(
                                                UrlRule.dropParameter(
                                                        "store.example.org", "variant"))
                                        ? 1
                                        : 0;
                        double[] m = merged.computeIfAbsent(key, k -> new double[1]);
                        m[0] = Math.max(m[0], wronglyMerged(crawl, found));
                        rules.computeIfAbsent(key, k -> new long[1])[0] += found.size();
                    }
                }
            }
        }
        System.out.printf(
                Locale.ROOT,
                "planted pairs %d in 9 crawls%nminSupport minPrecision unlearned dropped"
                        + " noisyDropped maxMerged rules%n",
                planted);
        for (int s : SUPPORTS) {
            for (double p : PRECISIONS) {
                String key = s + " " + p;
                System.out.printf(
                        Locale.ROOT,
                        "%d %.2f %d %d %d %.4f %d%n",
                        s,
                        p,
                        unlearned.get(key)[0],
                        dropped.get(key)[0],
                        noisy.get(key)[0],
                        merged.get(key)[0],
                        rules.get(key)[0]);
            }
        }
        Path verdicts = dir.resolve("sample-verdicts.jsonl");
        Path alerts = dir.resolve("sample-alerts.jsonl");
        CliRun.run(
                "run",
                "--sample",
                "--alerts",
                alerts.toString(),
                "--verdicts",
                verdicts.toString());
        RunOutputs sample = RunOutputs.read(alerts, verdicts, new PrintWriter(new StringWriter()));
        for (int s : SUPPORTS) {
            RuleLearner.Result r =
                    RuleLearner.learn(
                            sample.pages(), sample.pairs(), new RuleLearner.Settings(s, 0.95, 3));
            System.out.println("sample, min support " + s + ": " + r.rules().size() + " rules");
            r.rules()
                    .forEach(
                            l ->
                                    System.out.println(
                                            "  "
                                                    + l.rule()
                                                    + " support "
                                                    + l.support()
                                                    + " violations "
                                                    + l.violations()));
            if (s == 1) {
                r.rejected()
                        .forEach(
                                l ->
                                        System.out.println(
                                                "  rejected "
                                                        + l.rule()
                                                        + " support "
                                                        + l.support()
                                                        + " violations "
                                                        + l.violations()));
            }
        }
    }

    private static double wronglyMerged(PlantedRulesCrawl crawl, List<UrlRule> rules) {
        Map<String, Set<String>> clusters = new HashMap<>();
        for (PlantedRulesCrawl.Page p : crawl.pages) {
            clusters.computeIfAbsent(UrlRule.normalise(rules, p.url()), k -> new HashSet<>())
                    .add(p.cluster());
        }
        return crawl.pages.stream()
                        .filter(p -> clusters.get(UrlRule.normalise(rules, p.url())).size() > 1)
                        .count()
                / (double) crawl.pages.size();
    }
}
