package dev.neardup.urlrules;

import java.util.ArrayList;
import java.util.List;

/**
 * Where two paths differ, as substitutions of whole path segments found by a longest common
 * subsequence of the segments (Dasgupta, Kumar and Sasturkar 2008 align URL tokens the same way):
 * each run of segments that differ is one hunk. A hunk is written with the slashes around it, so
 * that as a substring it stays on segment boundaries: {@code /print/} for a print view inserted in
 * the path, {@code /index.html} at its end. When a hunk is one segment on each side and the two
 * share a prefix or suffix of tokens (split at {@code . - _ ; , ~ +}), the hunk is first offered as
 * the differing tokens only ({@code .txt}, {@code .html} against {@code .php}).
 */
final class PathDiff {

    /** Paths with more segments than this are not diffed (their pairs yield no path rule). */
    static final int MAX_SEGMENTS = 64;

    private static final String DELIMITERS = ".-_;,~+";

    /**
     * One way of writing a hunk: the text of each side and where it starts in its path.
     *
     * @param a the hunk in the first path
     * @param aAt where {@code a} starts in the first path
     * @param b the hunk in the second path
     * @param bAt where {@code b} starts in the second path
     */
    record Option(String a, int aAt, String b, int bAt) {}

    private PathDiff() {}

    /** The hunks of {@code a} against {@code b}, each as its options, the narrowest first. */
    static List<List<Option>> hunks(String a, String b) {
        String[] sa = a.split("/", -1);
        String[] sb = b.split("/", -1);
        int n = sa.length;
        int m = sb.length;
        if (n > MAX_SEGMENTS || m > MAX_SEGMENTS) {
            return List.of();
        }
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] =
                        sa[i].equals(sb[j])
                                ? lcs[i + 1][j + 1] + 1
                                : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        int[] oa = offsets(sa);
        int[] ob = offsets(sb);
        List<List<Option>> hunks = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && sa[i].equals(sb[j])) {
                i++;
                j++;
                continue;
            }
            int i0 = i;
            int j0 = j;
            while ((i < n || j < m) && !(i < n && j < m && sa[i].equals(sb[j]))) {
                if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
                    i++;
                } else {
                    j++;
                }
            }
            if (i0 == 0 || j0 == 0) {
                return List.of(); // a path that does not start with '/'
            }
            List<Option> options = new ArrayList<>();
            if (i - i0 == 1 && j - j0 == 1) {
                Option tokens = tokens(sa[i0], oa[i0], sb[j0], ob[j0]);
                if (tokens != null) {
                    options.add(tokens);
                }
            }
            options.add(new Option(side(sa, i0, i), at(oa, i0, i), side(sb, j0, j), at(ob, j0, j)));
            hunks.add(options);
        }
        return hunks;
    }

    /** Where each segment starts in the path. */
    private static int[] offsets(String[] segments) {
        int[] at = new int[segments.length + 1];
        for (int k = 0; k < segments.length; k++) {
            at[k + 1] = at[k] + segments[k].length() + 1;
        }
        return at;
    }

    /** The segments from {@code s} to {@code e} with the slashes around them. */
    private static String side(String[] segments, int s, int e) {
        String after = e < segments.length ? "/" : "";
        if (s == e) {
            return after;
        }
        return "/" + String.join("/", List.of(segments).subList(s, e)) + after;
    }

    /** Where {@link #side} starts: at the slash before segment {@code s}. */
    private static int at(int[] offsets, int s, int e) {
        return offsets[s] - 1;
    }

    /** The tokens in which two segments differ, or null when they share no prefix or suffix. */
    private static Option tokens(String a, int aAt, String b, int bAt) {
        List<String> ta = split(a);
        List<String> tb = split(b);
        int p = 0;
        while (p < ta.size() && p < tb.size() && ta.get(p).equals(tb.get(p))) {
            p++;
        }
        int q = 0;
        while (q < ta.size() - p
                && q < tb.size() - p
                && ta.get(ta.size() - 1 - q).equals(tb.get(tb.size() - 1 - q))) {
            q++;
        }
        if (p == 0 && q == 0) {
            return null;
        }
        int from = p;
        // A differing run that starts with a word keeps the delimiter before it (".html").
        if (p > 0 && !delimiterAt(ta, p) && !delimiterAt(tb, p)) {
            from = p - 1;
        }
        String ma = String.join("", ta.subList(from, ta.size() - q));
        String mb = String.join("", tb.subList(from, tb.size() - q));
        if (ma.isEmpty() && mb.isEmpty()) {
            return null;
        }
        int skipped = String.join("", ta.subList(0, from)).length();
        return new Option(ma, aAt + skipped, mb, bAt + skipped);
    }

    private static boolean delimiterAt(List<String> tokens, int k) {
        return k < tokens.size() && isDelimiter(tokens.get(k));
    }

    private static boolean isDelimiter(String token) {
        return token.length() == 1 && DELIMITERS.indexOf(token.charAt(0)) >= 0;
    }

    /** A segment's words and delimiters, in order. */
    private static List<String> split(String segment) {
        List<String> tokens = new ArrayList<>();
        int start = 0;
        for (int k = 0; k < segment.length(); k++) {
            if (DELIMITERS.indexOf(segment.charAt(k)) >= 0) {
                if (k > start) {
                    tokens.add(segment.substring(start, k));
                }
                tokens.add(String.valueOf(segment.charAt(k)));
                start = k + 1;
            }
        }
        if (start < segment.length()) {
            tokens.add(segment.substring(start));
        }
        return tokens;
    }
}
