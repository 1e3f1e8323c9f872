package dev.neardup.sketch;

/**
 * A resemblance or containment estimated from a sample, as the MIN_s and MOD_m estimators give it
 * (Broder, "On the resemblance and containment of documents", 1997): {@code matches} of the {@code
 * sampleSize} sampled shingles have the property (in both sets), and the estimate is their
 * fraction.
 *
 * <p>The math. Both sketches sample without replacement: under a random permutation π, MIN_s(π(A ∪
 * B)) is a uniformly random subset of size k = min(s, |A ∪ B|) of the N = |A ∪ B| shingles, and
 * MOD_m(π(A)), given its size k, is a uniformly random k-subset of the N = |A| shingles of A. If a
 * fraction p of the population has the property (p = r(A, B) with K = |A ∩ B| of the N = |A ∪ B|
 * shingles, or p = c(A, B) with K = |A ∩ B| of the N = |A| shingles), the number of matches X is
 * hypergeometric, so the estimate p̂ = X / k is unbiased, E[p̂] = p, with
 *
 * <pre>
 *   Var(p̂) = p (1 - p) / k · (N - k) / (N - 1)        (finite-population correction)
 *          &lt;= p (1 - p) / k
 * </pre>
 *
 * <p>For MOD_m, k = |MOD_m(A)| itself is random (about N / m), and the variance above is
 * conditional on it; E[k] = N / m makes the correction about 1 - 1/m.
 *
 * <p>A distribution-free bound: by Hoeffding's inequality for sampling without replacement
 * (Hoeffding, "Probability inequalities for sums of bounded random variables", 1963, Theorem 4,
 * which carries the bound for independent draws over), P(|p̂ - p| &gt;= ε) &lt;= 2 exp(-2 k ε²), so
 * with probability at least 1 - δ the error is below {@link #errorBound(int, double) errorBound(k,
 * δ)} = sqrt(ln(2/δ) / (2k)).
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
     * Plug-in standard error sqrt(p̂ (1 - p̂) / k), without the finite-population correction (so it
     * errs on the large side); 0 when exhaustive, {@code NaN} when nothing was sampled. At p̂ = 0
     * or 1 it is 0 although the truth may differ: use {@link #errorBound(double)} for a bound that
     * does not depend on p̂.
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

    /** Standard error sqrt(p (1 - p) / k) of a fraction of a sample of k: the bound above. */
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
