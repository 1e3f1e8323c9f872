package dev.neardup.sketch;

import java.util.Arrays;

/**
 * Classic MinHash with K hash functions, the MinHash of Broder 1997 computed with hash functions in
 * place of permutations (Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, 2014, ch. 3):
 * keep, for each hash function h_i, the minimum of h_i over the set. The reference implementation:
 * each position is an independent min-wise sample, so the agreement rate of two signatures is an
 * average of K independent Bernoulli(J) trials (error O(1/sqrt(K))).
 *
 * <p>Hash functions: {@code h_i(x) = fmix64(x XOR s_i)} with {@code s_i = splitMix64(seed, i)} (see
 * {@link Mix64}). Each h_i is a bijection of the 64-bit space, i.e. a pseudo-random permutation of
 * the rows of the characteristic matrix (Leskovec, Rajaraman and Ullman, Mining of Massive
 * Datasets, 2014, ch. 3); minima are compared as signed {@code long}s. Cost: K mixes per shingle.
 */
public final class ClassicMinHash extends MinHash {

    private final long[] rowSeeds;

    public ClassicMinHash(int numHashes, long seed) {
        super(MinHashAlgorithm.CLASSIC, numHashes, seed);
        this.rowSeeds = new long[numHashes];
        for (int i = 0; i < numHashes; i++) {
            rowSeeds[i] = Mix64.splitMix64(seed, i);
        }
    }

    @Override
    public long[] signature(long[] hashes, int from, int to) {
        long[] sig = new long[numHashes];
        Arrays.fill(sig, EMPTY);
        for (int j = from; j < to; j++) {
            long x = hashes[j];
            for (int i = 0; i < numHashes; i++) {
                long h = Mix64.fmix64(x ^ rowSeeds[i]);
                if (h < sig[i]) {
                    sig[i] = h;
                }
            }
        }
        return sig;
    }
}
