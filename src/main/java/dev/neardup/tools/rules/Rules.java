package dev.neardup.tools.rules;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.neardup.config.RulesOptions;
import dev.neardup.io.Json;
import dev.neardup.urlrules.RuleLearner;
import dev.neardup.urlrules.UrlRule;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
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
     */
    public record Learned(RunOutputs outputs, RuleLearner.Result learned) {}

    private Rules() {}

    /** The bounds of {@code conf} ({@link RulesOptions}). */
    public static RuleLearner.Settings settings(ReadableConfig conf) {
        return new RuleLearner.Settings(
                conf.get(RulesOptions.MIN_SUPPORT), conf.get(RulesOptions.MIN_PRECISION), EXAMPLES);
    }

    /** Reads the outputs of a run and learns their rules. */
    public static Learned learn(
            Path alerts, Path verdicts, RuleLearner.Settings settings, PrintWriter err)
            throws IOException {
        RunOutputs outputs = RunOutputs.read(alerts, verdicts, err);
        return new Learned(outputs, RuleLearner.learn(outputs.pages(), outputs.pairs(), settings));
    }

    /** Writes the kept rules, one JSON object a line. */
    public static void write(RuleLearner.Result result, Writer out) throws IOException {
        for (RuleLearner.Learned l : result.rules()) {
            out.write(Json.MAPPER.writeValueAsString(json(l)));
            out.write('\n');
        }
        out.flush();
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
    public static String summary(Learned l, RuleLearner.Settings settings) {
        RuleLearner.Result r = l.learned();
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
