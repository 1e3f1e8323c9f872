package dev.neardup.sketch;

/**
 * 64-bit mixing functions: the random hash functions that stand in for explicit permutations in
 * MinHash (Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, 2014, ch. 3). Both are
 * bijections on {@code long}, so as functions of a (uniformly hashed) shingle they behave like
 * random permutations of the 2^64 hash space.
 *
 * <p>Contract: pure functions of their arguments, identical on every platform and JVM; their
 * outputs end up in stored state (signatures, band keys), so they never change.
 */
public final class Mix64 {

    private Mix64() {}

    /** The golden-ratio increment of SplitMix64, 2^64 / phi, odd. */
    public static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    /** MurmurHash3's 64-bit finaliser {@code fmix64} (Appleby, 2011): a bijection. */
    public static long fmix64(long z) {
        z ^= z >>> 33;
        z *= 0xff51afd7ed558ccdL;
        z ^= z >>> 33;
        z *= 0xc4ceb9fe1a85ec53L;
        z ^= z >>> 33;
        return z;
    }

    /**
     * The {@code i}-th output of SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom
     * number generators", OOPSLA 2014) started at {@code seed}: {@code mix(seed + (i + 1) *
     * GOLDEN_GAMMA)} with Stafford's variant 13 mixer. Used to derive independent per-row seeds
     * from one seed.
     */
    public static long splitMix64(long seed, long i) {
        long z = seed + (i + 1) * GOLDEN_GAMMA;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /**
     * Maps a 64-bit hash to {@code [0, n)} without division, from its high 32 bits (Lemire, "A fast
     * alternative to the modulo reduction", 2016). Uniform up to a bias below n / 2^32.
     */
    public static int reduce(long hash, int n) {
        return (int) (((hash >>> 32) * n) >>> 32);
    }
}
