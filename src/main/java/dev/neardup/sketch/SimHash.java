package dev.neardup.sketch;

/**
 * SimHash: Charikar's random-projection fingerprint of a weighted feature vector (Charikar,
 * "Similarity Estimation Techniques from Rounding Algorithms", STOC 2002), as Google used it for
 * near-duplicate web pages (Manku, Jain and Das Sarma, "Detecting Near-Duplicates for Web
 * Crawling", WWW 2007: 64 bits per page).
 *
 * <p>Bit i of a D-bit fingerprint is the side of a random hyperplane r_i on which the feature
 * vector u lies; two vectors at angle theta differ in a bit with probability theta / pi, so {@code
 * theta^ = pi hamming / D}. The hyperplanes' components are +1 or -1: {@code r_i(f) = +1} if bit
 * {@code i mod 64} of {@code fmix64(f XOR splitMix64(seed, i / 64))} is 1, else -1 (see {@link
 * Mix64}). Math, errors and design: docs/design/simhash.md.
 *
 * <p>Contract (fingerprints are stored state; SimHashTest pins golden vectors):
 *
 * <ul>
 *   <li>A fingerprint of D bits ({@link #bits()}, a multiple of 64 from 64 to 1,024) is a {@code
 *       long[D / 64]}; fingerprint bit i is bit {@code i mod 64} (the value {@code 1L << (i % 64)})
 *       of word {@code i / 64}. Serialised, the words are little-endian longs in word order (as
 *       {@link dev.neardup.sketch.BbitMinHash} and the band keys hash them). Word w depends only on
 *       the seed and w, so the first 64 bits of a 1,024-bit fingerprint are the 64-bit fingerprint
 *       of the same seed.
 *   <li>Features are 64-bit hashes (the hashing trick of Weinberger et al. 2009), such as {@link
 *       dev.neardup.text.Shingler}'s shingle hashes. A feature that occurs several times adds its
 *       weights: the vector is sum_j w_j e_{f_j}.
 *   <li>Bit i is 1 iff {@code 2 P_i >= T}, where {@code T} is the sum of all weights and {@code
 *       P_i} the sum of the weights of the features with {@code r_i(f) = +1}, both summed in input
 *       order in {@code double}: that is {@code r_i . u = P_i - (T - P_i) >= 0}. Integer weights
 *       (term frequencies) are summed exactly (below 2^53), so their fingerprint depends only on
 *       the multiset of (feature, weight) pairs, not on their order; {@link #fingerprint(long[])}
 *       counts in {@code long} and is always order-independent.
 *   <li>Weights may be negative (the hashing trick's signed features, or centred tf-idf): the
 *       projection is linear. A zero weight is the same as an absent feature. NaN and infinite
 *       weights are rejected. The zero vector (no features, or all weights 0) has the all-ones
 *       fingerprint (every {@code r_i . u = 0 >= 0}); its angle to anything is undefined.
 *   <li>Instances are immutable and thread-safe.
 * </ul>
 */
public final class SimHash {

    /** Default fingerprint length D: one {@code long}, as in Manku et al. */
    public static final int DEFAULT_BITS = 64;

    /** Largest fingerprint length: 1,000-bit random projections, rounded up. */
    public static final int MAX_BITS = 1024;

    /** Default seed of the random hyperplanes. Part of stored state: never change it. */
    public static final long DEFAULT_SEED = 0x73696D68_61736831L; // "simhash1"

    private final int bits;
    private final long seed;
    private final long[] wordSeeds;

    /** SimHash with D = {@code bits} bits and the hyperplanes of {@code seed}. */
    public SimHash(int bits, long seed) {
        checkBits(bits);
        this.bits = bits;
        this.seed = seed;
        this.wordSeeds = new long[bits / 64];
        for (int w = 0; w < wordSeeds.length; w++) {
            wordSeeds[w] = Mix64.splitMix64(seed, w);
        }
    }

    /** The default SimHash: 64 bits, {@link #DEFAULT_SEED}. */
    public static SimHash defaults() {
        return new SimHash(DEFAULT_BITS, DEFAULT_SEED);
    }

    /** Checks D, with a message a user can act on. */
    public static int checkBits(int bits) {
        if (bits < 64 || bits > MAX_BITS || bits % 64 != 0) {
            throw new IllegalArgumentException(
                    ("SimHash bits must be a multiple of 64 from 64 to %s (64, 128, 192, ...), got"
                                    + " %s")
                            .formatted(MAX_BITS, bits));
        }
        return bits;
    }

    public int bits() {
        return bits;
    }

    /** D / 64, the length of a fingerprint in {@code long}s. */
    public int words() {
        return wordSeeds.length;
    }

    public long seed() {
        return seed;
    }

    /**
     * Fingerprint of the vector sum_j weights[j] e_{features[j]}.
     *
     * @throws IllegalArgumentException if a weight is NaN or infinite, or the weights' absolute sum
     *     overflows
     */
    public long[] fingerprint(long[] features, double[] weights) {
        if (weights.length != features.length) {
            throw new IllegalArgumentException(
                    "features and weights differ in length: %s and %s"
                            .formatted(features.length, weights.length));
        }
        final int words = wordSeeds.length;
        double[] positive = new double[bits];
        double total = 0;
        double absolute = 0;
        for (int j = 0; j < features.length; j++) {
            double w = weights[j];
            if (!Double.isFinite(w)) {
                throw new IllegalArgumentException(
                        "weight of feature " + j + " must be a finite number, got " + w);
            }
            if (w == 0) {
                continue;
            }
            total += w;
            absolute += Math.abs(w);
            long f = features[j];
            for (int word = 0; word < words; word++) {
                long h = Mix64.fmix64(f ^ wordSeeds[word]);
                int base = word << 6;
                for (int b = 0; b < 64; b++) {
                    if (((h >>> b) & 1) != 0) {
                        positive[base + b] += w;
                    }
                }
            }
        }
        if (!Double.isFinite(absolute)) {
            throw new IllegalArgumentException(
                    "the sum of the absolute weights overflows a double; scale the weights down");
        }
        double sum = total;
        return bitsWhere(i -> 2 * positive[i] >= sum);
    }

    /** The fingerprint whose bit i is set when {@code set.test(i)}. */
    private long[] bitsWhere(java.util.function.IntPredicate set) {
        long[] out = new long[wordSeeds.length];
        for (int i = 0; i < bits; i++) {
            if (set.test(i)) {
                out[i >>> 6] |= 1L << (i & 63);
            }
        }
        return out;
    }

    /**
     * Fingerprint of the term-frequency vector of {@code features}: each occurrence of a feature
     * hash weighs 1, so a shingle that occurs three times has weight 3. Equal to {@link
     * #fingerprint(long[], double[])} with all weights 1, computed in exact integer arithmetic, so
     * it never depends on the order of the features. Takes {@link dev.neardup.text.Shingler}'s
     * output (shingle hashes with repeats) as it is.
     */
    public long[] fingerprint(long[] features) {
        return fingerprintOfCounts(termFrequencies(features));
    }

    /**
     * The term-frequency vector of {@code features} (with repeats): its distinct hashes in
     * ascending (signed) order, each followed by the number of times it occurs, {@code [f0, n0, f1,
     * n1, ...]}. The array is not modified.
     */
    public static long[] termFrequencies(long[] features) {
        long[] sorted = features.clone();
        java.util.Arrays.sort(sorted);
        long[] out = new long[2 * sorted.length];
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                out[n] = sorted[i];
                n += 2;
            }
            out[n - 1]++;
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }

    /**
     * {@link #fingerprint(long[])} of the features whose term-frequency vector is {@code counts},
     * {@code [f0, n0, f1, n1, ...]} (each distinct hash once, with its count): the same bits, one
     * pass per distinct feature instead of per occurrence.
     */
    public long[] fingerprintOfCounts(long[] counts) {
        final int words = wordSeeds.length;
        long[] positive = new long[bits];
        long total = 0;
        for (int i = 0; i < counts.length; i += 2) {
            long f = counts[i];
            long n = counts[i + 1];
            total += n;
            for (int word = 0; word < words; word++) {
                long h = Mix64.fmix64(f ^ wordSeeds[word]);
                int base = word << 6;
                for (int b = 0; b < 64; b++) {
                    positive[base + b] += n & -((h >>> b) & 1);
                }
            }
        }
        long sum = total;
        return bitsWhere(i -> 2 * positive[i] >= sum);
    }

    /**
     * Number of bits in which two fingerprints differ.
     *
     * @throws IllegalArgumentException if they differ in length
     */
    public static int hamming(long[] a, long[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException(
                    ("fingerprints of different lengths cannot be compared: %s and %s bits (were"
                                    + " they made with the same SimHash bits?)")
                            .formatted(a.length * 64, b.length * 64));
        }
        int distance = 0;
        for (int i = 0; i < a.length; i++) {
            distance += Long.bitCount(a[i] ^ b[i]);
        }
        return distance;
    }

    /** The estimated angle theta^ = pi hamming / D, in radians in [0, pi]. */
    public static double angle(int hamming, int bits) {
        if (hamming < 0 || hamming > bits) {
            throw new IllegalArgumentException(
                    "Hamming distance must be between 0 and " + bits + ", got " + hamming);
        }
        return Math.PI * hamming / bits;
    }

    /** The estimated cosine similarity cos(pi hamming / D) of Charikar 2002. */
    public static double cosine(int hamming, int bits) {
        return Math.cos(angle(hamming, bits));
    }

    /** Estimated cosine similarity of the vectors of two fingerprints. */
    public static double estimateCosine(long[] a, long[] b) {
        return cosine(hamming(a, b), a.length * 64);
    }

    /**
     * The standard error of hamming / D at true angle theta: sqrt(p (1 - p) / D) with p = theta /
     * pi. Multiply by pi for the standard error of theta^.
     */
    public static double standardError(double angle, int bits) {
        double p = angle / Math.PI;
        return Math.sqrt(p * (1 - p) / bits);
    }

    /**
     * Probability that two D-bit fingerprints of vectors at angle theta are within Hamming distance
     * k: P[Binomial(D, theta / pi) &lt;= k], each bit differing independently with probability
     * theta / pi (Charikar 2002). The chance that a pair at that angle is a near-duplicate by
     * {@code --max-hamming k}.
     */
    public static double withinProbability(double angle, int bits, int maxHamming) {
        double p = Math.min(1, Math.max(0, angle / Math.PI));
        if (maxHamming >= bits || p == 0) {
            return 1;
        }
        if (p == 1) {
            return 0;
        }
        // Binomial terms from logs, to stay finite for D up to 1,024.
        double sum = 0;
        double logP = Math.log(p);
        double logQ = Math.log1p(-p);
        double logBinomial = 0; // log C(D, 0)
        for (int h = 0; h <= maxHamming; h++) {
            if (h > 0) {
                logBinomial += Math.log((double) (bits - h + 1) / h);
            }
            sum += Math.exp(logBinomial + h * logP + (bits - h) * logQ);
        }
        return Math.min(1, sum);
    }

    /**
     * The smallest Hamming distance h of D-bit fingerprints such that a pair at cosine {@code
     * cosine} is further apart than h with probability at most {@code miss}: P[Binomial(D, theta /
     * pi) &gt; h] &lt;= miss at theta = arccos(cosine) (Charikar 2002). A pair at that cosine or
     * above is within h but for that chance: a screen that lets through every pair within h drops a
     * pair at the threshold with probability at most {@code miss}, and fewer above it.
     */
    public static int screenMaxHamming(double cosine, int bits, double miss) {
        if (!(cosine >= -1 && cosine <= 1)) {
            throw new IllegalArgumentException(
                    "cosine similarity must be between -1 and 1, got " + cosine);
        }
        if (!(miss > 0 && miss < 1)) {
            throw new IllegalArgumentException("miss must be between 0 and 1, got " + miss);
        }
        double angle = Math.acos(cosine);
        int h = 0;
        while (h < bits && withinProbability(angle, bits, h) < 1 - miss) {
            h++;
        }
        return h;
    }

    /**
     * The largest Hamming distance whose estimated cosine still reaches {@code cosine}: floor(D
     * arccos(c) / pi). The {@code k} of {@link dev.neardup.lsh.PermutedBlocks} for a cosine
     * threshold.
     */
    public static int maxHamming(double cosine, int bits) {
        if (!(cosine >= -1 && cosine <= 1)) {
            throw new IllegalArgumentException(
                    "cosine similarity must be between -1 and 1, got " + cosine);
        }
        int k = (int) Math.floor(bits * Math.acos(cosine) / Math.PI);
        // Guard against rounding at the boundary: cosine(k) must reach the threshold.
        while (k > 0 && cosine(k, bits) < cosine) {
            k--;
        }
        while (k < bits && cosine(k + 1, bits) >= cosine) {
            k++;
        }
        return k;
    }
}
