package dev.neardup.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * README.md's "What `run --sample` prints" against what a run printed: every line the README shows
 * is printed (stderr lines in the README's order, alerts among the run's alerts), every stderr line
 * the run prints is shown, and the abridged counts ("... 28 more alerts and 1 cluster merge ...")
 * add up to the run's. Only what varies from run to run is masked: durations ("in 0.1 s"), an
 * alert's {@code detectedAt} and {@code band} (the first band to report a pair), which alert comes
 * first, and the progress lines a slow run prints.
 */
final class ReadmeSample {

    static final String HEADING = "## What `run --sample` prints";

    private static final Pattern MORE =
            Pattern.compile(
                    "^\\.\\.\\. (\\d+) more (alerts|dead letters)(?: and (\\d+) cluster"
                            + " merges?)? \\.\\.\\.$");
    private static final Pattern DURATION = Pattern.compile("\\bin [0-9]+(?:\\.[0-9]+)? s\\b");
    private static final ObjectMapper JSON = new ObjectMapper();

    private ReadmeSample() {}

    /** The lines of the first fenced block after {@link #HEADING}. */
    static List<String> block(String readme) {
        int heading = readme.indexOf("\n" + HEADING + "\n");
        if (heading < 0) {
            throw new IllegalArgumentException("README.md has no heading '" + HEADING + "'");
        }
        int open = readme.indexOf("\n```", heading);
        int start = readme.indexOf('\n', open + 1) + 1;
        int close = readme.indexOf("\n```", start - 1);
        if (open < 0 || close < 0) {
            throw new IllegalArgumentException("no fenced block after '" + HEADING + "'");
        }
        return readme.substring(start, close + 1).lines().toList();
    }

    /** The line with its durations masked. */
    static String masked(String line) {
        return DURATION.matcher(line).replaceAll("in # s");
    }

    /** What the README shows that the run did not print, or printed otherwise; empty when none. */
    static List<String> drift(List<String> shown, String stdout, String stderr) {
        List<String> drifts = new ArrayList<>();
        List<JsonNode> alerts = new ArrayList<>();
        List<JsonNode> merges = new ArrayList<>();
        for (String line : stdout.lines().toList()) {
            JsonNode record = stable(line);
            (record.has("event") ? merges : alerts).add(record);
        }
        List<String> err =
                stderr.lines()
                        .filter(l -> !l.startsWith("{\"progress\""))
                        .map(ReadmeSample::masked)
                        .toList();
        long deadLetters = err.stream().filter(ReadmeSample::isDeadLetter).count();

        int shownAlerts = 0;
        int shownMerges = 0;
        int shownDeadLetters = 0;
        int moreAlerts = 0;
        int moreMerges = 0;
        int moreDeadLetters = 0;
        int next = 0; // the stderr lines shown come in the run's order
        List<String> shownErr = new ArrayList<>();
        for (String line : shown) {
            Matcher more = MORE.matcher(line);
            if (line.startsWith("{")) {
                JsonNode record = stable(line);
                boolean merge = record.has("event");
                if (merge) {
                    shownMerges++;
                } else {
                    shownAlerts++;
                }
                if (!(merge ? merges : alerts).contains(record)) {
                    drifts.add("an alert the run did not write: " + line);
                }
            } else if (more.matches()) {
                int n = Integer.parseInt(more.group(1));
                if (more.group(2).equals("alerts")) {
                    moreAlerts += n;
                    moreMerges += more.group(3) == null ? 0 : Integer.parseInt(more.group(3));
                } else {
                    moreDeadLetters += n;
                }
            } else if (line.startsWith("neardup: ")) {
                String m = masked(line);
                shownErr.add(m);
                if (isDeadLetter(m)) {
                    shownDeadLetters++;
                }
                int at = err.subList(next, err.size()).indexOf(m);
                if (at < 0) {
                    drifts.add(
                            (err.contains(m)
                                            ? "a stderr line out of the run's order: "
                                            : "a stderr line the run did not print: ")
                                    + line);
                } else {
                    next += at + 1;
                }
            } else {
                drifts.add("a line that is neither output nor an abridgement: " + line);
            }
        }
        for (String line : err) {
            if (!isDeadLetter(line) && !shownErr.contains(line)) {
                drifts.add("a stderr line the run printed and README.md does not show: " + line);
            }
        }
        count(drifts, "alerts", shownAlerts, moreAlerts, alerts.size());
        count(drifts, "cluster merges", shownMerges, moreMerges, merges.size());
        count(drifts, "dead letters", shownDeadLetters, moreDeadLetters, deadLetters);
        return drifts;
    }

    private static void count(List<String> drifts, String what, int shown, int more, long real) {
        if (shown + more != real) {
            drifts.add(
                    String.format(
                            "README.md shows %d %s and %d more, %d in all; the run wrote %d",
                            shown, what, more, shown + more, real));
        }
    }

    private static boolean isDeadLetter(String stderrLine) {
        return stderrLine.startsWith("neardup: dead letter at ");
    }

    /** An output record without what varies from run to run. */
    private static JsonNode stable(String line) {
        try {
            JsonNode node = JSON.readTree(line);
            if (node instanceof ObjectNode o) {
                o.remove("detectedAt");
                o.remove("band");
            }
            return node;
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not a JSON line: " + line, e);
        }
    }
}
