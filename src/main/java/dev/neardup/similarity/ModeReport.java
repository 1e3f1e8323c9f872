package dev.neardup.similarity;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;

/**
 * A mode's part of a tool's answer, as text and as one JSON object: its tuning for {@code tune}
 * ({@link ModeTuning}), or what it adds to {@code compare} ({@link SimilarityMode#comparison}).
 */
public interface ModeReport {

    void printText(PrintWriter out);

    /** The answer as one JSON object (field to value, in order). */
    Map<String, Object> toJson();

    /** A line of {@code compare}'s table: label, value, note. */
    static void line(PrintWriter out, String label, String value, String note) {
        out.printf(Locale.ROOT, "%-19s %-7s %s%n", label, value, note);
    }
}
