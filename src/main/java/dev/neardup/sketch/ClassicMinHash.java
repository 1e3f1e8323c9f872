package dev.neardup.sketch;

import java.util.Arrays;

/**
 * Classic MinHash with K hash functions (Broder 1997, with hash functions in place of permutations
 * as in Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, 2014, ch. 3), the reference
 * implementation: position i is the minimum, compared as signed {@code long}s, of {@code h_i(x) =
 * fmix64(x XOR splitMix64(seed, i))} (see {@link Mix64}) over the set. K mixes per shingle.
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
    public long[] signature(long[] hashes) {
        long[] sig = new long[numHashes];
        Arrays.fill(sig, EMPTY);
        for (long x : hashes) {
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
