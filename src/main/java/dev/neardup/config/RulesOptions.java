package dev.neardup.config;

import org.apache.flink.configuration.ConfigOption;

/**
 * The options of {@code neardup rules}, which learns URL rewrite rules from a run's duplicates: the
 * bounds a rule must reach to be written. The defaults were measured on generated crawls with
 * planted rules and content-changing parameters (docs/save-crawl-budget.md).
 */
public final class RulesOptions {

    private RulesOptions() {}

    public static final ConfigOption<Integer> MIN_SUPPORT =
            Setting.of(
                            "neardup.rules.min-support",
                            3,
                            "The fewest near-duplicate pairs a URL rule must explain to be"
                                    + " written (pairs of distinct URLs, counted once whichever"
                                    + " way round). A rule seen in fewer pairs is not written (the"
                                    + " HTML report lists it as a candidate).")
                    .flag("N", "--min-support")
                    .between(1, Integer.MAX_VALUE)
                    .declare();

    public static final ConfigOption<Double> MIN_PRECISION =
            Setting.of(
                            "neardup.rules.min-precision",
                            0.95,
                            "The least precision of a URL rule that is written: support / (support"
                                + " + violations), where a violation is a pair of pages that the"
                                + " rule would give one URL although they are in different clusters"
                                + " (a page number, an item id).")
                    .flag("P", "--min-precision")
                    .between(0.0, 1.0)
                    .declare();
}
