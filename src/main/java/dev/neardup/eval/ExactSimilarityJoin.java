package dev.neardup.eval;

import dev.neardup.sketch.Mix64;
import dev.neardup.sketch.ShingleSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * Exact all-pairs similarity join: every pair of {@link ShingleSet}s whose exact Jaccard similarity
 * (resemblance, Broder 1997, computed as {@link Similarity#jaccard}) is at least a floor. The
 * ground truth that MinHash/LSH candidates are measured against, without the quadratic cost of
 * comparing every pair.
 *
 * <p>Algorithm: the prefix-filtering join of Bayardo, Ma and Srikant 2007 (All-Pairs) with the
 * positional filter and shorter index prefix of Xiao, Wang, Lin and Yu 2008 (PPJoin). The filters
 * can only let extra candidates through, and a pair is reported when {@code common / (|x| + |y| -
 * common) >= floor}, the same double division as {@link Similarity#jaccard}: the result equals the
 * brute-force list of all pairs with {@code Similarity.jaccard(a, b) >= floor}, sorted. Empty sets
 * follow {@link Similarity#jaccard}: every two empty sets form a pair (Jaccard 1.0), an empty and a
 * non-empty set never do.
 *
 * <p>Runs in parallel on the common fork-join pool; the output does not depend on scheduling.
 * Memory beyond the input: 4 bytes per occurrence of a shared shingle, 8 per posting of the index,
 * and about 350 MB while counting frequencies. Design: docs/design/exact-joins.md.
 */
public final class ExactSimilarityJoin {

    /** Relative lowering of the filters' threshold: rounding can only add candidates. */
    private static final double SLACK = 1e-12;

    /** Hashes per range of the frequency count (bounds its working memory). */
    private static final long HASHES_PER_RANGE = 16_000_000L;

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
        IntStream.range(0, docs.length)
                .forEach(i -> Objects.requireNonNull(docs[i], () -> "set " + i + " is null"));
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

    /**
     * Counts in how many sets each hash occurs and gives the shared ones ids. The hash space is cut
     * into ranges of about {@code hashesPerRange} hashes (contiguous in every sorted set); the
     * occurrences in one range are grouped by an MSD radix sort of their {@link Mix64#fmix64}
     * images (a bijection, so equal images mean equal hashes, and its bits are uniform whatever the
     * input), ranges one after the other, each in parallel.
     */
    private static Encoded encode(ShingleSet[] docs, long hashesPerRange) {
        int n = docs.length;
        long total = Arrays.stream(docs).mapToLong(ShingleSet::size).sum();
        long[] splits = splits(docs, total, hashesPerRange);
        int[] privateCount = new int[n];
        int[][] shared = new int[n][];
        int[] sharedLength = new int[n];
        List<int[]> frequencies = new ArrayList<>();
        int distinct = 0;
        for (int r = 0; r <= splits.length; r++) {
            int[] f = countRange(docs, splits, r, distinct, shared, sharedLength, privateCount);
            frequencies.add(f);
            distinct += f.length;
        }
        int[] rank =
                rankByFrequency(frequencies.stream().flatMapToInt(Arrays::stream).toArray(), n);
        int[][] ids = new int[n][];
        IntStream.range(0, n)
                .parallel()
                .forEach(
                        d -> {
                            int length = sharedLength[d];
                            int[] a = length == 0 ? new int[0] : shared[d];
                            for (int k = 0; k < length; k++) {
                                a[k] = rank[a[k]];
                            }
                            Arrays.sort(a, 0, length);
                            ids[d] = a.length == length ? a : Arrays.copyOf(a, length);
                            shared[d] = null;
                        });
        return new Encoded(privateCount, ids, distinct);
    }

    /**
     * Split points of the hash space into ranges of about {@code hashesPerRange} hashes, from a
     * sample of the sets' hashes; range r is [splits[r-1], splits[r]).
     */
    private static long[] splits(ShingleSet[] docs, long total, long hashesPerRange) {
        int ranges = (int) Math.min(1024, (total + hashesPerRange - 1) / hashesPerRange);
        if (ranges <= 1) {
            return new long[0];
        }
        int step = Math.max(1, docs.length / 4096);
        long[] s =
                IntStream.iterate(0, d -> d < docs.length, d -> d + step)
                        .mapToObj(d -> docs[d].toArray())
                        .flatMapToLong(ExactSimilarityJoin::spread)
                        .sorted()
                        .toArray();
        // Sorted, so distinct() keeps each split once, in increasing order.
        return LongStream.range(1, ranges)
                .map(r -> s[(int) (r * s.length / ranges)])
                .filter(split -> split != Long.MIN_VALUE)
                .distinct()
                .toArray();
    }

    /** Up to 64 of the sorted hashes, evenly spread. */
    private static LongStream spread(long[] hashes) {
        int take = Math.min(hashes.length, 64);
        return IntStream.range(0, take)
                .mapToLong(k -> hashes[(int) ((long) k * hashes.length / take)]);
    }

    /**
     * Groups the occurrences of the hashes in range {@code r}: a hash in one set only adds to that
     * set's private count; a hash in several gets the next id (from {@code nextId}), appended to
     * each of its sets' lists. Returns the frequencies of the new ids.
     */
    private static int[] countRange(
            ShingleSet[] docs,
            long[] splits,
            int r,
            int nextId,
            int[][] shared,
            int[] sharedLength,
            int[] privateCount) {
        int n = docs.length;
        long[][] slice = new long[n][];
        IntStream.range(0, n)
                .parallel()
                .forEach(
                        d -> {
                            if (docs[d].isEmpty()) {
                                return;
                            }
                            long[] hashes = docs[d].toArray();
                            int from = r == 0 ? 0 : lowerBound(hashes, splits[r - 1]);
                            int to =
                                    r == splits.length
                                            ? hashes.length
                                            : lowerBound(hashes, splits[r]);
                            if (from < to) {
                                slice[d] =
                                        from == 0 && to == hashes.length
                                                ? hashes
                                                : Arrays.copyOfRange(hashes, from, to);
                            }
                        });

        // Scatter (image, set) by the top byte of the image, chunks of sets in parallel.
        int workers = parallelism();
        int chunks = Math.max(1, Math.min(n, 4 * workers));
        int[][] count = new int[chunks][256];
        IntStream.range(0, chunks)
                .parallel()
                .forEach(c -> scatter(slice, c, chunks, count[c], null, null));
        int[] bucketStart = new int[257];
        long at = 0;
        for (int g = 0; g < 256; g++) {
            bucketStart[g] = (int) at;
            for (int c = 0; c < chunks; c++) {
                int k = count[c][g];
                count[c][g] = (int) at;
                at += k;
            }
            if (at > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException(
                        "too many occurrences of one hash range (" + at + ") to group");
            }
        }
        int m = (int) at;
        bucketStart[256] = m;
        long[] key = new long[m];
        int[] set = new int[m];
        IntStream.range(0, chunks)
                .parallel()
                .forEach(c -> scatter(slice, c, chunks, count[c], key, set));
        Arrays.fill(slice, null);

        // Sort each bucket by the remaining bytes: equal images become adjacent.
        IntStream.range(0, 256)
                .parallel()
                .forEach(g -> radixSort(key, set, bucketStart[g], bucketStart[g + 1], 48));

        // Ids in order of the sorted images. Chunks of the occurrences (cut between groups) are
        // counted in parallel, then each chunk writes its ids at offsets reserved in each set.
        int parts = Math.max(1, Math.min(m / 4096 + 1, 4 * workers));
        int[] cut = new int[parts + 1];
        cut[parts] = m;
        for (int c = 1; c < parts; c++) {
            int b = Math.max(cut[c - 1], (int) ((long) c * m / parts));
            cut[c] = b > 0 && b < m ? groupEnd(key, b - 1, m) : b;
        }
        int[][] sharedCount = new int[parts][];
        int[][] privateCounts = new int[parts][];
        int[][] groupSizes = new int[parts][];
        IntStream.range(0, parts)
                .parallel()
                .forEach(
                        c -> {
                            int[] sc = new int[n];
                            int[] pc = new int[n];
                            IntStream.Builder sizes = IntStream.builder();
                            for (int i = cut[c], end = cut[c + 1], j; i < end; i = j) {
                                j = groupEnd(key, i, end);
                                if (j - i == 1) {
                                    pc[set[i]]++;
                                } else {
                                    sizes.add(j - i);
                                    for (int t = i; t < j; t++) {
                                        sc[set[t]]++;
                                    }
                                }
                            }
                            sharedCount[c] = sc;
                            privateCounts[c] = pc;
                            groupSizes[c] = sizes.build().toArray();
                        });
        int[] firstId = new int[parts];
        for (int c = 0; c < parts; c++) {
            firstId[c] = nextId;
            nextId += groupSizes[c].length;
        }
        for (int d = 0; d < n; d++) {
            int length = sharedLength[d];
            for (int c = 0; c < parts; c++) {
                int k = sharedCount[c][d];
                sharedCount[c][d] = length; // now: where chunk c writes set d's ids
                length += k;
                privateCount[d] += privateCounts[c][d];
            }
            if (length > sharedLength[d]) {
                int[] ids = shared[d];
                if (ids == null || ids.length < length) {
                    int capacity = Math.max(length, ids == null ? 0 : ids.length + ids.length / 2);
                    shared[d] = ids == null ? new int[capacity] : Arrays.copyOf(ids, capacity);
                }
                sharedLength[d] = length;
            }
        }
        IntStream.range(0, parts)
                .parallel()
                .forEach(
                        c -> {
                            int[] next = sharedCount[c];
                            int id = firstId[c];
                            for (int i = cut[c], end = cut[c + 1], j; i < end; i = j) {
                                j = groupEnd(key, i, end);
                                if (j - i > 1) {
                                    for (int t = i; t < j; t++) {
                                        int d = set[t];
                                        shared[d][next[d]++] = id;
                                    }
                                    id++;
                                }
                            }
                        });
        return Arrays.stream(groupSizes).flatMapToInt(Arrays::stream).toArray();
    }

    /**
     * Sorts key[from, to), whose bytes above bit {@code shift} + 8 are equal (any keys for shift
     * 56), by unsigned value, moving set[i] along with key[i] (package-private for tests; the join
     * only needs equal keys to end up adjacent).
     */
    static void radixSort(long[] key, int[] set, int from, int to, int shift) {
        if (to - from > 1) {
            radixSort(key, set, from, to, shift, new long[to - from], new int[to - from], from);
        }
    }

    /**
     * Counts ({@code key} null) or places the images of chunk {@code c}'s sets by their top byte,
     * at {@code next[byte]}, which it advances.
     */
    private static void scatter(
            long[][] slice, int c, int chunks, int[] next, long[] key, int[] set) {
        int n = slice.length;
        for (int d = chunkStart(c, n, chunks); d < chunkStart(c + 1, n, chunks); d++) {
            if (slice[d] != null) {
                for (long h : slice[d]) {
                    long k = Mix64.fmix64(h);
                    int p = next[(int) (k >>> 56)]++;
                    if (key != null) {
                        key[p] = k;
                        set[p] = d;
                    }
                }
            }
        }
    }

    /** The end of the run of keys equal to {@code key[i]} in [i, end). */
    private static int groupEnd(long[] key, int i, int end) {
        int j = i + 1;
        while (j < end && key[j] == key[i]) {
            j++;
        }
        return j;
    }

    /**
     * Sorts key[from, to) (with set alongside) by the bytes of the keys from bit {@code shift}
     * down, most significant first; the scratch arrays are indexed from {@code base}.
     */
    private static void radixSort(
            long[] key,
            int[] set,
            int from,
            int to,
            int shift,
            long[] scratchKey,
            int[] scratchSet,
            int base) {
        int length = to - from;
        if (length <= 32) {
            for (int i = from + 1; i < to; i++) {
                long k = key[i];
                int s = set[i];
                int j = i - 1;
                while (j >= from && Long.compareUnsigned(key[j], k) > 0) {
                    key[j + 1] = key[j];
                    set[j + 1] = set[j];
                    j--;
                }
                key[j + 1] = k;
                set[j + 1] = s;
            }
            return;
        }
        int[] start = new int[257];
        for (int i = from; i < to; i++) {
            start[((int) (key[i] >>> shift) & 0xFF) + 1]++;
        }
        for (int g = 0; g < 256; g++) {
            if (start[g + 1] == length) { // one byte value for all: go to the next byte
                if (shift > 0) {
                    radixSort(key, set, from, to, shift - 8, scratchKey, scratchSet, base);
                }
                return;
            }
        }
        for (int g = 0; g < 256; g++) {
            start[g + 1] += start[g];
        }
        int[] next = Arrays.copyOf(start, 256);
        int offset = from - base;
        for (int i = from; i < to; i++) {
            int p = offset + next[(int) (key[i] >>> shift) & 0xFF]++;
            scratchKey[p] = key[i];
            scratchSet[p] = set[i];
        }
        System.arraycopy(scratchKey, offset, key, from, length);
        System.arraycopy(scratchSet, offset, set, from, length);
        if (shift > 0) {
            for (int g = 0; g < 256; g++) {
                if (start[g + 1] - start[g] > 1) {
                    radixSort(
                            key,
                            set,
                            from + start[g],
                            from + start[g + 1],
                            shift - 8,
                            scratchKey,
                            scratchSet,
                            base);
                }
            }
        }
    }

    /** Start of chunk c of [0, n) cut into {@code chunks} near-equal chunks. */
    private static int chunkStart(int c, int n, int chunks) {
        return (int) ((long) c * n / chunks);
    }

    /** Threads a parallel stream uses: the common pool's workers and the calling thread. */
    private static int parallelism() {
        return java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() + 1;
    }

    /** First index of a sorted array of distinct values whose value is &ge; key. */
    private static int lowerBound(long[] a, long key) {
        int i = Arrays.binarySearch(a, key);
        return i >= 0 ? i : -i - 1;
    }

    /** First index in [lo, hi) of an ascending array whose value is &ge; key (hi if none). */
    private static int lowerBound(int[] a, int lo, int hi, int key) {
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
            int workers = parallelism();
            int chunk = Math.max(64, (count + 16 * workers - 1) / (16 * workers));
            int chunks = (count + chunk - 1) / chunk;
            List<Probed> parts =
                    IntStream.range(0, chunks)
                            .parallel()
                            .mapToObj(c -> probe(c * chunk, Math.min(count, (c + 1) * chunk)))
                            .toList();
            return new Probed(
                    parts.stream().flatMap(p -> p.pairs.stream()).toList(),
                    parts.stream().mapToLong(Probed::candidates).sum());
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
                // The first set number < x of size >= t |x|.
                int minRank = lowerBound(size, 0, x, (int) Math.ceil(relaxed * nx));
                int touchedCount = 0;
                for (int k = 0; k < probes; k++) {
                    int w = tx[k];
                    int i = privateCount[x] + k;
                    int end = postingsStart[w + 1];
                    for (int e = lowerBound(postingDoc, postingsStart[w], end, minRank);
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
}
