package dev.neardup.tools.report;

import dev.neardup.tools.rules.Rules;
import dev.neardup.tools.rules.RunOutputs;
import dev.neardup.urlrules.RuleLearner;
import dev.neardup.urlrules.UrlRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report's tables of a run's URL rules ({@code neardup rules} on its verdicts): the rules kept,
 * the most supported candidates that were not, and the hosts with the most duplicates.
 */
final class RulesTables {

    /** How many candidates and hosts the tables show. */
    static final int ROWS = 20;

    private RulesTables() {}

    static List<Report.Table> of(Rules.Learned learned) {
        RuleLearner.Result r = learned.learned();
        RuleLearner.Settings settings = learned.settings();
        List<String> columns =
                List.of("host", "rule", "support", "violations", "precision", "examples");
        List<List<String>> kept = new ArrayList<>();
        r.rules().forEach(l -> kept.add(row(l)));
        String bounds =
                String.format(
                        Locale.ROOT,
                        "support >= %d, precision >= %.2f",
                        settings.minSupport(),
                        settings.minPrecision());
        Report.Table rules =
                new Report.Table(
                        "URL rules",
                        String.format(
                                Locale.ROOT,
                                "What 'neardup rules' learns from these verdicts (%s): %d rules,"
                                        + " in the order a crawler applies them, explain %,d of"
                                        + " the %,d near-duplicate URL pairs. Support: the pairs a"
                                        + " rule explains; violations: pairs of pages in different"
                                        + " clusters it would give one URL.",
                                bounds,
                                r.rules().size(),
                                r.explained(),
                                r.pairs()),
                        columns,
                        kept);
        List<List<String>> rejected = new ArrayList<>();
        r.rejected().stream().limit(ROWS).forEach(l -> rejected.add(row(l)));
        Report.Table candidates =
                new Report.Table(
                        "Candidate rules not kept",
                        "The most supported rules that some pairs suggest but that fall below the"
                                + " bounds ("
                                + bounds
                                + "): too few pairs, or evidence that they merge different"
                                + " pages. With one pair, a rule may hold for the site or only"
                                + " for those two pages.",
                        columns,
                        rejected);
        List<List<String>> hostRows = new ArrayList<>();
        List<RunOutputs.HostRate> rates = learned.outputs().hostRates();
        rates.stream()
                .limit(ROWS)
                .forEach(
                        h ->
                                hostRows.add(
                                        List.of(
                                                h.host(),
                                                String.format(Locale.ROOT, "%,d", h.pages()),
                                                String.format(Locale.ROOT, "%,d", h.duplicates()),
                                                String.format(
                                                        Locale.ROOT, "%.1f%%", 100 * h.rate()))));
        Report.Table hosts =
                new Report.Table(
                        "Duplicates per host",
                        String.format(
                                Locale.ROOT,
                                "The %d hosts with the most duplicate verdicts (of %d hosts):"
                                        + " verdicts with a URL on the host, and how many of them"
                                        + " are DUPLICATE of an earlier page.",
                                Math.min(ROWS, rates.size()),
                                rates.size()),
                        List.of("host", "pages", "duplicates", "rate"),
                        hostRows);
        return List.of(rules, candidates, hosts);
    }

    private static List<String> row(RuleLearner.Learned l) {
        UrlRule rule = l.rule();
        String what =
                rule.kind() == UrlRule.Kind.DROP_PARAMETER
                        ? "drop-parameter " + rule.parameter()
                        : rule.kind().label() + " '" + rule.from() + "' -> '" + rule.to() + "'";
        StringBuilder examples = new StringBuilder();
        for (RuleLearner.Pair p : l.examples()) {
            examples.append(examples.length() == 0 ? "" : "\n")
                    .append(p.url())
                    .append(" = ")
                    .append(p.duplicateUrl());
        }
        return List.of(
                rule.host(),
                what,
                Long.toString(l.support()),
                l.violations() < 0 ? "-" : Long.toString(l.violations()),
                Double.isNaN(l.precision())
                        ? "-"
                        : String.format(Locale.ROOT, "%.3f", l.precision()),
                examples.toString());
    }
}
