package dev.neardup.sketch;

import java.util.Arrays;

/**
 * One-permutation hashing (Li, Owen and Zhang, NIPS 2012) with optimal densification (Shrivastava,
 * "Optimal Densification for Fast and Accurate Minwise Hashing", ICML 2017): the default MinHash of
 * neardup.
 *
 * <p>Each shingle is hashed once, {@code h(x) = fmix64(x XOR s)} with {@code s = splitMix64(seed,
 * 0)}; its bin is {@code reduce(h, K)} (the high 32 bits, see {@link Mix64#reduce}), and each bin
 * keeps the smallest h (signed comparison) that falls into it. That is one permutation of the
 * shingle space cut into K parts, instead of K permutations: O(n + K) work per document instead of
 * O(n K).
 *
 * <p>Bins that no shingle reached are filled by optimal densification: empty bin {@code i} probes
 * bins {@code p(i, 0), p(i, 1), ...} with {@code p(i, a) = reduce(splitMix64(fmix64(d + i), a), K)}
 * and {@code d = splitMix64(seed, 1)}, and copies the value of the first bin that was non-empty
 * before densification; after {@code 64 K} unsuccessful probes, the next such bin in index order.
 * Why this is unbiased: docs/design/minhash.md.
 */
public final class OnePermutationMinHash extends MinHash {

    private static final int PROBE_LIMIT_FACTOR = 64;

    private final long permutationSeed;
    private final long[] probeSeeds;

    public OnePermutationMinHash(int numHashes, long seed) {
        super(MinHashAlgorithm.OPH, numHashes, seed);
        this.permutationSeed = Mix64.splitMix64(seed, 0);
        long densificationSeed = Mix64.splitMix64(seed, 1);
        this.probeSeeds = new long[numHashes];
        for (int i = 0; i < numHashes; i++) {
            probeSeeds[i] = Mix64.fmix64(densificationSeed + i);
        }
    }

    @Override
    public long[] signature(long[] hashes) {
        final int k = numHashes;
        long[] sig = new long[k];
        Arrays.fill(sig, EMPTY);
        final long s = permutationSeed;
        for (long hash : hashes) {
            long h = Mix64.fmix64(hash ^ s);
            int bin = Mix64.reduce(h, k);
            if (h < sig[bin]) {
                sig[bin] = h;
            }
        }
        densify(sig);
        return sig;
    }

    private void densify(long[] sig) {
        final int k = numHashes;
        int filled = 0;
        for (long v : sig) {
            if (v != EMPTY) {
                filled++;
            }
        }
        if (filled == k || filled == 0) {
            return; // full, or the empty set (its signature is all EMPTY)
        }
        long[] original = sig.clone();
        int limit = PROBE_LIMIT_FACTOR * k;
        for (int i = 0; i < k; i++) {
            if (original[i] != EMPTY) {
                continue;
            }
            long value = EMPTY;
            for (int attempt = 0; attempt < limit; attempt++) {
                long candidate =
                        original[Mix64.reduce(Mix64.splitMix64(probeSeeds[i], attempt), k)];
                if (candidate != EMPTY) {
                    value = candidate;
                    break;
                }
            }
            if (value == EMPTY) {
                for (int step = 1; step <= k && value == EMPTY; step++) {
                    value = original[(i + step) % k];
                }
            }
            sig[i] = value;
        }
    }
}
