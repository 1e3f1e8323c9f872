package dev.neardup.lsh;

/**
 * Super-shingle parameters and their S-curve (Broder, "On the resemblance and containment of
 * documents", 1997): k super-shingles of l MinHash values each, and the number t of them two
 * documents must share to become a candidate pair. The S-curve is P(r) = P[Binomial(k, r^l) &gt;=
 * t], banding's for t = 1 ({@link LshParams}); each document gets C(k, t) keys ({@link #keyCount}).
 * Math and design: docs/design/super-shingles.md.
 *
 * @param superShingles k, the number of super-shingles a document is cut into
 * @param rows l, the MinHash values per super-shingle
 * @param required t, the number of super-shingles two documents must share, 1 &lt;= t &lt;= k
 */
public record SuperShingleParams(int superShingles, int rows, int required) {

    /** Most keys a document may get: C(k, t) is capped so that keyed state stays small. */
    public static final int MAX_KEYS = 1024;

    /** Default key budget of {@link #suggest(double, int)}: "a few keys" per document. */
    public static final int DEFAULT_MAX_KEYS = 16;

    public SuperShingleParams {
        if (superShingles < 1 || rows < 1 || required < 1 || required > superShingles) {
            throw new IllegalArgumentException(
                    ("super-shingles need k >= 1 super-shingles of l >= 1 rows and 1 <= t <= k"
                                    + " shared, got k=%s l=%s t=%s")
                            .formatted(superShingles, rows, required));
        }
        double keys = binomial(superShingles, required);
        if (keys > MAX_KEYS) {
            throw new IllegalArgumentException(
                    ("k=%s super-shingles with t=%s shared give C(k, t) = %s keys per document,"
                                    + " more than %s")
                            .formatted(superShingles, required, (long) keys, MAX_KEYS));
        }
    }

    /** k l, the number of signature values the super-shingles use. */
    public int numHashesUsed() {
        return superShingles * rows;
    }

    /** C(k, t), the number of keys per document. */
    public int keyCount() {
        return (int) Math.round(binomial(superShingles, required));
    }

    /** Checks that the super-shingles fit in a signature of K values. */
    public SuperShingleParams checkFits(int numHashes) {
        if (numHashesUsed() > numHashes) {
            throw new IllegalArgumentException(
                    ("super-shingles x rows = %s x %s = %s exceeds the number of hash values K ="
                                    + " %s; lower the super-shingles or rows, or raise K")
                            .formatted(superShingles, rows, numHashesUsed(), numHashes));
        }
        return this;
    }

    /** P(r): probability that two documents of resemblance r share a key (t super-shingles). */
    public double probability(double r) {
        return candidateProbability(r, superShingles, rows, required);
    }

    /** Integral of P(r) over [0, t]: weight of dissimilar pairs that still become candidates. */
    public double falsePositiveArea(double threshold) {
        return LshParams.integrate(this::probability, 0, threshold);
    }

    /** Integral of 1 - P(r) over [t, 1]: weight of similar pairs that are missed. */
    public double falseNegativeArea(double threshold) {
        return LshParams.integrate(r -> 1 - probability(r), threshold, 1);
    }

    /**
     * The S-curve P[Binomial(k, r^l) &gt;= t]; for t = 1 the closed form {@link
     * LshParams#candidateProbability}. Otherwise the smaller tail (upper when t lies above the mode
     * (k + 1) p), each term computed from logarithms so that none that matters underflows.
     */
    public static double candidateProbability(double r, int superShingles, int rows, int required) {
        if (required == 1) {
            return LshParams.candidateProbability(r, superShingles, rows);
        }
        double p = Math.pow(r, rows);
        if (p >= 1) {
            return 1.0;
        }
        if (p <= 0) {
            return 0.0;
        }
        int k = superShingles;
        double logP = Math.log(p);
        double logQ = Math.log1p(-p);
        boolean upper = required > (k + 1) * p;
        int from = upper ? required : 0;
        int to = upper ? k + 1 : required;
        double logTerm = logBinomial(k, from) + from * logP + (k - from) * logQ;
        double sum = 0;
        for (int j = from; j < to; j++) {
            sum += Math.exp(logTerm);
            logTerm += Math.log((double) (k - j) / (j + 1)) + logP - logQ;
        }
        return Math.max(0.0, Math.min(1.0, upper ? sum : 1 - sum));
    }

    /**
     * Chooses k, l and t for a resemblance threshold: among all (k, l, t) with k l &lt;= K and C(k,
     * t) &lt;= {@code maxKeys} (t &lt; k unless t = 1), the one minimising {@code fpWeight *
     * falsePositiveArea(threshold) + fnWeight * falseNegativeArea(threshold)}. Ties go to the
     * smaller t, then k, then l (fewer keys and shorter groups).
     *
     * @param threshold the resemblance from which pairs count as near-duplicates, in (0, 1)
     * @param numHashes K, the signature length
     * @param maxKeys most keys per document, 1 to {@link #MAX_KEYS}
     * @param fpWeight weight of false positives (relative)
     * @param fnWeight weight of false negatives
     */
    public static SuperShingleParams suggest(
            double threshold, int numHashes, int maxKeys, double fpWeight, double fnWeight) {
        LshParams.checkSearch(threshold, numHashes);
        if (maxKeys < 1 || maxKeys > MAX_KEYS) {
            throw new IllegalArgumentException(
                    "keys per document must be between 1 and " + MAX_KEYS + ", got " + maxKeys);
        }
        LshParams.checkWeights(fpWeight, fnWeight);
        SuperShingleParams best = null;
        double bestError = Double.POSITIVE_INFINITY;
        for (int t = 1; t <= numHashes; t++) {
            // t = k > 1 (one key, all k shared) is the curve of one super-shingle of k l rows,
            // already among the t = 1 candidates.
            for (int k = t == 1 ? 1 : t + 1; k <= numHashes && binomial(k, t) <= maxKeys; k++) {
                for (int l = 1; l <= numHashes / k; l++) {
                    SuperShingleParams p = new SuperShingleParams(k, l, t);
                    double error =
                            fpWeight * p.falsePositiveArea(threshold)
                                    + fnWeight * p.falseNegativeArea(threshold);
                    if (error < bestError - 1e-15) {
                        bestError = error;
                        best = p;
                    }
                }
            }
        }
        return best;
    }

    /**
     * {@link #suggest} with {@link #DEFAULT_MAX_KEYS} keys and banding's default weights ({@link
     * LshParams#DEFAULT_FP_WEIGHT}, {@link LshParams#DEFAULT_FN_WEIGHT}).
     */
    public static SuperShingleParams suggest(double threshold, int numHashes) {
        return suggest(
                threshold,
                numHashes,
                DEFAULT_MAX_KEYS,
                LshParams.DEFAULT_FP_WEIGHT,
                LshParams.DEFAULT_FN_WEIGHT);
    }

    /** C(n, k) as a double (exact for the small values used here). */
    static double binomial(int n, int k) {
        double result = 1;
        for (int i = 1; i <= k; i++) {
            result = result * (n - k + i) / i;
        }
        return result;
    }

    private static double logBinomial(int n, int k) {
        double result = 0;
        for (int i = 1; i <= k; i++) {
            result += Math.log((double) (n - k + i) / i);
        }
        return result;
    }

    @Override
    public String toString() {
        return "%s super-shingles x %s rows, %s shared (%s keys)"
                .formatted(superShingles, rows, required, keyCount());
    }
}
