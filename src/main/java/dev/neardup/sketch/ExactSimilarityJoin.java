package dev.neardup.sketch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Exact all-pairs similarity join: every pair of {@link ShingleSet}s whose exact Jaccard similarity
 * (seed 003's resemblance, computed as {@link Similarity#jaccard}) is at least a floor. The ground
 * truth that MinHash/LSH candidates are measured against, without the quadratic cost of comparing
 * every pair.
 *
 * <p>Algorithm: the prefix-filtering join of Bayardo, Ma and Srikant, "Scaling Up All Pairs
 * Similarity Search", WWW 2007 (All-Pairs), with the positional filter and the shorter index prefix
 * of Xiao, Wang, Lin and Yu, "Efficient Similarity Joins for Near Duplicate Detection", WWW 2008
 * (PPJoin):
 *
 * <ol>
 *   <li>Global token order by increasing document frequency (rare shingles first). Shingles that
 *       occur in one set only can never be shared; they are not given ids at all, only counted, and
 *       come first in every set. The other shingles get int ids in frequency order (ties by hash
 *       value), found by a k-way merge of the sorted sets over ranges of the hash space.
 *   <li>Sets are processed in order of increasing size; for a set x only earlier sets y with |y|
 *       &ge; t|x| are considered (size filter).
 *   <li>Prefix filter: if J(x, y) &ge; t then the first |x| - &lceil;t|x|&rceil; + 1 tokens of x
 *       (probe prefix) share a token with the first |y| - &lceil;2t/(1+t)|y|&rceil; + 1 tokens of y
 *       (index prefix; valid because |y| &le; |x|). Only index prefixes are put in the inverted
 *       index.
 *   <li>Positional filter: a pair needs an overlap of &alpha; = &lceil;t/(1+t) (|x| + |y|)&rceil;;
 *       when a shared prefix token sits at positions i and j, the overlap is at most the common
 *       tokens already seen plus 1 + min(|x| - i - 1, |y| - j - 1), and the pair is dropped for
 *       good when that is below &alpha;.
 *   <li>Verification by merging the two sorted id arrays, stopping early once &alpha; is out of
 *       reach; the pair is reported when {@code common / (|x| + |y| - common) >= t}, the same
 *       double division as {@link Similarity#jaccard}.
 * </ol>
 *
 * <p>The filters use the floor lowered by a relative 10<sup>-12</sup>, so rounding in their
 * floating-point bounds can only let extra candidates through, never lose a pair; the decision
 * itself is the exact comparison above. Results therefore equal the brute-force list of all pairs
 * with {@code Similarity.jaccard(a, b) >= floor}.
 *
 * <p>Empty sets follow {@link Similarity#jaccard}: J(&empty;, &empty;) = 1, so every two empty sets
 * form a pair (with Jaccard 1.0), while an empty and a non-empty set never do. Duplicate sets (J =
 * 1) are found at every floor.
 *
 * <p>Cost: the probes run in parallel on the common fork-join pool; the output is sorted, so it
 * does not depend on scheduling. Memory beyond the input is about 4 bytes per occurrence of a
 * shared shingle plus the index prefixes; the merge that counts frequencies copies the sets' hashes
 * one hash range (about 8 million hashes) at a time per worker. Low floors on corpora with many
 * frequent shingles (boilerplate) make prefixes reach frequent tokens and the join approaches the
 * quadratic comparison; so does the output itself when most pairs qualify.
 */
public final class ExactSimilarityJoin {

    /** Relative amount by which the filters' threshold is lowered (see the class comment). */
    private static final double SLACK = 1e-12;

    /** Hashes per range of the frequency-counting merge (bounds its working memory). */
    private static final long HASHES_PER_RANGE = 8_000_000L;

    /** Accumulator mark of a candidate eliminated by the positional filter. */
    private static final int PRUNED = -1;

    private ExactSimilarityJoin() {}

    /**
     * A pair of sets, {@code first < second} (indexes into the input list), with their exact
     * Jaccard similarity as computed by {@link Similarity#jaccard}.
     */
    public record Pair(int first, int second, double jaccard) {}

    /**
     * The pairs of a join and what it cost.
     *
     * @param pairs all pairs with Jaccard &ge; the floor, sorted by (first, second)
     * @param sharedShingles distinct shingles that occur in at least two sets (the rest are never
     *     indexed)
     * @param indexEntries postings in the inverted index of index prefixes
     * @param candidates pairs of non-empty sets that survived the prefix, size and positional
     *     filters and were verified by a merge
     */
    public record Result(
            List<Pair> pairs, int sharedShingles, long indexEntries, long candidates) {}

    /**
     * All pairs of sets with exact Jaccard similarity &ge; {@code floor}, each once with {@code
     * first < second}, sorted by (first, second).
     *
     * @param floor the similarity floor, 0 &lt; floor &le; 1
     * @throws IllegalArgumentException if floor is not in (0, 1]
     * @throws NullPointerException if the list or one of its sets is null
     */
    public static List<Pair> allPairs(List<ShingleSet> sets, double floor) {
        return join(sets, floor).pairs();
    }

    /** As {@link #allPairs}, with the join's statistics. */
    public static Result join(List<ShingleSet> sets, double floor) {
        return join(sets, floor, HASHES_PER_RANGE);
    }

    /** As {@link #join(List, double)}, counting frequencies in ranges of the given size (tests). */
    static Result join(List<ShingleSet> sets, double floor, long hashesPerRange) {
        if (!(floor > 0 && floor <= 1)) {
            throw new IllegalArgumentException(
                    "Jaccard floor must be in (0, 1] (0 would pair every two sets), was " + floor);
        }
        ShingleSet[] docs = sets.toArray(new ShingleSet[0]);
        for (int i = 0; i < docs.length; i++) {
            if (docs[i] == null) {
                throw new NullPointerException("set " + i + " is null");
            }
        }
        List<Pair> pairs = new ArrayList<>();
        // Empty sets: J(∅, ∅) = 1 pairs them all; J(∅, B) = 0 pairs them with nothing else.
        int[] empties = IntStream.range(0, docs.length).filter(i -> docs[i].isEmpty()).toArray();
        for (int a = 0; a < empties.length; a++) {
            for (int b = a + 1; b < empties.length; b++) {
                pairs.add(new Pair(empties[a], empties[b], 1.0));
            }
        }
        Encoded encoded = encode(docs, hashesPerRange);
        Joiner joiner = new Joiner(docs, encoded, floor);
        Probed probed = joiner.run();
        pairs.addAll(probed.pairs);
        pairs.sort(Comparator.comparingInt(Pair::first).thenComparingInt(Pair::second));
        return new Result(
                List.copyOf(pairs),
                encoded.sharedShingles,
                joiner.indexEntries(),
                probed.candidates);
    }

    // ---------------------------------------------------------------------------------------
    // Re-encoding on the global order.

    /**
     * The sets on the global token order: for each input set, the number of its shingles that occur
     * in no other set, and the ascending ids (ranks in the global order) of the others.
     */
    private record Encoded(int[] privateCount, int[][] shared, int sharedShingles) {}

    private static Encoded encode(ShingleSet[] docs, long hashesPerRange) {
        int n = docs.length;
        long total = 0;
        for (ShingleSet d : docs) {
            total += d.size();
        }
        long[] splits = splits(docs, total, hashesPerRange);
        int ranges = splits.length + 1;
        RangeCount[] counted =
                IntStream.range(0, ranges)
                        .parallel()
                        .mapToObj(r -> countRange(docs, splits, r))
                        .toArray(RangeCount[]::new);

        // Ids are numbered by hash value across the ranges; then re-ranked by frequency.
        int[] base = new int[ranges + 1];
        for (int r = 0; r < ranges; r++) {
            base[r + 1] = Math.addExact(base[r], counted[r].frequency.size);
        }
        int distinct = base[ranges];
        int[] frequency = new int[distinct];
        for (int r = 0; r < ranges; r++) {
            System.arraycopy(
                    counted[r].frequency.values, 0, frequency, base[r], base[r + 1] - base[r]);
        }
        int[] rank = rankByFrequency(frequency, n);

        int[] privateCount = new int[n];
        int[][] shared = new int[n][];
        IntStream.range(0, n)
                .parallel()
                .forEach(
                        d -> {
                            int length = 0;
                            int priv = 0;
                            for (RangeCount c : counted) {
                                length += c.sharedLength[d];
                                priv += c.privateCount[d];
                            }
                            int[] ids = new int[length];
                            int at = 0;
                            for (int r = 0; r < ranges; r++) {
                                int[] local = counted[r].shared[d];
                                int len = counted[r].sharedLength[d];
                                for (int k = 0; k < len; k++) {
                                    ids[at++] = rank[base[r] + local[k]];
                                }
                            }
                            Arrays.sort(ids);
                            shared[d] = ids;
                            privateCount[d] = priv;
                        });
        return new Encoded(privateCount, shared, distinct);
    }

    /**
     * Split points of the hash space into ranges of about {@code hashesPerRange} hashes, from a
     * sample of the sets' hashes; range r is [splits[r-1], splits[r]).
     */
    private static long[] splits(ShingleSet[] docs, long total, long hashesPerRange) {
        int ranges = (int) Math.min(256, (total + hashesPerRange - 1) / hashesPerRange);
        if (ranges <= 1) {
            return new long[0];
        }
        int step = Math.max(1, docs.length / 4096);
        LongList sample = new LongList(8192);
        for (int d = 0; d < docs.length; d += step) {
            long[] hashes = docs[d].toArray();
            int take = Math.min(hashes.length, 64);
            for (int k = 0; k < take; k++) {
                sample.add(hashes[(int) ((long) k * hashes.length / take)]);
            }
        }
        long[] s = Arrays.copyOf(sample.values, sample.size);
        Arrays.sort(s);
        LongList out = new LongList(ranges);
        for (int r = 1; r < ranges; r++) {
            long split = s[(int) ((long) r * s.length / ranges)];
            if (split != Long.MIN_VALUE && (out.size == 0 || split > out.values[out.size - 1])) {
                out.add(split);
            }
        }
        return Arrays.copyOf(out.values, out.size);
    }

    /** Frequencies and per-set ids (local to the range) of the shared hashes of one range. */
    private static final class RangeCount {
        final IntList frequency = new IntList(1024);
        final int[][] shared;
        final int[] sharedLength;
        final int[] privateCount;

        RangeCount(int n) {
            shared = new int[n][];
            sharedLength = new int[n];
            privateCount = new int[n];
        }
    }

    /**
     * Merges the sorted hashes of all sets within range {@code r} with a binary heap: each hash
     * value comes out once with the sets that hold it.
     */
    private static RangeCount countRange(ShingleSet[] docs, long[] splits, int r) {
        int n = docs.length;
        RangeCount out = new RangeCount(n);
        long[][] slice = new long[n][];
        int[] cursor = new int[n];
        long[] heapValue = new long[n];
        int[] heapDoc = new int[n];
        int heapSize = 0;
        for (int d = 0; d < n; d++) {
            if (docs[d].isEmpty()) {
                continue;
            }
            long[] hashes = docs[d].toArray();
            int from = r == 0 ? 0 : lowerBound(hashes, splits[r - 1]);
            int to = r == splits.length ? hashes.length : lowerBound(hashes, splits[r]);
            if (from == to) {
                continue;
            }
            slice[d] =
                    from == 0 && to == hashes.length
                            ? hashes
                            : Arrays.copyOfRange(hashes, from, to);
            heapValue[heapSize] = slice[d][0];
            heapDoc[heapSize] = d;
            heapSize++;
        }
        for (int i = heapSize / 2 - 1; i >= 0; i--) {
            siftDown(heapValue, heapDoc, heapSize, i);
        }
        int[] group = new int[Math.max(1, n)];
        while (heapSize > 0) {
            long value = heapValue[0];
            int members = 0;
            do {
                int d = heapDoc[0];
                group[members++] = d;
                int next = ++cursor[d];
                if (next < slice[d].length) {
                    heapValue[0] = slice[d][next];
                } else {
                    slice[d] = null;
                    heapSize--;
                    heapValue[0] = heapValue[heapSize];
                    heapDoc[0] = heapDoc[heapSize];
                }
                siftDown(heapValue, heapDoc, heapSize, 0);
            } while (heapSize > 0 && heapValue[0] == value);
            if (members == 1) {
                out.privateCount[group[0]]++;
                continue;
            }
            int id = out.frequency.size;
            out.frequency.add(members);
            for (int k = 0; k < members; k++) {
                int d = group[k];
                int[] ids = out.shared[d];
                if (ids == null) {
                    ids = new int[Math.min(docs[d].size(), 64)];
                    out.shared[d] = ids;
                } else if (out.sharedLength[d] == ids.length) {
                    ids = Arrays.copyOf(ids, Math.min(docs[d].size(), 2 * ids.length));
                    out.shared[d] = ids;
                }
                ids[out.sharedLength[d]++] = id;
            }
        }
        return out;
    }

    private static void siftDown(long[] value, int[] doc, int size, int i) {
        long v = value[i];
        int d = doc[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && value[child + 1] < value[child]) {
                child++;
            }
            if (value[child] >= v) {
                break;
            }
            value[i] = value[child];
            doc[i] = doc[child];
            i = child;
        }
        value[i] = v;
        doc[i] = d;
    }

    /** First index of a sorted array whose value is &ge; key. */
    private static int lowerBound(long[] a, long key) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** rank[id]: position of id when ordered by (frequency, id), by a counting sort. */
    private static int[] rankByFrequency(int[] frequency, int maxFrequency) {
        int[] next = new int[maxFrequency + 2];
        for (int f : frequency) {
            next[f + 1]++;
        }
        for (int f = 1; f < next.length; f++) {
            next[f] += next[f - 1];
        }
        int[] rank = new int[frequency.length];
        for (int id = 0; id < frequency.length; id++) {
            rank[id] = next[frequency[id]]++;
        }
        return rank;
    }

    // ---------------------------------------------------------------------------------------
    // The join.

    private record Probed(List<Pair> pairs, long candidates) {}

    /** PPJoin over the non-empty sets, which are numbered by (size, input index). */
    private static final class Joiner {
        private final double floor;
        private final double relaxed;
        private final double overlapFactor;
        private final int count;
        private final int[] input;
        private final int[] size;
        private final int[] privateCount;
        private final int[][] tokens;
        private final int[] postingsStart;
        private final int[] postingDoc;
        private final int[] postingPosition;

        Joiner(ShingleSet[] docs, Encoded encoded, double floor) {
            this.floor = floor;
            this.relaxed = floor * (1 - SLACK);
            this.overlapFactor = relaxed / (1 + relaxed);
            double indexFactor = 2 * relaxed / (1 + relaxed);

            long[] keys =
                    IntStream.range(0, docs.length)
                            .filter(i -> !docs[i].isEmpty())
                            .mapToLong(i -> ((long) docs[i].size() << 32) | i)
                            .sorted()
                            .toArray();
            count = keys.length;
            input = new int[count];
            size = new int[count];
            privateCount = new int[count];
            tokens = new int[count][];
            for (int x = 0; x < count; x++) {
                int i = (int) keys[x];
                input[x] = i;
                size[x] = docs[i].size();
                privateCount[x] = encoded.privateCount[i];
                tokens[x] = encoded.shared[i];
            }

            // Inverted index of the index prefixes, postings in increasing set number.
            int[] indexed = new int[count];
            postingsStart = new int[encoded.sharedShingles + 1];
            long entries = 0;
            for (int x = 0; x < count; x++) {
                indexed[x] = sharedInPrefix(x, indexFactor);
                for (int k = 0; k < indexed[x]; k++) {
                    postingsStart[tokens[x][k] + 1]++;
                }
                entries += indexed[x];
            }
            for (int w = 0; w < encoded.sharedShingles; w++) {
                postingsStart[w + 1] += postingsStart[w];
            }
            postingDoc = new int[Math.toIntExact(entries)];
            postingPosition = new int[postingDoc.length];
            int[] fill = Arrays.copyOf(postingsStart, encoded.sharedShingles);
            for (int x = 0; x < count; x++) {
                for (int k = 0; k < indexed[x]; k++) {
                    int e = fill[tokens[x][k]]++;
                    postingDoc[e] = x;
                    postingPosition[e] = privateCount[x] + k;
                }
            }
        }

        long indexEntries() {
            return postingDoc.length;
        }

        /**
         * Number of shared tokens of set x among its first |x| - ceil(factor |x|) + 1 tokens (its
         * private tokens come first).
         */
        private int sharedInPrefix(int x, double factor) {
            int prefix = size[x] - (int) Math.ceil(factor * size[x]) + 1;
            return Math.max(0, Math.min(tokens[x].length, prefix - privateCount[x]));
        }

        Probed run() {
            int workers = Math.max(1, java.util.concurrent.ForkJoinPool.getCommonPoolParallelism());
            int chunk = Math.max(64, (count + 16 * workers - 1) / (16 * workers));
            int chunks = (count + chunk - 1) / chunk;
            List<Probed> parts =
                    IntStream.range(0, chunks)
                            .parallel()
                            .mapToObj(c -> probe(c * chunk, Math.min(count, (c + 1) * chunk)))
                            .toList();
            List<Pair> pairs = new ArrayList<>();
            long candidates = 0;
            for (Probed p : parts) {
                pairs.addAll(p.pairs);
                candidates += p.candidates;
            }
            return new Probed(pairs, candidates);
        }

        /** Probes sets [from, to) against the sets numbered before each. */
        private Probed probe(int from, int to) {
            int[] accumulated = new int[count];
            int[] touched = new int[count];
            List<Pair> pairs = new ArrayList<>();
            long candidates = 0;
            for (int x = from; x < to; x++) {
                int probes = sharedInPrefix(x, relaxed);
                if (probes == 0) {
                    continue;
                }
                int nx = size[x];
                int[] tx = tokens[x];
                int minRank = firstOfSize(x, (int) Math.ceil(relaxed * nx));
                int touchedCount = 0;
                for (int k = 0; k < probes; k++) {
                    int w = tx[k];
                    int i = privateCount[x] + k;
                    int end = postingsStart[w + 1];
                    for (int e = firstPosting(postingsStart[w], end, minRank);
                            e < end && postingDoc[e] < x;
                            e++) {
                        int y = postingDoc[e];
                        int a = accumulated[y];
                        if (a < 0) {
                            continue;
                        }
                        if (a == 0) {
                            touched[touchedCount++] = y;
                        }
                        int ny = size[y];
                        int alpha = (int) Math.ceil(overlapFactor * ((long) nx + ny));
                        int bound = a + 1 + Math.min(nx - i - 1, ny - postingPosition[e] - 1);
                        accumulated[y] = bound >= alpha ? a + 1 : PRUNED;
                    }
                }
                for (int t = 0; t < touchedCount; t++) {
                    int y = touched[t];
                    if (accumulated[y] > 0) {
                        candidates++;
                        int ny = size[y];
                        int alpha = (int) Math.ceil(overlapFactor * ((long) nx + ny));
                        int common = overlap(tx, tokens[y], alpha);
                        if (common >= 0) {
                            double jaccard = (double) common / (nx + ny - common);
                            if (jaccard >= floor) {
                                int p = input[x];
                                int q = input[y];
                                pairs.add(new Pair(Math.min(p, q), Math.max(p, q), jaccard));
                            }
                        }
                    }
                    accumulated[y] = 0;
                }
            }
            return new Probed(pairs, candidates);
        }

        /** The first set number &lt; x whose size is &ge; minSize (x if none). */
        private int firstOfSize(int x, int minSize) {
            int lo = 0;
            int hi = x;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (size[mid] < minSize) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /** The first posting in [lo, hi) of a set numbered &ge; minRank. */
        private int firstPosting(int lo, int hi, int minRank) {
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (postingDoc[mid] < minRank) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    /**
     * |a ∩ b| of two ascending arrays, or -1 as soon as fewer than {@code alpha} common elements
     * remain possible.
     */
    static int overlap(int[] a, int[] b, int alpha) {
        int i = 0;
        int j = 0;
        int common = 0;
        if (Math.min(a.length, b.length) < alpha) {
            return -1;
        }
        while (i < a.length && j < b.length) {
            int u = a[i];
            int v = b[j];
            if (u == v) {
                common++;
                i++;
                j++;
            } else {
                if (u < v) {
                    i++;
                } else {
                    j++;
                }
                if (common + Math.min(a.length - i, b.length - j) < alpha) {
                    return -1;
                }
            }
        }
        return common;
    }

    /** A growable int array. */
    private static final class IntList {
        int[] values;
        int size;

        IntList(int capacity) {
            values = new int[capacity];
        }

        void add(int v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, Math.max(16, 2 * size));
            }
            values[size++] = v;
        }
    }

    /** A growable long array. */
    private static final class LongList {
        long[] values;
        int size;

        LongList(int capacity) {
            values = new long[Math.max(1, capacity)];
        }

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, 2 * size);
            }
            values[size++] = v;
        }
    }
}
