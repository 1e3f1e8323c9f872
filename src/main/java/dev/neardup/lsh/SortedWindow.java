package dev.neardup.lsh;

import dev.neardup.sketch.SimHash;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * The offline "sliding window" over sorted, permuted SimHash fingerprints (Manku, Jain and Das
 * Sarma, WWW 2007; Ture, Elsayed and Lin, SIGIR 2011): for each of M random permutations of the D
 * fingerprint bits, sort all (permuted) fingerprints and compare each with the next W in the sorted
 * order; keep the pairs within Hamming distance k. Unlike {@link PermutedBlocks}, recall is not 1
 * by construction, but the cost is fixed: M W comparisons per fingerprint (see
 * docs/design/permuted-blocks.md).
 *
 * <p>Contract: permutation m (0 &le; m &lt; M) is a Fisher-Yates shuffle of {@code 0 .. D-1} driven
 * by {@code SplittableRandom(seed + m)}; {@link #permute} puts fingerprint bit {@code pi_m(j)} (bit
 * numbering of {@link SimHash}) at position j of the permuted string, position 0 being the most
 * significant bit of word 0, so that {@link #compare} (unsigned, word by word) is the lexicographic
 * order of the permuted bit strings. {@link #partition} is the first p bits of a permuted string:
 * sorting and sliding within each partition misses only pairs that straddle a partition boundary.
 * Immutable and thread-safe.
 */
public final class SortedWindow {

    /** Default seed of the permutations. */
    public static final long DEFAULT_SEED = 0x77696E646F773031L; // "window01"

    private final int bits;
    private final int window;
    private final int maxHamming;

    /** source[m][j]: the fingerprint bit at permuted position j of permutation m. */
    private final int[][] source;

    /**
     * @param bits D, the fingerprint length
     * @param permutations M, at least 1
     * @param window W, how many following fingerprints each one is compared with, at least 1
     * @param maxHamming k, the largest Hamming distance of a reported pair
     */
    public SortedWindow(int bits, int permutations, int window, int maxHamming, long seed) {
        SimHash.checkBits(bits);
        if (permutations < 1 || window < 1) {
            throw new IllegalArgumentException(
                    "permutations and window must be at least 1, got %s and %s"
                            .formatted(permutations, window));
        }
        if (maxHamming < 0 || maxHamming >= bits) {
            throw new IllegalArgumentException(
                    "maximum Hamming distance must be between 0 and %s, got %s"
                            .formatted(bits - 1, maxHamming));
        }
        this.bits = bits;
        this.window = window;
        this.maxHamming = maxHamming;
        this.source = new int[permutations][];
        for (int m = 0; m < permutations; m++) {
            SplittableRandom random = new SplittableRandom(seed + m);
            int[] p = IntStream.range(0, bits).toArray();
            for (int j = bits - 1; j > 0; j--) {
                int r = random.nextInt(j + 1);
                int t = p[j];
                p[j] = p[r];
                p[r] = t;
            }
            source[m] = p;
        }
    }

    public int bits() {
        return bits;
    }

    public int permutations() {
        return source.length;
    }

    public int window() {
        return window;
    }

    public int maxHamming() {
        return maxHamming;
    }

    /** The fingerprint under permutation m, as a string ordered by {@link #compare}. */
    public long[] permute(long[] fingerprint, int m) {
        if (fingerprint.length < bits / 64) {
            throw new IllegalArgumentException(
                    "fingerprint has " + fingerprint.length * 64 + " bits, expected " + bits);
        }
        int[] p = source[m];
        long[] out = new long[bits / 64];
        for (int j = 0; j < bits; j++) {
            int s = p[j];
            if (((fingerprint[s >>> 6] >>> (s & 63)) & 1) != 0) {
                out[j >>> 6] |= Long.MIN_VALUE >>> (j & 63);
            }
        }
        return out;
    }

    /** The lexicographic order of permuted strings. */
    public static int compare(long[] a, long[] b) {
        for (int w = 0; w < a.length; w++) {
            int c = Long.compareUnsigned(a[w], b[w]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** The first {@code prefixBits} bits (0 to 30) of a permuted string: its partition. */
    public static int partition(long[] permuted, int prefixBits) {
        return prefixBits == 0 ? 0 : (int) (permuted[0] >>> (64 - prefixBits));
    }

    /** Receives the pairs of a window scan. */
    public interface Sink {
        /** Members i and j of the sorted list (i &lt; j) are within distance k: h of them. */
        void pair(int i, int j, int hamming);
    }

    /**
     * Slides the window over permuted strings sorted by {@link #compare}: each is compared with the
     * next W; pairs within distance k go to {@code sink}.
     *
     * @return the number of comparisons
     */
    public long scan(List<long[]> sorted, Sink sink) {
        long compared = 0;
        int n = sorted.size();
        for (int i = 0; i < n; i++) {
            long[] a = sorted.get(i);
            for (int j = i + 1; j <= Math.min(n - 1, i + window); j++) {
                int h = SimHash.hamming(a, sorted.get(j));
                compared++;
                if (h <= maxHamming) {
                    sink.pair(i, j, h);
                }
            }
        }
        return compared;
    }
}
