package dev.neardup.sketch;

/**
 * A MinHash scheme: maps a set of 64-bit shingle hashes to a signature of K {@code long} values
 * such that, for two sets A and B, each position agrees with probability (about) J(A, B) = |A ∩ B|
 * / |A ∪ B| (the min-wise lemma, Broder 1997).
 *
 * <p>Contract, shared by all implementations:
 *
 * <ul>
 *   <li>Deterministic: the signature depends only on the set of input values (not their order or
 *       repetitions), K and the seed. Signatures are part of stored state; golden-vector tests pin
 *       them.
 *   <li>The empty set has the signature of K copies of {@link #EMPTY}; no non-empty set does
 *       (barring a 2^-64 coincidence), so {@link Similarity#estimateJaccard} of an empty and a
 *       non-empty signature is 0.
 *   <li>Implementations are immutable and thread-safe.
 * </ul>
 */
public abstract class MinHash {

    /** The value of every position of the empty set's signature. */
    public static final long EMPTY = Long.MAX_VALUE;

    /** Default signature length K. */
    public static final int DEFAULT_NUM_HASHES = 128;

    /** Default seed of the MinHash functions. Part of stored state: never change it. */
    public static final long DEFAULT_SEED = 0x6D696E68_61736831L; // "minhash1"

    private final MinHashAlgorithm algorithm;
    final int numHashes;
    final long seed;

    MinHash(MinHashAlgorithm algorithm, int numHashes, long seed) {
        checkNumHashes(numHashes);
        this.algorithm = algorithm;
        this.numHashes = numHashes;
        this.seed = seed;
    }

    /** Signature of the shingle hashes. */
    public abstract long[] signature(long[] hashes);

    /** K, the signature length. */
    public int numHashes() {
        return numHashes;
    }

    /** The seed the hash functions are derived from. */
    public long seed() {
        return seed;
    }

    public MinHashAlgorithm algorithm() {
        return algorithm;
    }

    /** A MinHash of the given algorithm with K = {@code numHashes} values and the given seed. */
    public static MinHash create(MinHashAlgorithm algorithm, int numHashes, long seed) {
        return switch (algorithm) {
            case CLASSIC -> new ClassicMinHash(numHashes, seed);
            case OPH -> new OnePermutationMinHash(numHashes, seed);
        };
    }

    /** The default MinHash: {@link MinHashAlgorithm#OPH}, K = 128, default seed. */
    public static MinHash defaults() {
        return create(MinHashAlgorithm.defaultAlgorithm(), DEFAULT_NUM_HASHES, DEFAULT_SEED);
    }

    /** Checks K, with a message a user can act on. */
    public static void checkNumHashes(int numHashes) {
        if (numHashes < 1 || numHashes > 4096) {
            throw new IllegalArgumentException(
                    "number of hash values K must be between 1 and 4096, got " + numHashes);
        }
    }
}
