package dev.neardup.sketch;

import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * Random-hyperplane bits with Gaussian hyperplanes (Charikar, "Similarity Estimation Techniques
 * from Rounding Algorithms", STOC 2002, after Goemans and Williamson 1995): bit i is 1 when {@code
 * r_i . u >= 0}, the components of r_i being standard normal. For two vectors at angle theta a bit
 * differs with probability theta / pi whatever the vectors are, so the Hamming distance h of D bits
 * estimates theta as {@code pi h / D} without the bias of {@link SimHash}'s ±1 components, which a
 * vector dominated by a few heavy features (a word repeated hundreds of times) defeats: every ±1
 * bit then follows the heaviest feature, and pages with cosine 0.8 get equal fingerprints. Cosine
 * mode judges its candidates with these bits. Math and measurements: docs/design/simhash.md.
 *
 * <p>Contract (the bits are stored state; GaussianSimHashTest pins golden vectors):
 *
 * <ul>
 *   <li>D bits ({@link #bits()}, a multiple of 64 from 64 to {@link SimHash#MAX_BITS}) are a {@code
 *       long[D / 64]} with {@link SimHash}'s bit numbering. Bits 4q to 4q + 3 come from {@code h_q
 *       = fmix64(f XOR splitMix64(seed, q))}: the component of r_{4q+c} for feature f is {@code
 *       Q[(h_q >>> 16c) & 0xFFFF]}, with Q[j] the standard normal quantile of (j + 1/2) / 2^16 (|Q|
 *       at most 4.3). So bit i depends only on the seed and i: the first 64 bits of a 1,024-bit
 *       fingerprint are the 64-bit fingerprint of the same seed.
 *   <li>Weights are the features' term frequencies (each occurrence of a hash weighs 1): the
 *       distinct features are summed in ascending order, so the bits depend only on the multiset.
 *   <li>The empty vector has the all-ones fingerprint (every {@code r_i . u = 0 >= 0}).
 *   <li>Immutable and thread-safe.
 * </ul>
 */
public final class GaussianSimHash {

    /** Seed of the verification hyperplanes. Part of stored state: never change it. */
    public static final long DEFAULT_SEED = 0x67617573_73696D31L; // "gaussim1"

    /** The 2^16 standard normal quantiles Q[j] = Phi^-1((j + 1/2) / 2^16). */
    private static final double[] QUANTILES = quantiles();

    private final int bits;
    private final long[] groupSeeds;

    /** D = {@code bits} Gaussian hyperplane bits drawn from {@code seed}. */
    public GaussianSimHash(int bits, long seed) {
        SimHash.checkBits(bits);
        this.bits = bits;
        this.groupSeeds = new long[bits / 4];
        for (int q = 0; q < groupSeeds.length; q++) {
            groupSeeds[q] = Mix64.splitMix64(seed, q);
        }
    }

    public int bits() {
        return bits;
    }

    /**
     * The fingerprint of the term-frequency vector of {@code features} (repeats count, order does
     * not matter).
     */
    public long[] fingerprint(long[] features) {
        return fingerprintOfCounts(SimHash.termFrequencies(features));
    }

    /**
     * The fingerprint of the term-frequency vector {@code counts}, {@code [f0, n0, f1, n1, ...]}
     * (distinct hashes ascending, each with its count): {@link #fingerprint} without its sort.
     */
    public long[] fingerprintOfCounts(long[] counts) {
        long[] out = new long[bits / 64];
        // Two groups (8 bits) at a time, each bit's sum over the features in ascending order, as
        // the contract says: the eight sums stay in registers (groups come in pairs: bits / 4 is
        // even).
        for (int q = 0; q < groupSeeds.length; q += 2) {
            long seedA = groupSeeds[q];
            long seedB = groupSeeds[q + 1];
            double a0 = 0;
            double a1 = 0;
            double a2 = 0;
            double a3 = 0;
            double b0 = 0;
            double b1 = 0;
            double b2 = 0;
            double b3 = 0;
            for (int i = 0; i < counts.length; i += 2) {
                long f = counts[i];
                double weight = counts[i + 1];
                long ha = Mix64.fmix64(f ^ seedA);
                long hb = Mix64.fmix64(f ^ seedB);
                a0 += weight * QUANTILES[(int) (ha & 0xFFFF)];
                a1 += weight * QUANTILES[(int) ((ha >>> 16) & 0xFFFF)];
                a2 += weight * QUANTILES[(int) ((ha >>> 32) & 0xFFFF)];
                a3 += weight * QUANTILES[(int) (ha >>> 48)];
                b0 += weight * QUANTILES[(int) (hb & 0xFFFF)];
                b1 += weight * QUANTILES[(int) ((hb >>> 16) & 0xFFFF)];
                b2 += weight * QUANTILES[(int) ((hb >>> 32) & 0xFFFF)];
                b3 += weight * QUANTILES[(int) (hb >>> 48)];
            }
            long set =
                    (a0 >= 0 ? 1L : 0L)
                            | (a1 >= 0 ? 2L : 0L)
                            | (a2 >= 0 ? 4L : 0L)
                            | (a3 >= 0 ? 8L : 0L)
                            | (b0 >= 0 ? 16L : 0L)
                            | (b1 >= 0 ? 32L : 0L)
                            | (b2 >= 0 ? 64L : 0L)
                            | (b3 >= 0 ? 128L : 0L);
            int base = q << 2;
            out[base >>> 6] |= set << (base & 63);
        }
        return out;
    }

    /** Q[j] = Phi^-1((j + 1/2) / 2^16), symmetric: Q[2^16 - 1 - j] = -Q[j]. */
    private static double[] quantiles() {
        NormalDistribution normal = new NormalDistribution(null, 0, 1);
        double[] q = new double[1 << 16];
        for (int j = 0; j < (1 << 15); j++) {
            double v = normal.inverseCumulativeProbability((j + 0.5) / (1 << 16));
            q[j] = v;
            q[(1 << 16) - 1 - j] = -v;
        }
        return q;
    }
}
