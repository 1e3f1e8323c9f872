package dev.neardup.sketch;

import java.util.Arrays;

/**
 * The MOD_m sketch (modulus sampling; Broder, "On the resemblance and containment of documents",
 * 1997): V(A) = MOD_m(π(S(A))), the permuted shingle hashes of a document that are 0 mod m, and the
 * containment and resemblance estimators built on it.
 *
 * <p>Contract (sketches may be stored; golden-vector tests pin them):
 *
 * <ul>
 *   <li>π(x) = {@link Mix64#fmix64}(x XOR {@link Mix64#splitMix64}(seed, 0)) for a 64-bit shingle
 *       hash x, read as an <em>unsigned</em> integer in [0, 2^64), the same π as {@link
 *       MinSSketch}; a value is kept when {@code Long.remainderUnsigned(π(x), m) == 0}.
 *   <li>Deterministic: the sketch depends only on the set of shingle hashes, m and the seed.
 *   <li>Mergeable: V(A ∪ B) = V(A) ∪ V(B) ({@link #merge}). Coarsening: for m' a multiple of m,
 *       MOD_m'(A) is the part of MOD_m(A) divisible by m' ({@link #withModulus}).
 *   <li>Bytes ({@link #toBytes}): byte 0 is the kind, 2; bytes 1 to 8 the seed, little-endian; then
 *       unsigned LEB128 varints: m, the number n of values, the smallest value divided by m, and
 *       the n - 1 differences between consecutive values divided by m (all &gt;= 1; every value is
 *       a multiple of m, so this saves log2(m) bits a value).
 *   <li>Immutable and thread-safe.
 * </ul>
 *
 * <p>The sketch grows with the document, about |A| / m values, so unlike MIN_s it estimates
 * containment as well as resemblance; but both sketches need the same m, so a short document in a
 * long one gets few values and a large error (Broder 1997). The estimators and their errors:
 * docs/design/sampled-sketches.md.
 */
public final class ModMSketch extends SampledHashes {

    /** Default seed of π: the same as {@link MinSSketch#DEFAULT_SEED}. */
    public static final long DEFAULT_SEED = MinSSketch.DEFAULT_SEED;

    static final int KIND = 2;

    private final long m;

    private ModMSketch(long m, long seed, long[] values) {
        super("MOD_m", m, seed, values);
        this.m = m;
    }

    /** V(A) of the shingle hashes: their images under π that are 0 mod m. */
    public static ModMSketch of(long[] hashes, long m, long seed) {
        checkModulus(m);
        long key = SampledHashes.permutationKey(seed);
        long[] kept = new long[Math.min(hashes.length, 16)];
        int length = 0;
        boolean powerOfTwo = (m & (m - 1)) == 0;
        long mask = m - 1;
        for (long hash : hashes) {
            long v = SampledHashes.permute(hash, key);
            if (powerOfTwo ? (v & mask) == 0 : Long.remainderUnsigned(v, m) == 0) {
                if (length == kept.length) {
                    kept = Arrays.copyOf(kept, Math.max(16, 2 * length));
                }
                kept[length++] = v;
            }
        }
        length = SampledHashes.sortDistinctUnsigned(kept, length);
        return new ModMSketch(m, seed, Arrays.copyOf(kept, length));
    }

    /** V(A) with the {@link #DEFAULT_SEED}. */
    public static ModMSketch of(long[] hashes, long m) {
        return of(hashes, m, DEFAULT_SEED);
    }

    /**
     * Broder's modulus for a document of {@code setSize} distinct shingles: the largest power of
     * two m with setSize / m &gt;= {@code targetSize}, 1 for smaller documents: the sketch then
     * holds about targetSize to 2 targetSize values (Broder's example: 50).
     */
    public static long suggestModulus(long setSize, int targetSize) {
        if (targetSize < 1) {
            throw new IllegalArgumentException(
                    "target MOD_m sketch size must be at least 1, got " + targetSize);
        }
        if (setSize < 0) {
            throw new IllegalArgumentException("set size must be >= 0, got " + setSize);
        }
        long m = 1;
        while (m <= Long.MAX_VALUE / 2 && setSize / (2 * m) >= targetSize) {
            m *= 2;
        }
        return m;
    }

    public long m() {
        return m;
    }

    /**
     * V(A ∪ B) from V(A) and V(B).
     *
     * @throws IllegalArgumentException if the two sketches differ in m or seed
     */
    public ModMSketch merge(ModMSketch other) {
        checkCompatible(other);
        return new ModMSketch(
                m, seed, SampledHashes.union(values, other.values, Integer.MAX_VALUE));
    }

    /**
     * MOD_m'(A) from this MOD_m(A): the values divisible by {@code coarser}.
     *
     * @throws IllegalArgumentException unless {@code coarser} is a positive multiple of m
     */
    public ModMSketch withModulus(long coarser) {
        checkModulus(coarser);
        if (coarser % m != 0) {
            throw new IllegalArgumentException(
                    ("a MOD_m sketch with m = %s can only be coarsened to a multiple of %1$s,"
                                    + " got %s")
                            .formatted(m, coarser));
        }
        if (coarser == m) {
            return this;
        }
        long[] kept =
                Arrays.stream(values)
                        .filter(v -> Long.remainderUnsigned(v, coarser) == 0)
                        .toArray();
        return new ModMSketch(coarser, seed, kept);
    }

    /**
     * Broder's unbiased containment estimate of A in B, |V(A) ∩ V(B)| / |V(A)|, with its sample
     * size k = |V(A)|. With m = 1 the sketches hold the whole sets and the estimate is exact (and
     * the empty set is contained in anything, {@link Similarity}'s convention); otherwise an empty
     * V(A) gives {@code NaN}: no shingle of A was sampled, so nothing is known (use a smaller m).
     *
     * @throws IllegalArgumentException if the two sketches differ in m or seed
     */
    public static SampleEstimate containment(ModMSketch a, ModMSketch b) {
        a.checkCompatible(b);
        int common = ShingleSet.intersectionSize(a.values, b.values, Long.MIN_VALUE);
        boolean exhaustive = a.m == 1;
        return SampleEstimate.of(
                common, a.values.length, exhaustive, exhaustive ? 1.0 : Double.NaN);
    }

    /**
     * Broder's resemblance estimate |V(A) ∩ V(B)| / |V(A) ∪ V(B)|, with its sample size k = |V(A) ∪
     * V(B)|. Exact with m = 1 (two empty sets resemble each other, 1); otherwise {@code NaN} when
     * both are empty.
     *
     * @throws IllegalArgumentException if the two sketches differ in m or seed
     */
    public static SampleEstimate resemblance(ModMSketch a, ModMSketch b) {
        a.checkCompatible(b);
        int common = ShingleSet.intersectionSize(a.values, b.values, Long.MIN_VALUE);
        int union = a.values.length + b.values.length - common;
        boolean exhaustive = a.m == 1;
        return SampleEstimate.of(common, union, exhaustive, exhaustive ? 1.0 : Double.NaN);
    }

    /** The compact byte form described in the class comment. */
    public byte[] toBytes() {
        return SampledHashes.encode(KIND, seed, m, values, m);
    }

    /**
     * Reads {@link #toBytes}'s form.
     *
     * @throws IllegalArgumentException if the bytes are not a well-formed MOD_m sketch
     */
    public static ModMSketch fromBytes(byte[] bytes) {
        SampledHashes.Reader in = new SampledHashes.Reader(bytes, KIND, "MOD_m sketch");
        long seed = in.seed();
        long m = in.varint();
        if (m < 1) {
            throw in.malformed("has modulus m = " + Long.toUnsignedString(m));
        }
        long count = in.varint();
        if (count < 0 || count > Integer.MAX_VALUE) {
            throw in.malformed("claims " + Long.toUnsignedString(count) + " values");
        }
        long[] values = in.values((int) count, m);
        in.end();
        return new ModMSketch(m, seed, values);
    }

    /** Checks m, with a message a user can act on. */
    static void checkModulus(long m) {
        if (m < 1) {
            throw new IllegalArgumentException("MOD_m modulus m must be at least 1, got " + m);
        }
    }

    private void checkCompatible(ModMSketch other) {
        checkCompatible(
                other,
                seed == other.seed
                        ? " (coarsen both to a common multiple of m with withModulus)"
                        : " (sketch both documents with the same seed)");
    }
}
