package dev.neardup.eval;

import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Exact all-pairs containment join: every pair of shingle sets of which one is contained in the
 * other at least at a floor, max(c(A, B), c(B, A)) = |A ∩ B| / min(|A|, |B|) &gt;= t (containment,
 * Broder 1997, computed as {@link Similarity#containment}). The ground truth of {@code neardup
 * evaluate --containment T}; the sibling of {@link dev.neardup.eval.ExactSimilarityJoin}
 * (resemblance) and {@link ExactCosineJoin}.
 *
 * <p>Algorithm: prefix filtering (Bayardo, Ma and Srikant 2007; Chaudhuri, Ganti and Kaushik 2006)
 * for an overlap bound on the smaller set; the filter can only let extra candidates through, and a
 * pair is decided by the exact double division of {@link Similarity#containment}: the result equals
 * the brute-force list. Single-threaded; the index holds every shingle of every set (8 bytes a
 * posting). Design: docs/design/exact-joins.md.
 */
public final class ExactContainmentJoin {

    private ExactContainmentJoin() {}

    /** A pair (indexes, {@code first < second}) with the exact containment of each in the other. */
    public record Pair(int first, int second, double firstInSecond, double secondInFirst) {

        /** max of the two: |A ∩ B| / min(|A|, |B|). */
        public double containment() {
            return Math.max(firstInSecond, secondInFirst);
        }
    }

    /**
     * All pairs with max(c(A, B), c(B, A)) &gt;= {@code floor}, sorted by (first, second). Empty
     * sets are left out (contained in everything by convention, they say nothing).
     *
     * @throws IllegalArgumentException if floor is not in (0, 1]
     */
    public static List<Pair> allPairs(List<ShingleSet> sets, double floor) {
        if (!(floor > 0 && floor <= 1)) {
            throw new IllegalArgumentException("containment floor must be in (0, 1], got " + floor);
        }
        int n = sets.size();
        Map<Long, Integer> frequency = new HashMap<>();
        for (ShingleSet s : sets) {
            for (long h : s.toArray()) {
                frequency.merge(h, 1, Integer::sum);
            }
        }
        // Shingles as ints in increasing frequency (ties by hash): rare ones first in each set.
        Long[] boxed = frequency.keySet().toArray(new Long[0]);
        Arrays.sort(
                boxed,
                Comparator.<Long>comparingInt(frequency::get).thenComparingLong(Long::longValue));
        Map<Long, Integer> id = new HashMap<>(boxed.length * 2);
        for (int i = 0; i < boxed.length; i++) {
            id.put(boxed[i], i);
        }
        int[][] tokens = new int[n][];
        for (int i = 0; i < n; i++) {
            tokens[i] = Arrays.stream(sets.get(i).toArray()).mapToInt(id::get).sorted().toArray();
        }
        Integer[] order = new Integer[n];
        Arrays.setAll(order, i -> i);
        Arrays.sort(
                order,
                Comparator.<Integer>comparingInt(i -> -tokens[i].length).thenComparingInt(i -> i));
        double t = floor * (1 - 1e-12);
        int[] postingCount = new int[boxed.length];
        int[][] index = new int[boxed.length][];
        int[] seenAt = new int[n];
        Arrays.fill(seenAt, -1);
        List<Pair> out = new ArrayList<>();
        for (int step = 0; step < n; step++) {
            int x = order[step];
            int[] tx = tokens[x];
            if (tx.length > 0) {
                int prefix = tx.length - (int) Math.ceil(t * tx.length) + 1;
                for (int p = 0; p < Math.min(prefix, tx.length); p++) {
                    int token = tx[p];
                    for (int k = 0; k < postingCount[token]; k++) {
                        int y = index[token][k];
                        if (seenAt[y] == step) {
                            continue;
                        }
                        seenAt[y] = step;
                        ShingleSet a = sets.get(Math.min(x, y));
                        ShingleSet b = sets.get(Math.max(x, y));
                        double ab = Similarity.containment(a, b);
                        double ba = Similarity.containment(b, a);
                        if (Math.max(ab, ba) >= floor) {
                            out.add(new Pair(Math.min(x, y), Math.max(x, y), ab, ba));
                        }
                    }
                }
                for (int token : tx) {
                    if (index[token] == null) {
                        index[token] = new int[2];
                    } else if (postingCount[token] == index[token].length) {
                        index[token] = Arrays.copyOf(index[token], 2 * index[token].length);
                    }
                    index[token][postingCount[token]++] = x;
                }
            }
        }
        out.sort(Comparator.comparingInt(Pair::first).thenComparingInt(Pair::second));
        return out;
    }
}
