package dev.neardup.lsh;

import java.io.Serializable;

/**
 * Banding parameters: b bands of r rows (b r &lt;= K), and their S-curve P(s) = 1 - (1 - s^r)^b,
 * the probability that two documents of Jaccard similarity s share a bucket in at least one band
 * (Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, 2014, ch. 3). The false-positive and
 * false-negative areas are integrals of P by composite Simpson's rule on 1024 intervals. Tuning:
 * docs/design/minhash.md.
 *
 * @param bands b, the number of bands (and of band keys per document)
 * @param rows r, the MinHash values per band
 */
public record LshParams(int bands, int rows) implements Serializable {

    private static final int SIMPSON_INTERVALS = 1024;

    /**
     * Default weight of the false-positive area in {@link #suggest}: the one default of the job
     * ({@code neardup.tune.fp-weight}) and of every command ({@code run}, {@code tune}, {@code
     * compare}, {@code evaluate}, {@code bench}). Every candidate is verified, so a false positive
     * costs only work; the default leans toward recall (11 bands x 11 rows at t = 0.8, K = 128).
     */
    public static final double DEFAULT_FP_WEIGHT = 0.25;

    /** Default weight of the false-negative area (see {@link #DEFAULT_FP_WEIGHT}). */
    public static final double DEFAULT_FN_WEIGHT = 0.75;

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
                    ("bands x rows = %s x %s = %s exceeds the number of hash values K = %s;"
                                    + " lower bands or rows, or raise K")
                            .formatted(bands, rows, numHashesUsed(), numHashes));
        }
        return this;
    }

    /** P(s) = 1 - (1 - s^r)^b: probability that a pair of similarity s becomes a candidate. */
    public double probability(double s) {
        return candidateProbability(s, bands, rows);
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
     * fpWeight * falsePositiveArea(t) + fnWeight * falseNegativeArea(t)}, as datasketch's {@code
     * MinHashLSH} does. Ties go to the smaller b, then the smaller r.
     *
     * @param threshold the Jaccard similarity t from which pairs count as near-duplicates, in (0,
     *     1)
     * @param numHashes K, the signature length
     * @param fpWeight weight of false positives (relative; need not sum to 1 with fnWeight)
     * @param fnWeight weight of false negatives
     */
    public static LshParams suggest(
            double threshold, int numHashes, double fpWeight, double fnWeight) {
        checkSearch(threshold, numHashes);
        checkWeights(fpWeight, fnWeight);
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

    /**
     * {@link #suggest} with the default weights, {@link #DEFAULT_FP_WEIGHT} and {@link
     * #DEFAULT_FN_WEIGHT}.
     */
    public static LshParams suggest(double threshold, int numHashes) {
        return suggest(threshold, numHashes, DEFAULT_FP_WEIGHT, DEFAULT_FN_WEIGHT);
    }

    /**
     * Chooses b and r for a candidate stage whose candidates are all verified exactly: the most
     * rows r (fewest candidates) with b = floor(K / r) bands whose S-curve reaches {@code recall}
     * at the threshold itself, P(t) &gt;= recall.
     *
     * @param threshold the Jaccard similarity t, in (0, 1)
     * @param numHashes K, the signature length
     * @param recall the probability of a candidate at s = t, in (0, 1)
     * @return the banding; b = K, r = 1 when no r reaches {@code recall}
     */
    public static LshParams forRecall(double threshold, int numHashes, double recall) {
        checkSearch(threshold, numHashes);
        if (!(recall > 0 && recall < 1)) {
            throw new IllegalArgumentException(
                    "recall must be strictly between 0 and 1, got " + recall);
        }
        for (int r = numHashes; r > 1; r--) {
            int b = numHashes / r;
            if (candidateProbability(threshold, b, r) >= recall) {
                return new LshParams(b, r);
            }
        }
        return new LshParams(numHashes, 1);
    }

    /**
     * Probability that a pair of Jaccard similarity s is <em>found</em>: that it shares a bucket in
     * at least one band and that its MinHash estimate reaches {@code threshold}, when its {@code
     * numHashes} positions agree independently with probability s (Broder 1997). Exact, by dynamic
     * programming over the bands (docs/design/minhash.md). O(b r K) time.
     *
     * @param s Jaccard similarity in [0, 1]
     * @param numHashes K, at least b r
     * @param threshold the verification threshold on the estimate
     */
    public double findProbability(double s, int numHashes, double threshold) {
        return findProbability(s, numHashes, threshold, 64);
    }

    /**
     * {@link #findProbability(double, int, double)} when verification compares only the lowest
     * {@code bits} bits of each value ({@link dev.neardup.sketch.BbitMinHash}), while a band still
     * needs all r full values to agree. {@code bits} of 64 means full values.
     */
    public double findProbability(double s, int numHashes, double threshold, int bits) {
        checkFits(numHashes);
        int r = rows;
        double chance = bits >= 64 ? 0 : Math.scalb(1.0, -bits);
        double q = s + (1 - s) * chance;
        // dist[a][c]: probability of a (b-bit) agreements so far, c = 1 when a band agreed fully.
        double[][] dist = new double[numHashes + 1][2];
        dist[0][0] = 1;
        double full = Math.pow(s, r);
        double[] partial = new double[r + 1];
        for (int a = 0; a <= r; a++) {
            partial[a] =
                    SuperShingleParams.binomial(r, a) * Math.pow(q, a) * Math.pow(1 - q, r - a);
        }
        partial[r] = Math.max(0, partial[r] - full); // all r agree in b bits, not all in full
        int used = 0;
        for (int band = 0; band < bands; band++) {
            double[][] next = new double[numHashes + 1][2];
            for (int a = 0; a <= used; a++) {
                for (int c = 0; c < 2; c++) {
                    double p = dist[a][c];
                    if (p == 0) {
                        continue;
                    }
                    next[a + r][1] += p * full;
                    for (int x = 0; x <= r; x++) {
                        next[a + x][c] += p * partial[x];
                    }
                }
            }
            dist = next;
            used += r;
        }
        int rest = numHashes - used;
        int needed = (int) Math.ceil((chance + (1 - chance) * threshold) * numHashes - 1e-9);
        double total = 0;
        for (int a = 0; a <= used; a++) {
            double p = dist[a][1];
            if (p == 0) {
                continue;
            }
            for (int x = 0; x <= rest; x++) {
                if (a + x >= needed) {
                    total +=
                            p
                                    * SuperShingleParams.binomial(rest, x)
                                    * Math.pow(q, x)
                                    * Math.pow(1 - q, rest - x);
                }
            }
        }
        return Math.min(1.0, total);
    }

    /** 1 - (1 - s^r)^b, computed stably for small s^r. */
    public static double candidateProbability(double s, int bands, int rows) {
        double perBand = Math.pow(s, rows);
        // (1 - x)^b = exp(b log1p(-x)) keeps precision when x is tiny.
        return perBand >= 1 ? 1.0 : -Math.expm1(bands * Math.log1p(-perBand));
    }

    /** Checks the threshold and K of a parameter search. */
    static void checkSearch(double threshold, int numHashes) {
        if (!(threshold > 0 && threshold < 1)) {
            throw new IllegalArgumentException(
                    "threshold must be a Jaccard similarity strictly between 0 and 1, got "
                            + threshold);
        }
        if (numHashes < 1) {
            throw new IllegalArgumentException(
                    "number of hash values K must be at least 1, got " + numHashes);
        }
    }

    static void checkWeights(double fpWeight, double fnWeight) {
        if (!(fpWeight >= 0) || !(fnWeight >= 0) || fpWeight + fnWeight == 0) {
            throw new IllegalArgumentException(
                    "false-positive and false-negative weights must be >= 0 and not both 0, got "
                            + fpWeight
                            + " and "
                            + fnWeight);
        }
    }

    static double integrate(java.util.function.DoubleUnaryOperator f, double a, double b) {
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
