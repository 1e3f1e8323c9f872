package dev.neardup.tools.report;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;
import com.github.difflib.patch.Chunk;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A word diff of two texts: each side as runs of words, marked where the other side differs. The
 * diff is Myers' (Myers, "An O(ND) difference algorithm and its variations", Algorithmica 1986),
 * from java-diff-utils, over the texts' words (runs of non-space characters).
 */
public final class WordDiff {

    /**
     * A run of words of one side, joined by single spaces; {@code changed} when not in the other.
     */
    public record Run(String text, boolean changed) {}

    /** The two sides: the left text's runs and the right text's. */
    public record Sides(List<Run> left, List<Run> right) {}

    private WordDiff() {}

    /** The word diff of {@code left} and {@code right}. */
    public static Sides of(String left, String right) {
        List<String> a = words(left);
        List<String> b = words(right);
        List<Run> l = new ArrayList<>();
        List<Run> r = new ArrayList<>();
        int i = 0;
        int j = 0;
        for (AbstractDelta<String> d : DiffUtils.diff(a, b).getDeltas()) {
            Chunk<String> source = d.getSource();
            Chunk<String> target = d.getTarget();
            add(l, a.subList(i, source.getPosition()), false);
            add(r, b.subList(j, target.getPosition()), false);
            add(l, source.getLines(), true);
            add(r, target.getLines(), true);
            i = source.getPosition() + source.size();
            j = target.getPosition() + target.size();
        }
        add(l, a.subList(i, a.size()), false);
        add(r, b.subList(j, b.size()), false);
        return new Sides(l, r);
    }

    private static List<String> words(String text) {
        String t = text.strip();
        return t.isEmpty() ? List.of() : Arrays.asList(t.split("\\s+"));
    }

    private static void add(List<Run> runs, List<String> words, boolean changed) {
        if (!words.isEmpty()) {
            runs.add(new Run(String.join(" ", words), changed));
        }
    }
}
