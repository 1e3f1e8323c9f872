package dev.neardup.sketch;

/**
 * A resemblance or containment estimated from a sample, as the MIN_s and MOD_m estimators give it
 * (Broder, "On the resemblance and containment of documents", 1997): {@code matches} of the {@code
 * sampleSize} sampled shingles have the property (in both sets), and the estimate is their
 * fraction: unbiased, with hypergeometric variance p (1 - p) / k · (N - k) / (N - 1) and
 * Hoeffding's (1963) bound on the error (derivation: docs/design/sampled-sketches.md).
 *
 * @param value the estimate p̂; {@code NaN} when nothing was sampled and the sets are not known to
 *     be empty (a MOD_m sketch with no value)
 * @param matches sampled shingles with the property, X
 * @param sampleSize the number k of sampled shingles the estimate is a fraction of
 * @param exhaustive true when the sample is the whole population (the sketch holds every shingle of
 *     the sets concerned), so the estimate is exact
 */
public record SampleEstimate(double value, int matches, int sampleSize, boolean exhaustive) {

    public SampleEstimate {
        if (matches < 0 || sampleSize < matches) {
            throw new IllegalArgumentException(
                    "need 0 <= matches <= sampleSize, got " + matches + " of " + sampleSize);
        }
    }

    /** X / k from a sample; 0 of 0 is {@code emptyValue} (the convention for empty sets). */
    static SampleEstimate of(int matches, int sampleSize, boolean exhaustive, double emptyValue) {
        double value = sampleSize == 0 ? emptyValue : (double) matches / sampleSize;
        return new SampleEstimate(value, matches, sampleSize, exhaustive);
    }

    /**
     * Plug-in standard error sqrt(p̂ (1 - p̂) / k), without the finite-population correction; 0
     * when exhaustive (and at p̂ = 0 or 1, see {@link #errorBound(double)}), {@code NaN} when
     * nothing was sampled.
     */
    public double standardError() {
        return exhaustive ? 0 : sampleSize == 0 ? Double.NaN : standardError(value, sampleSize);
    }

    /**
     * Half-width of an interval that holds the true value with probability at least {@code 1 -
     * delta}: {@link #errorBound(int, double)} of this sample; 0 when exhaustive, {@code NaN} when
     * nothing was sampled.
     */
    public double errorBound(double delta) {
        checkDelta(delta);
        return exhaustive ? 0 : sampleSize == 0 ? Double.NaN : errorBound(sampleSize, delta);
    }

    /** Standard error sqrt(p (1 - p) / k) of a fraction of a sample of k, an upper bound. */
    public static double standardError(double p, int sampleSize) {
        checkSampleSize(sampleSize);
        return Math.sqrt(p * (1 - p) / sampleSize);
    }

    /**
     * Exact standard error of the fraction of a uniform sample of k without replacement from a
     * population of N in which a fraction p has the property: sqrt(p (1 - p) / k · (N - k) / (N -
     * 1)).
     */
    public static double standardError(double p, int sampleSize, long populationSize) {
        checkSampleSize(sampleSize);
        if (populationSize < sampleSize) {
            throw new IllegalArgumentException(
                    "population of "
                            + populationSize
                            + " is smaller than the sample of "
                            + sampleSize);
        }
        if (populationSize == 1) {
            return 0;
        }
        double correction = (double) (populationSize - sampleSize) / (populationSize - 1);
        return Math.sqrt(p * (1 - p) / sampleSize * correction);
    }

    /**
     * Hoeffding's bound sqrt(ln(2/δ) / (2k)): the error of a fraction of a sample of k drawn
     * without replacement exceeds it with probability at most δ.
     */
    public static double errorBound(int sampleSize, double delta) {
        checkSampleSize(sampleSize);
        checkDelta(delta);
        return Math.sqrt(Math.log(2 / delta) / (2.0 * sampleSize));
    }

    private static void checkSampleSize(int sampleSize) {
        if (sampleSize < 1) {
            throw new IllegalArgumentException("sample size must be at least 1, got " + sampleSize);
        }
    }

    private static void checkDelta(double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException(
                    "failure probability delta must be strictly between 0 and 1, got " + delta);
        }
    }
}
