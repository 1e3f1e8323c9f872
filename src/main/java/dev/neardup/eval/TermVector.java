package dev.neardup.eval;

import dev.neardup.lsh.SimHashSketcher;
import java.util.Arrays;

/**
 * A sparse vector of non-negative feature weights, the representation of the cosine family (feature
 * weights with the hashing trick of Weinberger et al. 2009: a feature is its 64-bit hash, no
 * vocabulary), on which SimHash (Charikar, STOC 2002) fingerprints are computed. {@link
 * #termFrequencies} builds the vector {@link dev.neardup.sketch.SimHash#fingerprint(long[])}
 * hashes: each occurrence of a feature hash weighs 1, so a word that occurs three times has weight
 * 3.
 *
 * <p>Features are kept sorted and distinct, so {@link #cosine} is one merge. Immutable.
 */
public final class TermVector {

    private final long[] features;
    private final double[] weights;
    private final double sumOfSquares;

    private TermVector(long[] features, double[] weights) {
        this.features = features;
        this.weights = weights;
        double s = 0;
        for (double w : weights) {
            s += w * w;
        }
        this.sumOfSquares = s;
    }

    /**
     * The term-frequency vector of {@code featureHashes} (with repeats, as {@link
     * dev.neardup.text.Shingler#shingleHashes} returns them): feature f has weight equal to the
     * number of times it occurs. The array is not modified.
     */
    public static TermVector termFrequencies(long[] featureHashes) {
        // Counted as the job counts a document's vector for exact verification.
        long[] counted = SimHashSketcher.termFrequencies(featureHashes);
        long[] features = new long[counted.length / 2];
        double[] weights = new double[counted.length / 2];
        for (int i = 0; i < features.length; i++) {
            features[i] = counted[2 * i];
            weights[i] = counted[2 * i + 1];
        }
        return new TermVector(features, weights);
    }

    /**
     * The vector sum_j weights[j] e_{features[j]}: weights of a repeated feature add up, zero
     * weights are dropped.
     *
     * @throws IllegalArgumentException if the arrays differ in length or a weight is negative, NaN
     *     or infinite
     */
    public static TermVector of(long[] features, double[] weights) {
        if (features.length != weights.length) {
            throw new IllegalArgumentException(
                    "features and weights differ in length: "
                            + features.length
                            + " and "
                            + weights.length);
        }
        Integer[] order = new Integer[features.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
            if (!(weights[i] >= 0 && weights[i] < Double.POSITIVE_INFINITY)) {
                throw new IllegalArgumentException(
                        "weight of feature "
                                + i
                                + " must be a finite number >= 0, got "
                                + weights[i]);
            }
        }
        Arrays.sort(order, (a, b) -> Long.compare(features[a], features[b]));
        long[] f = new long[features.length];
        double[] w = new double[features.length];
        int n = 0;
        for (int i : order) {
            if (weights[i] == 0) {
                continue; // weights are >= 0: a sum is 0 only when all its terms are
            }
            if (n > 0 && f[n - 1] == features[i]) {
                w[n - 1] += weights[i];
            } else {
                f[n] = features[i];
                w[n++] = weights[i];
            }
        }
        return new TermVector(Arrays.copyOf(f, n), Arrays.copyOf(w, n));
    }

    /** Number of distinct features with a non-zero weight. */
    public int size() {
        return features.length;
    }

    /** The i-th feature, in ascending order. */
    public long feature(int i) {
        return features[i];
    }

    /** The weight of the i-th feature. */
    public double weight(int i) {
        return weights[i];
    }

    /** The Euclidean norm |x|. */
    public double norm() {
        return Math.sqrt(sumOfSquares);
    }

    /**
     * The exact cosine similarity x . y / (|x| |y|), at most 1.0; 0 when either vector is empty.
     * The dot product is summed in ascending feature order, so the result depends only on the two
     * vectors.
     */
    public static double cosine(TermVector x, TermVector y) {
        if (x.sumOfSquares == 0 || y.sumOfSquares == 0) {
            return 0;
        }
        double dot = 0;
        int i = 0;
        int j = 0;
        long[] a = x.features;
        long[] b = y.features;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) {
                dot += x.weights[i++] * y.weights[j++];
            } else if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        return Math.min(1.0, dot / Math.sqrt(x.sumOfSquares * y.sumOfSquares));
    }
}
