package dev.neardup.sketch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Containment both ways from two fixed-size bottom-s samples: the MIN_s sketch (Broder, "On the
 * resemblance and containment of documents", 1997) read as a bottom-k sketch (Cohen and Kaplan,
 * "Summarizing data using bottom-k sketches", PODC 2007), in the compact fixed-width form that
 * containment mode keeps per document.
 *
 * <p>Both samples are cut at τ, the smaller of the two sketches' largest values (a sketch with
 * fewer than s values holds its whole set and does not cut), and c(A, B) is estimated by |{x ∈ F(A)
 * ∩ F(B) : x &lt;= τ}| / |{x ∈ F(A) : x &lt;= τ}|, c(B, A) likewise. Containment of a page in one k
 * times larger rests on about s / k samples. Why this works: docs/design/sampled-sketches.md.
 *
 * <p>Contract (kept in the job's state; golden-vector tests pin it):
 *
 * <ul>
 *   <li>A value is the upper 32 bits of π(x) for a 64-bit shingle hash x, with {@link MinSSketch}'s
 *       π and seed, read as an unsigned 32-bit integer; the sketch holds the s smallest distinct
 *       values (all of them when fewer), ascending. Two shingles share a value with probability
 *       2^-32 per pair, which a sample of a few hundred values can ignore.
 *   <li>Bytes ({@link #pack}): 2 + 4 s, fixed for a given s: the count n as an unsigned 16-bit
 *       little-endian integer, then the n values as 32-bit little-endian integers, then zeros.
 * </ul>
 */
public final class BottomKContainment {

    /** Default seed of π: {@link MinSSketch#DEFAULT_SEED}. */
    public static final long DEFAULT_SEED = MinSSketch.DEFAULT_SEED;

    /** Largest sample size s (the count is stored in 16 bits). */
    public static final int MAX_SIZE = 0xFFFF;

    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private BottomKContainment() {}

    /**
     * The containment of each document in the other.
     *
     * @param aInB estimated c(A, B) = |A ∩ B| / |A|
     * @param bInA estimated c(B, A)
     * @param sampleA k_A, shingles of A the first estimate is a fraction of
     * @param sampleB k_B
     * @param common sampled shingles in both
     * @param exact true when both sketches hold their whole sets (so the estimates are exact)
     */
    public record Estimate(
            double aInB, double bInA, int sampleA, int sampleB, int common, boolean exact) {

        /** c(A, B) with its sample, for errors and bounds. */
        public SampleEstimate aInBSample() {
            return SampleEstimate.of(common, sampleA, exact, 1.0);
        }

        /** c(B, A) with its sample. */
        public SampleEstimate bInASample() {
            return SampleEstimate.of(common, sampleB, exact, 1.0);
        }

        /** Resemblance from the same samples: common / (k_A + k_B - common). */
        public double resemblance() {
            int union = sampleA + sampleB - common;
            return union == 0 ? 1.0 : (double) common / union;
        }
    }

    /**
     * The s smallest distinct 32-bit values of the shingle hashes (see the class comment),
     * ascending as unsigned integers, each in a long (0 to 2^32 - 1).
     */
    public static long[] sample(long[] shingleHashes, int s, long seed) {
        checkSize(s);
        long key = SampledHashes.permutationKey(seed);
        long[] all = new long[shingleHashes.length];
        for (int i = 0; i < all.length; i++) {
            all[i] = SampledHashes.permute(shingleHashes[i], key) >>> 32;
        }
        Arrays.sort(all);
        return Arrays.copyOf(all, Math.min(s, SampledHashes.distinct(all, all.length)));
    }

    /** {@link #sample} with the {@link #DEFAULT_SEED}. */
    public static long[] sample(long[] shingleHashes, int s) {
        return sample(shingleHashes, s, DEFAULT_SEED);
    }

    /** Bytes of a packed sketch of size s: 2 + 4 s. */
    public static int packedBytes(int s) {
        checkSize(s);
        return 2 + 4 * s;
    }

    /**
     * The fixed-width bytes of a sample of at most s values (see the class comment).
     *
     * @throws IllegalArgumentException if the sample has more than s values or a value outside 32
     *     bits
     */
    public static byte[] pack(long[] sample, int s) {
        if (sample.length > s) {
            throw new IllegalArgumentException(
                    "a sample of " + sample.length + " values does not fit a sketch of size " + s);
        }
        byte[] out = new byte[packedBytes(s)];
        out[0] = (byte) sample.length;
        out[1] = (byte) (sample.length >>> 8);
        for (int i = 0; i < sample.length; i++) {
            long v = sample[i];
            if ((v >>> 32) != 0) {
                throw new IllegalArgumentException("sample value " + v + " exceeds 32 bits");
            }
            INT_LE.set(out, 2 + 4 * i, (int) v);
        }
        return out;
    }

    /** The values of packed bytes (see {@link #pack}). */
    public static long[] unpack(byte[] packed) {
        return IntStream.range(0, count(packed)).mapToLong(i -> value(packed, i)).toArray();
    }

    /**
     * Containment both ways from two packed sketches of the same size s.
     *
     * @throws IllegalArgumentException if the two differ in length (another s)
     */
    public static Estimate containment(byte[] a, byte[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException(
                    ("packed containment sketches of different sizes cannot be compared: %s and %s"
                                    + " bytes")
                            .formatted(a.length, b.length));
        }
        int s = (a.length - 2) / 4;
        int na = count(a);
        int nb = count(b);
        long tau =
                Math.min(
                        na == s ? value(a, na - 1) : Long.MAX_VALUE,
                        nb == s ? value(b, nb - 1) : Long.MAX_VALUE);
        int i = 0;
        int j = 0;
        int ka = 0;
        int kb = 0;
        int common = 0;
        while (i < na || j < nb) {
            long x = i < na ? value(a, i) : Long.MAX_VALUE;
            long y = j < nb ? value(b, j) : Long.MAX_VALUE;
            long v = Math.min(x, y);
            if (v > tau) {
                break;
            }
            if (x == v) {
                ka++;
                i++;
            }
            if (y == v) {
                kb++;
                j++;
            }
            if (x == y) {
                common++;
            }
        }
        boolean exact = na < s && nb < s;
        double aInB = ka == 0 ? 1.0 : (double) common / ka;
        double bInA = kb == 0 ? 1.0 : (double) common / kb;
        return new Estimate(aInB, bInA, ka, kb, common, exact);
    }

    /**
     * Containment c(A, B) from the Jaccard similarity J and the set sizes, |A ∩ B| = J (|A| + |B|)
     * / (1 + J) (LSH Ensemble's conversion, Zhu et al. 2016, read backwards), clamped to 1: the
     * baseline {@link #containment} is compared with (docs/design/sampled-sketches.md).
     */
    public static double containmentFromJaccard(double jaccard, long sizeA, long sizeB) {
        if (sizeA == 0) {
            return 1.0;
        }
        return Math.min(1.0, jaccard * (sizeA + sizeB) / ((1 + jaccard) * sizeA));
    }

    private static int count(byte[] packed) {
        return (packed[0] & 0xFF) | (packed[1] & 0xFF) << 8;
    }

    private static long value(byte[] packed, int i) {
        return Integer.toUnsignedLong((int) INT_LE.get(packed, 2 + 4 * i));
    }

    private static void checkSize(int s) {
        if (s < 1 || s > MAX_SIZE) {
            throw new IllegalArgumentException(
                    "containment sketch size s must be between 1 and " + MAX_SIZE + ", got " + s);
        }
    }
}
