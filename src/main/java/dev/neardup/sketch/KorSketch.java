package dev.neardup.sketch;

import java.util.stream.LongStream;

/**
 * The KOR sketch for Hamming distance (Kushilevitz, Ostrovsky and Rabani, "Efficient search for
 * approximate nearest neighbor in high dimensional spaces", STOC 1998 / SIAM J. Comput. 2000): t
 * parity bits of a bit vector x that tell, with error probability at most delta, whether HD(x, y)
 * &lt;= k or HD(x, y) &gt;= 2k, with t = O(log(1 / delta)) independent of the length of x.
 *
 * <p>Sketch bit j is the parity of x over a random set R_j of positions, each in it with
 * probability 1 / (2k), so two bit vectors' sketch bits agree with probability p = (1 + (1 -
 * 1/k)^HD) / 2; the sketch accepts (HD &lt;= k) when the fraction Z of equal bits exceeds the
 * midpoint of p_k and p_2k ({@link #threshold()}). Derivation, sizes and design (why not for
 * SimHash fingerprints): docs/design/kor-sketch.md.
 *
 * <p>Contract: {@code r_ji = 1} iff {@code fmix64(fmix64(i XOR s) XOR splitMix64(seed, j))}, taken
 * as unsigned, is below floor((2^64 - 1) / (2k)), with {@code s = splitMix64(seed, -1)} (see {@link
 * Mix64}); position i is any {@code long}. A sketch of t bits is a {@code long[ceil(t / 64)]} with
 * sketch bit j at bit {@code j mod 64} of word {@code j / 64}; unused high bits are 0. Immutable
 * and thread-safe.
 */
public final class KorSketch {

    /** Default seed of the shared randomness. */
    public static final long DEFAULT_SEED = 0x6B6F7273_6B657431L; // "korsket1"

    /** Largest sketch length t. */
    public static final int MAX_SKETCH_BITS = 1 << 20;

    private final int k;
    private final int sketchBits;
    private final long seed;
    private final long positionSeed;
    private final long[] bitSeeds;
    private final long inclusionThreshold;

    /**
     * A sketch of {@code sketchBits} parity bits deciding HD &lt;= k against HD &gt;= 2k.
     *
     * @param k the distance scale, at least 2
     * @param sketchBits t, from 1 to {@link #MAX_SKETCH_BITS}
     * @param seed the shared randomness: sketches compare only under the same (k, t, seed)
     */
    public KorSketch(int k, int sketchBits, long seed) {
        if (k < 2) {
            throw new IllegalArgumentException(
                    ("KOR distance scale k must be at least 2 (at k = 1 the parities of every"
                                    + " distance >= 1 agree with probability 1/2), got %s")
                            .formatted(k));
        }
        if (sketchBits < 1 || sketchBits > MAX_SKETCH_BITS) {
            throw new IllegalArgumentException(
                    "KOR sketch bits must be between 1 and %s, got %s"
                            .formatted(MAX_SKETCH_BITS, sketchBits));
        }
        this.k = k;
        this.sketchBits = sketchBits;
        this.seed = seed;
        this.positionSeed = Mix64.splitMix64(seed, -1);
        this.bitSeeds = new long[sketchBits];
        for (int j = 0; j < sketchBits; j++) {
            bitSeeds[j] = Mix64.splitMix64(seed, j);
        }
        this.inclusionThreshold = Long.divideUnsigned(-1L, 2L * k);
    }

    /**
     * t = ceil(ln(1 / delta) / (2 g^2)) with g = (p_k - p_2k) / 2: by Hoeffding, enough parity bits
     * for each of the two errors to have probability at most delta.
     */
    public static int sketchBits(int k, double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException(
                    "error probability delta must be strictly between 0 and 1, got " + delta);
        }
        double g = gap(k);
        double t = Math.ceil(Math.log(1 / delta) / (2 * g * g));
        if (t > MAX_SKETCH_BITS) {
            throw new IllegalArgumentException(
                    "delta = %s needs %s sketch bits, more than %s"
                            .formatted(delta, (long) t, MAX_SKETCH_BITS));
        }
        return (int) t;
    }

    /** g = (p_k - p_2k) / 2, the distance from either expectation to the threshold. */
    public static double gap(int k) {
        if (k < 2) {
            throw new IllegalArgumentException("KOR distance scale k must be at least 2, got " + k);
        }
        return (agreementProbability(k, k) - agreementProbability(k, 2 * k)) / 2;
    }

    /** Lemma 3.2: P[h_j(x) = h_j(y)] = (1 + (1 - 1/k)^HD) / 2. */
    public static double agreementProbability(int k, int hamming) {
        return (1 + Math.pow(1 - 1.0 / k, hamming)) / 2;
    }

    /** {@link #agreementProbability(int, int)} at this sketch's k. */
    public double agreementProbability(int hamming) {
        return agreementProbability(k, hamming);
    }

    /** The acceptance threshold (p_k + p_2k) / 2 on the fraction of equal sketch bits. */
    public double threshold() {
        return (agreementProbability(k, k) + agreementProbability(k, 2 * k)) / 2;
    }

    public int k() {
        return k;
    }

    public int sketchBits() {
        return sketchBits;
    }

    public long seed() {
        return seed;
    }

    /**
     * The sketch of the bit vector whose 1 positions are {@code positions} (any {@code long}s, e.g.
     * shingle hashes). A position listed twice cancels (the sum is over GF(2)).
     */
    public long[] sketchOfPositions(long[] positions) {
        long[] out = new long[(sketchBits + 63) >>> 6];
        for (long position : positions) {
            long h = Mix64.fmix64(position ^ positionSeed);
            for (int j = 0; j < sketchBits; j++) {
                if (Long.compareUnsigned(Mix64.fmix64(h ^ bitSeeds[j]), inclusionThreshold) < 0) {
                    out[j >>> 6] ^= 1L << (j & 63);
                }
            }
        }
        return out;
    }

    /**
     * The sketch of a dense bit vector: position i is bit {@code i mod 64} of word {@code i / 64}
     * (the layout of {@link SimHash} fingerprints).
     */
    public long[] sketch(long[] bitVector) {
        return sketchOfPositions(
                LongStream.range(0, 64L * bitVector.length)
                        .filter(i -> ((bitVector[(int) (i >>> 6)] >>> i) & 1) != 0)
                        .toArray());
    }

    /**
     * The number of equal bits of two sketches.
     *
     * @throws IllegalArgumentException if they are not both sketches of t bits
     */
    public int agreements(long[] a, long[] b) {
        int words = (sketchBits + 63) >>> 6;
        if (a.length != words || b.length != words) {
            throw new IllegalArgumentException(
                    "KOR sketches of %s and %s words, expected %s (t = %s bits)"
                            .formatted(a.length, b.length, words, sketchBits));
        }
        int differing = 0;
        for (int w = 0; w < words; w++) {
            differing += Long.bitCount(a[w] ^ b[w]);
        }
        return sketchBits - differing;
    }

    /**
     * The KOR decision: true ("accept", HD &lt;= k) when the fraction of equal bits exceeds {@link
     * #threshold()}, false ("reject", HD &gt;= 2k) otherwise. Between k and 2k either answer may
     * come.
     */
    public boolean accept(long[] a, long[] b) {
        return (double) agreements(a, b) / sketchBits > threshold();
    }

    /**
     * HD^ = ln(2 Z - 1) / ln(1 - 1/k) from the fraction Z of equal bits: 0 when all agree, positive
     * infinity when Z &lt;= 1/2 (the distance is too large to tell).
     */
    public double estimateHamming(long[] a, long[] b) {
        double z = (double) agreements(a, b) / sketchBits;
        if (2 * z - 1 <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.log(2 * z - 1) / Math.log(1 - 1.0 / k) + 0.0; // + 0.0 turns -0.0 into 0.0
    }

    /**
     * Standard error of {@link #estimateHamming} at true distance HD, by the delta method: sqrt(p
     * (1 - p) / t) 2 / ((2p - 1) |ln(1 - 1/k)|) with p = (1 + (1 - 1/k)^HD) / 2.
     */
    public double standardError(int hamming) {
        double p = agreementProbability(hamming);
        return Math.sqrt(p * (1 - p) / sketchBits) * 2 / ((2 * p - 1) * -Math.log(1 - 1.0 / k));
    }
}
