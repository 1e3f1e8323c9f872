package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seed 002's angle law, checked statistically with fixed seeds: on generated weighted vectors of
 * exactly known cosine, hamming / D estimates theta / pi within the binomial bound (Charikar, STOC
 * 2002). For each pair the test checks |hamming / D - theta / pi| &lt;= z sqrt(p (1 - p) / D) with
 * z = 3 (a single pair fails with probability about 0.27% if the law holds, a little more at small
 * D where the binomial is lumpy), and asserts that the number of failing pairs is within what that
 * rate allows; and that the mean error over all pairs (the bias) is within 4 standard errors of 0,
 * which is where +-1 hyperplanes would show if they departed from the Gaussian theta / pi law on
 * vectors of this size.
 */
class SimHashAccuracyTest {

    private static final double Z = 3;

    /** Two-sided normal tail beyond Z = 3, doubled for the lumpiness of a binomial at D = 64. */
    private static final double PAIR_FAILURE_RATE = 2 * 0.0027;

    /** A pair of weighted vectors over 64-bit features with their exact cosine. */
    record Pair(long[] featuresU, double[] u, long[] featuresV, double[] v, double cosine) {
        double angle() {
            return Math.acos(Math.max(-1, Math.min(1, cosine)));
        }
    }

    /**
     * Term-frequency documents: {@code size} features per document, a random fraction of them
     * shared, integer weights 1..5 drawn independently in each document (so shared terms need not
     * have equal counts). The cosine is computed from the vectors.
     */
    static Pair termFrequencyPair(SplittableRandom random, int size) {
        int common = (int) Math.round(size * (0.3 + 0.7 * random.nextDouble()));
        long[] fu = new long[size];
        long[] fv = new long[size];
        double[] u = new double[size];
        double[] v = new double[size];
        for (int i = 0; i < size; i++) {
            fu[i] = random.nextLong();
            fv[i] = i < common ? fu[i] : random.nextLong();
            u[i] = 1 + random.nextInt(5);
            v[i] = i < common && random.nextInt(4) > 0 ? u[i] : 1 + random.nextInt(5);
        }
        double dot = 0;
        double nu = 0;
        double nv = 0;
        for (int i = 0; i < size; i++) {
            nu += u[i] * u[i];
            nv += v[i] * v[i];
            if (i < common) {
                dot += u[i] * v[i];
            }
        }
        return new Pair(fu, u, fv, v, dot / Math.sqrt(nu * nv));
    }

    /**
     * Signed real vectors over the same {@code size} features at a chosen angle: v = cos(theta) u /
     * |u| + sin(theta) w / |w| with w Gaussian, orthogonalised against u. Angles uniform in [0,
     * pi].
     */
    static Pair signedPair(SplittableRandom random, int size) {
        long[] f = new long[size];
        double[] u = new double[size];
        double[] w = new double[size];
        for (int i = 0; i < size; i++) {
            f[i] = random.nextLong();
            u[i] = gaussian(random);
            w[i] = gaussian(random);
        }
        double uu = dot(u, u);
        double wu = dot(w, u);
        for (int i = 0; i < size; i++) {
            w[i] -= wu / uu * u[i];
        }
        double nu = Math.sqrt(uu);
        double nw = Math.sqrt(dot(w, w));
        double theta = Math.PI * random.nextDouble();
        double[] v = new double[size];
        for (int i = 0; i < size; i++) {
            v[i] = Math.cos(theta) * u[i] / nu + Math.sin(theta) * w[i] / nw;
        }
        return new Pair(f, u, f, v, dot(u, v) / (nu * Math.sqrt(dot(v, v))));
    }

    private static double gaussian(SplittableRandom random) {
        double x;
        double y;
        double s;
        do {
            x = 2 * random.nextDouble() - 1;
            y = 2 * random.nextDouble() - 1;
            s = x * x + y * y;
        } while (s >= 1 || s == 0);
        return x * Math.sqrt(-2 * Math.log(s) / s);
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static Stream<Arguments> cases() {
        Stream.Builder<Arguments> cases = Stream.builder();
        for (String kind : new String[] {"tf", "signed"}) {
            cases.add(Arguments.of(kind, 64, 300, 2000));
            cases.add(Arguments.of(kind, 256, 300, 800));
            cases.add(Arguments.of(kind, 1024, 300, 400));
        }
        return cases.build();
    }

    @ParameterizedTest(name = "{0} vectors, D = {1}, {2} features, {3} pairs")
    @MethodSource("cases")
    void hammingEstimatesTheAngleWithinTheBinomialBound(
            String kind, int bits, int features, int pairs) {
        SimHash simHash = new SimHash(bits, SimHash.DEFAULT_SEED);
        SplittableRandom random = new SplittableRandom(bits * 31L + kind.hashCode());
        int failures = 0;
        double sumError = 0;
        double sumVariance = 0;
        double worstZ = 0;
        for (int p = 0; p < pairs; p++) {
            Pair pair =
                    kind.equals("tf")
                            ? termFrequencyPair(random, features)
                            : signedPair(random, features);
            long[] a = simHash.fingerprint(pair.featuresU(), pair.u());
            long[] b = simHash.fingerprint(pair.featuresV(), pair.v());
            double observed = (double) SimHash.hamming(a, b) / bits;
            double expected = pair.angle() / Math.PI;
            double se = SimHash.standardError(pair.angle(), bits);
            double error = observed - expected;
            sumError += error;
            sumVariance += se * se;
            if (Math.abs(error) > Z * se + 1e-12) {
                failures++;
            }
            worstZ = Math.max(worstZ, se == 0 ? 0 : Math.abs(error) / se);
        }
        double allowed = pairs * PAIR_FAILURE_RATE + 3 * Math.sqrt(pairs * PAIR_FAILURE_RATE) + 1;
        double bias = sumError / pairs;
        double biasBound = 4 * Math.sqrt(sumVariance) / pairs;
        System.out.printf(
                "SimHash %s D=%d: %d/%d pairs beyond 3 sigma (allowed %.1f), worst %.2f sigma,"
                        + " bias %.5f (bound %.5f)%n",
                kind, bits, failures, pairs, allowed, worstZ, bias, biasBound);
        assertThat((double) failures)
                .as("pairs whose angle error exceeds %s standard errors", Z)
                .isLessThanOrEqualTo(allowed);
        assertThat(Math.abs(bias))
                .as("mean of hamming/D - theta/pi")
                .isLessThanOrEqualTo(biasBound);
    }
}
