package dev.neardup.sketch;

import java.util.Arrays;

/**
 * The MIN_s sketch (bottom-s sampling; Broder, "On the resemblance and containment of documents",
 * 1997): F(A) = MIN_s(π(S(A))), the s smallest permuted shingle hashes of a document (all of them
 * when it has fewer than s), and the resemblance estimator built on it.
 *
 * <p>Contract (sketches may be stored; golden-vector tests pin them):
 *
 * <ul>
 *   <li>π(x) = {@link Mix64#fmix64}(x XOR {@link Mix64#splitMix64}(seed, 0)) for a 64-bit shingle
 *       hash x, read as an <em>unsigned</em> integer in [0, 2^64); "smallest" is in that order.
 *   <li>Deterministic: the sketch depends only on the set of shingle hashes (not their order or
 *       repetitions), s and the seed.
 *   <li>Mergeable: F(A ∪ B) = MIN_s(F(A) ∪ F(B)) ({@link #merge}), because the s smallest of A ∪ B
 *       are among the s smallest of A and the s smallest of B.
 *   <li>Bytes ({@link #toBytes}): byte 0 is the kind, 1; bytes 1 to 8 the seed, little-endian; then
 *       unsigned LEB128 varints: s, the number n of values, the smallest value, and the n - 1
 *       differences between consecutive values (all &gt;= 1). About 64 - log2(|A|) bits a value,
 *       rounded up to a multiple of 7.
 *   <li>Immutable and thread-safe.
 * </ul>
 *
 * <p>MIN_s estimates resemblance only; {@link ModMSketch} also estimates containment. Why the
 * estimate is unbiased: docs/design/sampled-sketches.md.
 */
public final class MinSSketch extends SampledHashes {

    /** Default seed of π. Part of stored state: never change it. */
    public static final long DEFAULT_SEED = 0x62726F64_65723937L; // "broder97"

    /** Largest sample size s accepted. */
    public static final int MAX_SIZE = 1 << 20;

    static final int KIND = 1;

    private final int s;

    private MinSSketch(int s, long seed, long[] values) {
        super("MIN_s", s, seed, values);
        this.s = s;
    }

    /** F(A) of the shingle hashes: MIN_s of their images under π. */
    public static MinSSketch of(long[] hashes, int s, long seed) {
        checkSize(s);
        long key = SampledHashes.permutationKey(seed);
        // Collect candidates below the current s-th smallest value into a buffer of up to 2s;
        // when it fills, keep its s smallest distinct values: O(n + (candidates) log s) work.
        long[] buffer = new long[(int) Math.min(2L * s, hashes.length)];
        int length = 0;
        boolean full = false;
        long threshold = -1L; // unsigned maximum: everything passes until s values are known
        for (long hash : hashes) {
            long v = SampledHashes.permute(hash, key);
            if (full && Long.compareUnsigned(v, threshold) >= 0) {
                continue;
            }
            buffer[length++] = v;
            if (length == buffer.length) {
                length = Math.min(s, SampledHashes.sortDistinctUnsigned(buffer, length));
                if (length == s) {
                    full = true;
                    threshold = buffer[s - 1];
                }
            }
        }
        length = Math.min(s, SampledHashes.sortDistinctUnsigned(buffer, length));
        return new MinSSketch(s, seed, Arrays.copyOf(buffer, length));
    }

    /** F(A) with the {@link #DEFAULT_SEED}. */
    public static MinSSketch of(long[] hashes, int s) {
        return of(hashes, s, DEFAULT_SEED);
    }

    public int s() {
        return s;
    }

    /** True when the sketch holds every shingle of its set (fewer than s of them). */
    public boolean isComplete() {
        return values.length < s;
    }

    /**
     * F(A ∪ B) from F(A) and F(B): the s smallest of the union of the two samples.
     *
     * @throws IllegalArgumentException if the two sketches differ in s or seed
     */
    public MinSSketch merge(MinSSketch other) {
        checkCompatible(other, " (sketch both documents with the same s and seed)");
        return new MinSSketch(s, seed, SampledHashes.union(values, other.values, s));
    }

    /**
     * Broder's resemblance estimate |MIN_s(F(A) ∪ F(B)) ∩ F(A) ∩ F(B)| / |MIN_s(F(A) ∪ F(B))|, with
     * its sample size (k = |MIN_s(F(A) ∪ F(B))|) for the error, see {@link SampleEstimate}. Exact
     * when both sketches are {@link #isComplete complete} and the union has at most s values. Two
     * empty sets have resemblance 1, an empty and a non-empty one 0 ({@link Similarity}'s
     * conventions).
     *
     * @throws IllegalArgumentException if the two sketches differ in s or seed
     */
    public static SampleEstimate resemblance(MinSSketch a, MinSSketch b) {
        a.checkCompatible(b, " (sketch both documents with the same s and seed)");
        // One merge walk over the two ascending samples: the first s distinct values are U;
        // count those in both, and all distinct values (to know whether U is all of A ∪ B).
        long[] x = a.values;
        long[] y = b.values;
        int i = 0;
        int j = 0;
        int taken = 0;
        int matches = 0;
        int distinct = 0;
        while (i < x.length || j < y.length) {
            int c = i == x.length ? 1 : j == y.length ? -1 : Long.compareUnsigned(x[i], y[j]);
            boolean both = c == 0;
            if (c <= 0) {
                i++;
            }
            if (c >= 0) {
                j++;
            }
            distinct++;
            if (taken < a.s) {
                taken++;
                if (both) {
                    matches++;
                }
            }
        }
        // Complete sketches hold their whole sets, so then U is all of A ∪ B when it has <= s.
        boolean exhaustive = a.isComplete() && b.isComplete() && distinct <= a.s;
        return SampleEstimate.of(matches, taken, exhaustive, 1.0);
    }

    /** The compact byte form described in the class comment. */
    public byte[] toBytes() {
        return SampledHashes.encode(KIND, seed, s, values, 1);
    }

    /**
     * Reads {@link #toBytes}'s form.
     *
     * @throws IllegalArgumentException if the bytes are not a well-formed MIN_s sketch
     */
    public static MinSSketch fromBytes(byte[] bytes) {
        SampledHashes.Reader in = new SampledHashes.Reader(bytes, KIND, "MIN_s sketch");
        long seed = in.seed();
        long s = in.varint();
        if (s < 1 || s > MAX_SIZE) {
            throw in.malformed("has sample size s = " + Long.toUnsignedString(s));
        }
        long count = in.varint();
        if (count > s) {
            throw in.malformed(
                    "holds " + Long.toUnsignedString(count) + " values, more than s = " + s);
        }
        long[] values = in.values((int) count, 1);
        in.end();
        return new MinSSketch((int) s, seed, values);
    }

    /** Checks s, with a message a user can act on. */
    static void checkSize(int s) {
        if (s < 1 || s > MAX_SIZE) {
            throw new IllegalArgumentException(
                    "MIN_s sample size s must be between 1 and " + MAX_SIZE + ", got " + s);
        }
    }
}
