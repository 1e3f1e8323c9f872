package dev.neardup.tools.rules;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.neardup.config.RulesOptions;
import dev.neardup.io.Json;
import dev.neardup.urlrules.RuleLearner;
import dev.neardup.urlrules.RuleRegexes;
import dev.neardup.urlrules.UrlRule;
import java.io.IOException;
import java.io.Writer;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * {@code neardup rules}: URL rewrite rules learned from a run's duplicates ({@link RuleLearner}),
 * written as JSON Lines, one rule a line, in the order in which a crawler applies them.
 */
public final class Rules {

    /** The version of the rules file's records. */
    public static final int SCHEMA_VERSION = 1;

    /** How many example pairs a rule carries. */
    public static final int EXAMPLES = 3;

    /**
     * The learned rules and what they were learned from.
     *
     * @param outputs the run's outputs as read
     * @param learned the rules and the candidates not kept
     * @param settings the bounds they were learned with
     */
    public record Learned(
            RunOutputs outputs, RuleLearner.Result learned, RuleLearner.Settings settings) {}

    private Rules() {}

    /** The bounds of {@code conf} ({@link RulesOptions}). */
    public static RuleLearner.Settings settings(ReadableConfig conf) {
        return new RuleLearner.Settings(
                conf.get(RulesOptions.MIN_SUPPORT), conf.get(RulesOptions.MIN_PRECISION), EXAMPLES);
    }

    /**
     * Learns the rules of outputs read ({@link RunOutputs#read}, {@link RunOutputs#readDedupe}).
     */
    public static Learned learn(RunOutputs outputs, RuleLearner.Settings settings) {
        return new Learned(
                outputs, RuleLearner.learn(outputs.pages(), outputs.pairs(), settings), settings);
    }

    /** The default bounds ({@link RulesOptions}), with which the HTML reports learn the rules. */
    public static RuleLearner.Settings defaults() {
        return settings(new Configuration());
    }

    /** Learns the rules of outputs read, with the bounds of {@code conf}. */
    public static Learned learn(RunOutputs outputs, ReadableConfig conf) {
        return learn(outputs, settings(conf));
    }

    /** Writes the kept rules, one JSON object a line. */
    public static void write(RuleLearner.Result result, Writer out) throws IOException {
        for (RuleLearner.Learned l : result.rules()) {
            out.write(Json.MAPPER.writeValueAsString(json(l)));
            out.write('\n');
        }
        out.flush();
    }

    /** How the rules are written. */
    public enum Format {
        /** One JSON object a line (rule.schema.json). */
        JSONL("jsonl"),
        /** A regex-normalize.xml file of Apache Nutch's and StormCrawler's regex normalisers. */
        REGEX_NORMALIZE("regex-normalize"),
        /** Spring beans of Heritrix's RegexRule, for its canonicalization policy's rules list. */
        HERITRIX("heritrix");

        private final String label;

        Format(String label) {
            this.label = label;
        }

        /** The name on the command line. */
        public String label() {
            return label;
        }

        /** The format named {@code label}, or null. */
        public static Format of(String label) {
            for (Format f : values()) {
                if (f.label.equals(label)) {
                    return f;
                }
            }
            return null;
        }
    }

    /** Writes the kept rules in {@code format}. */
    public static void write(RuleLearner.Result result, Format format, Writer out)
            throws IOException {
        switch (format) {
            case JSONL -> write(result, out);
            case REGEX_NORMALIZE -> {
                out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
                out.write(
                        "<!-- URL rules learned by neardup rules, in order: each <regex> is a"
                                + " Java regular expression over the whole URL. -->\n");
                out.write("<regex-normalize>\n");
                for (RuleLearner.Learned l : result.rules()) {
                    out.write("<!-- " + comment(l) + " -->\n");
                    for (RuleRegexes.Regex r : RuleRegexes.of(l.rule())) {
                        out.write("<regex>\n  <pattern>" + xml(r.pattern()) + "</pattern>\n");
                        out.write(
                                "  <substitution>"
                                        + xml(r.substitution())
                                        + "</substitution>\n</regex>\n");
                    }
                }
                out.write("</regex-normalize>\n");
            }
            case HERITRIX -> {
                out.write(
                        "<!-- URL rules learned by neardup rules, in order, as beans for the"
                                + " rules list of a RulesCanonicalizationPolicy. -->\n");
                for (RuleLearner.Learned l : result.rules()) {
                    out.write("<!-- " + comment(l) + " -->\n");
                    for (RuleRegexes.Regex r : RuleRegexes.of(l.rule())) {
                        out.write(
                                "<bean class=\"org.archive.modules.canonicalize.RegexRule\">\n"
                                        + "  <property name=\"regex\" value=\""
                                        + xml(r.pattern())
                                        + "\"/>\n  <property name=\"format\" value=\""
                                        + xml(r.substitution())
                                        + "\"/>\n</bean>\n");
                    }
                }
            }
        }
        out.flush();
    }

    /** The rule and its evidence, for an XML comment (no "--" in it, no "-" at its end). */
    private static String comment(RuleLearner.Learned l) {
        String text =
                String.format(
                        Locale.ROOT,
                        "%s: support %d, violations %d, precision %.3f",
                        l.rule(),
                        l.support(),
                        l.violations(),
                        l.precision());
        while (text.contains("--")) {
            text = text.replace("--", "- -");
        }
        return text.endsWith("-") ? text + " " : text;
    }

    /** Text as XML character data or a quoted attribute value. */
    private static String xml(String s) {
        return s.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;")
                .replace("'", "&apos;");
    }

    /** A rule as a record of the rules file. */
    public static ObjectNode json(RuleLearner.Learned l) {
        UrlRule rule = l.rule();
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("schemaVersion", SCHEMA_VERSION);
        node.put("host", rule.host());
        node.put("kind", rule.kind().label());
        if (rule.kind() == UrlRule.Kind.DROP_PARAMETER) {
            node.put("parameter", rule.parameter());
        } else {
            node.put("from", rule.from());
            node.put("to", rule.to());
        }
        node.put("support", l.support());
        node.put("violations", l.violations());
        node.put("precision", l.precision());
        ArrayNode examples = node.putArray("examples");
        for (RuleLearner.Pair p : l.examples()) {
            examples.addObject().put("url", p.url()).put("duplicateUrl", p.duplicateUrl());
        }
        return node;
    }

    /** One line on what was learned, for standard error. */
    public static String summary(Learned l) {
        RuleLearner.Result r = l.learned();
        RuleLearner.Settings settings = l.settings();
        StringBuilder s =
                new StringBuilder(
                        String.format(
                                Locale.ROOT,
                                "neardup: %d rules (support >= %d, precision >= %.2f) explain"
                                        + " %,d of %,d near-duplicate URL pairs; %,d pages,"
                                        + " %,d verdicts, %,d alerts read",
                                r.rules().size(),
                                settings.minSupport(),
                                settings.minPrecision(),
                                r.explained(),
                                r.pairs(),
                                l.outputs().pages().size(),
                                l.outputs().verdicts(),
                                l.outputs().alerts()));
        Map<String, Long> skipped = l.outputs().skipped();
        if (!skipped.isEmpty()) {
            s.append("; lines skipped:");
            skipped.forEach(
                    (reason, n) -> s.append(' ').append(n).append(" (").append(reason).append(')'));
        }
        return s.toString();
    }
}
