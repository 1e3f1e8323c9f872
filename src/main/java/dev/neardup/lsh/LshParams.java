package dev.neardup.lsh;

/**
 * Banding parameters: b bands of r rows (b r &lt;= K), and the S-curve they give (seed 001: "20
 * bands of 5 rows ... P(S1 == S2 | band) = 0.8^5 = .328 ... P(no band agrees) = .672^20 = .00035").
 *
 * <p>The probability that two documents of Jaccard similarity s share a bucket in at least one band
 * is P(s) = 1 - (1 - s^r)^b. For a threshold t, the false-positive area is the integral of P over
 * [0, t] and the false-negative area the integral of 1 - P over [t, 1]; {@link #suggest} minimises
 * their weighted sum over all (b, r) with b r &lt;= K, as datasketch's {@code MinHashLSH} does. The
 * integrals are computed with composite Simpson's rule on 1024 intervals.
 *
 * @param bands b, the number of bands (and of band keys per document)
 * @param rows r, the MinHash values per band
 */
public record LshParams(int bands, int rows) {

    private static final int SIMPSON_INTERVALS = 1024;

    /** Default weight of the false-positive area in {@link #suggest}. */
    public static final double DEFAULT_FP_WEIGHT = 0.5;

    /** Default weight of the false-negative area in {@link #suggest}. */
    public static final double DEFAULT_FN_WEIGHT = 0.5;

    public LshParams {
        if (bands < 1 || rows < 1) {
            throw new IllegalArgumentException(
                    "bands and rows must both be at least 1, got bands=" + bands + " rows=" + rows);
        }
    }

    /** b r, the number of signature values the bands use. */
    public int numHashesUsed() {
        return bands * rows;
    }

    /** Checks that the bands fit in a signature of K values. */
    public LshParams checkFits(int numHashes) {
        if (numHashesUsed() > numHashes) {
            throw new IllegalArgumentException(
                    "bands x rows = "
                            + bands
                            + " x "
                            + rows
                            + " = "
                            + numHashesUsed()
                            + " exceeds the number of hash values K = "
                            + numHashes
                            + "; lower bands or rows, or raise K");
        }
        return this;
    }

    /** P(s) = 1 - (1 - s^r)^b: probability that a pair of similarity s becomes a candidate. */
    public double probability(double s) {
        return candidateProbability(s, bands, rows);
    }

    /** Probability that a pair of similarity s agrees in one given band: s^r. */
    public double bandAgreement(double s) {
        return Math.pow(s, rows);
    }

    /**
     * The effective threshold (1/b)^(1/r): roughly where the S-curve is steepest and crosses 1 -
     * 1/e.
     */
    public double effectiveThreshold() {
        return Math.pow(1.0 / bands, 1.0 / rows);
    }

    /** Integral of P(s) over [0, t]: weight of dissimilar pairs that still become candidates. */
    public double falsePositiveArea(double threshold) {
        return integrate(s -> probability(s), 0, threshold);
    }

    /** Integral of 1 - P(s) over [t, 1]: weight of similar pairs that are missed. */
    public double falseNegativeArea(double threshold) {
        return integrate(s -> 1 - probability(s), threshold, 1);
    }

    /**
     * Chooses b and r for a similarity threshold: the (b, r) with b r &lt;= K minimising {@code
     * fpWeight * falsePositiveArea(t) + fnWeight * falseNegativeArea(t)}. Ties go to the smaller b,
     * then the smaller r (fewer band keys, less state).
     *
     * @param threshold the Jaccard similarity t from which pairs count as near-duplicates, in (0,
     *     1)
     * @param numHashes K, the signature length
     * @param fpWeight weight of false positives (relative; need not sum to 1 with fnWeight)
     * @param fnWeight weight of false negatives
     */
    public static LshParams suggest(
            double threshold, int numHashes, double fpWeight, double fnWeight) {
        checkThreshold(threshold);
        if (numHashes < 1) {
            throw new IllegalArgumentException(
                    "number of hash values K must be at least 1, got " + numHashes);
        }
        if (!(fpWeight >= 0) || !(fnWeight >= 0) || fpWeight + fnWeight == 0) {
            throw new IllegalArgumentException(
                    "false-positive and false-negative weights must be >= 0 and not both 0, got "
                            + fpWeight
                            + " and "
                            + fnWeight);
        }
        LshParams best = null;
        double bestError = Double.POSITIVE_INFINITY;
        for (int b = 1; b <= numHashes; b++) {
            for (int r = 1; r <= numHashes / b; r++) {
                LshParams p = new LshParams(b, r);
                double error =
                        fpWeight * p.falsePositiveArea(threshold)
                                + fnWeight * p.falseNegativeArea(threshold);
                if (error < bestError - 1e-15) {
                    bestError = error;
                    best = p;
                }
            }
        }
        return best;
    }

    /** {@link #suggest} with equal weights. */
    public static LshParams suggest(double threshold, int numHashes) {
        return suggest(threshold, numHashes, DEFAULT_FP_WEIGHT, DEFAULT_FN_WEIGHT);
    }

    /** 1 - (1 - s^r)^b, computed stably for small s^r. */
    public static double candidateProbability(double s, int bands, int rows) {
        double perBand = Math.pow(s, rows);
        // (1 - x)^b = exp(b log1p(-x)) keeps precision when x is tiny.
        return perBand >= 1 ? 1.0 : -Math.expm1(bands * Math.log1p(-perBand));
    }

    static void checkThreshold(double threshold) {
        if (!(threshold > 0 && threshold < 1)) {
            throw new IllegalArgumentException(
                    "threshold must be a Jaccard similarity strictly between 0 and 1, got "
                            + threshold);
        }
    }

    private static double integrate(java.util.function.DoubleUnaryOperator f, double a, double b) {
        int n = SIMPSON_INTERVALS;
        double h = (b - a) / n;
        double sum = f.applyAsDouble(a) + f.applyAsDouble(b);
        for (int i = 1; i < n; i++) {
            sum += (i % 2 == 1 ? 4 : 2) * f.applyAsDouble(a + i * h);
        }
        return sum * h / 3;
    }

    @Override
    public String toString() {
        return bands + " bands x " + rows + " rows";
    }
}
