package dev.neardup.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.LongStream;

/**
 * Exact all-pairs cosine join: every pair of {@link TermVector}s whose exact cosine similarity
 * (sim(x, y) = x . y / (|x| |y|), computed as {@link TermVector#cosine}) is at least a floor. The
 * ground truth that SimHash fingerprints (Charikar, STOC 2002) and their candidate generators
 * (Manku, Jain and Das Sarma, WWW 2007, tables and sliding window) are measured against, without
 * comparing every pair.
 *
 * <p>Algorithm: All-Pairs of Bayardo, Ma and Srikant 2007 on the vectors scaled to unit length. The
 * bounds can only let extra candidates through, and a pair is reported when {@link
 * TermVector#cosine} of the two is at least the floor: the result equals the brute-force list of
 * all pairs with {@code TermVector.cosine(a, b) >= floor}. Weights must be non-negative, as {@link
 * TermVector} guarantees. Single-threaded; memory about 12 bytes per indexed posting and 8 per
 * vector. Design: docs/design/exact-joins.md.
 */
public final class ExactCosineJoin {

    /** Relative lowering of the filters' floor: rounding can only add candidates. */
    private static final double SLACK = 1e-9;

    private ExactCosineJoin() {}

    /**
     * A pair of vectors, {@code first < second} (indexes into the input list), with their exact
     * cosine as computed by {@link TermVector#cosine}.
     */
    public record Pair(int first, int second, double cosine) {}

    /**
     * The pairs of a join and what it cost.
     *
     * @param pairs all pairs with cosine &ge; the floor, sorted by (first, second)
     * @param indexEntries postings in the inverted index
     * @param candidates pairs verified with {@link TermVector#cosine}
     */
    public record Result(List<Pair> pairs, long indexEntries, long candidates) {}

    /**
     * All pairs of vectors with exact cosine &ge; {@code floor}, each once with {@code first <
     * second}, sorted by (first, second).
     *
     * @throws IllegalArgumentException if floor is not in (0, 1]
     */
    public static List<Pair> allPairs(List<TermVector> vectors, double floor) {
        return join(vectors, floor).pairs();
    }

    /** As {@link #allPairs}, with the join's statistics. */
    public static Result join(List<TermVector> vectors, double floor) {
        if (!(floor > 0 && floor <= 1)) {
            throw new IllegalArgumentException(
                    "cosine floor must be in (0, 1] (0 would pair every two vectors), was "
                            + floor);
        }
        int n = vectors.size();
        TermVector[] docs = vectors.toArray(new TermVector[0]);
        // Document frequencies: every vector's features are distinct, so count runs of the sorted
        // concatenation.
        long total = Arrays.stream(docs).mapToLong(TermVector::size).sum();
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("too many features for one join: " + total);
        }
        long[] all = new long[(int) total];
        int k = 0;
        for (TermVector v : docs) {
            for (int i = 0; i < v.size(); i++) {
                all[k++] = v.feature(i);
            }
        }
        Arrays.sort(all);
        // The shared features, ascending, and (-frequency, index) of each.
        LongStream.Builder sharedFeatures = LongStream.builder();
        LongStream.Builder byFrequency = LongStream.builder();
        int shared = 0;
        for (int i = 0, j; i < all.length; i = j) {
            j = i + 1;
            while (j < all.length && all[j] == all[i]) {
                j++;
            }
            if (j - i >= 2) {
                sharedFeatures.add(all[i]);
                byFrequency.add(((long) -(j - i) << 32) | shared++);
            }
        }
        all = null;
        // Ids by decreasing document frequency, ties by feature value (the order of the index).
        long[] order = byFrequency.build().sorted().toArray();
        int[] idOfShared = new int[shared];
        for (int id = 0; id < shared; id++) {
            idOfShared[(int) order[id]] = id;
        }
        long[] sortedShared = sharedFeatures.build().toArray();

        // Each vector's shared features as (id, unit weight), ascending id; maxweight per id.
        int[][] ids = new int[n][];
        double[][] units = new double[n][];
        double[] maxWeight = new double[shared];
        for (int d = 0; d < n; d++) {
            TermVector v = docs[d];
            double norm = v.norm();
            long[] keys = new long[v.size()];
            int m = 0;
            for (int i = 0; i < v.size(); i++) {
                int s = Arrays.binarySearch(sortedShared, v.feature(i));
                if (s >= 0) {
                    double u = v.weight(i) / norm;
                    keys[m++] = ((long) idOfShared[s] << 32) | i;
                    maxWeight[idOfShared[s]] = Math.max(maxWeight[idOfShared[s]], u);
                }
            }
            Arrays.sort(keys, 0, m);
            ids[d] = new int[m];
            units[d] = new double[m];
            for (int i = 0; i < m; i++) {
                ids[d][i] = (int) (keys[i] >>> 32);
                units[d][i] = v.weight((int) keys[i]) / norm;
            }
        }

        double bound = floor * (1 - SLACK);
        Postings[] index = new Postings[shared];
        double[] prefixBound = new double[n];
        double[] prefixNorm = new double[n];
        double[] accumulated = new double[n];
        boolean[] touched = new boolean[n];
        int[] touchedList = new int[n];
        List<Pair> pairs = new ArrayList<>();
        long indexEntries = 0;
        long candidates = 0;
        for (int x = 0; x < n; x++) {
            int[] xi = ids[x];
            double[] xu = units[x];
            int touchedCount = 0;
            for (int i = 0; i < xi.length; i++) {
                Postings p = index[xi[i]];
                if (p == null) {
                    continue;
                }
                double u = xu[i];
                for (int e = 0; e < p.size; e++) {
                    int y = p.vectors[e];
                    if (!touched[y]) {
                        touched[y] = true;
                        touchedList[touchedCount++] = y;
                    }
                    accumulated[y] += u * p.weights[e];
                }
            }
            for (int t = 0; t < touchedCount; t++) {
                int y = touchedList[t];
                double upper = accumulated[y] + Math.min(prefixBound[y], prefixNorm[y]);
                accumulated[y] = 0;
                touched[y] = false;
                if (upper * (1 + SLACK) >= bound) {
                    candidates++;
                    double c = TermVector.cosine(docs[y], docs[x]);
                    if (c >= floor) {
                        pairs.add(new Pair(y, x, c));
                    }
                }
            }
            // Index x from where its bound reaches the floor.
            double b = 0;
            double squares = 0;
            int i = 0;
            for (; i < xi.length; i++) {
                double next = b + xu[i] * maxWeight[xi[i]];
                if (next >= bound) {
                    break;
                }
                b = next;
                squares += xu[i] * xu[i];
            }
            prefixBound[x] = b;
            prefixNorm[x] = Math.sqrt(squares);
            for (; i < xi.length; i++) {
                Postings p = index[xi[i]];
                if (p == null) {
                    p = index[xi[i]] = new Postings();
                }
                p.add(x, xu[i]);
                indexEntries++;
            }
        }
        pairs.sort(Comparator.comparingInt(Pair::first).thenComparingInt(Pair::second));
        return new Result(pairs, indexEntries, candidates);
    }

    /** One feature's postings: (vector, unit weight), growable. */
    private static final class Postings {
        int[] vectors = new int[4];
        double[] weights = new double[4];
        int size;

        void add(int vector, double weight) {
            if (size == vectors.length) {
                vectors = Arrays.copyOf(vectors, 2 * size);
                weights = Arrays.copyOf(weights, 2 * size);
            }
            vectors[size] = vector;
            weights[size] = weight;
            size++;
        }
    }
}
