package dev.neardup.sketch;

/**
 * Similarity of two documents, estimated from MinHash signatures (Broder 1997: the similarity of
 * two signatures is the fraction of MinHash functions in which they agree) or computed exactly from
 * shingle sets: resemblance (Jaccard) and containment as defined by Broder 1997.
 *
 * <p>Conventions for empty sets, consistent between the exact and estimated forms: J(∅, ∅) = 1,
 * J(∅, B) = 0 for non-empty B, and containment of the empty set in anything is 1 (∅ ⊆ B).
 */
public final class Similarity {

    private Similarity() {}

    /**
     * Estimated Jaccard similarity: the fraction of positions in which the two signatures agree.
     * Unbiased for both {@link MinHashAlgorithm}s, with standard error sqrt(J (1 - J) / K).
     *
     * @throws IllegalArgumentException if the signatures have different lengths
     */
    public static double estimateJaccard(long[] a, long[] b) {
        return (double) agreements(a, b) / a.length;
    }

    /** Number of positions in which the two signatures agree. */
    public static int agreements(long[] a, long[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException(
                    ("signatures of different lengths cannot be compared: %s and %s (were they made"
                                    + " with the same number of hashes?)")
                            .formatted(a.length, b.length));
        }
        int same = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] == b[i]) {
                same++;
            }
        }
        return same;
    }

    /** Exact Jaccard similarity |A ∩ B| / |A ∪ B| (Broder's 1997 resemblance r(A, B)). */
    public static double jaccard(ShingleSet a, ShingleSet b) {
        return jaccardOfSorted(a.sorted, b.sorted);
    }

    /**
     * {@link #jaccard(ShingleSet, ShingleSet)} of two sets given as their {@link
     * ShingleSet#toArray} arrays (distinct values, ascending), without copying them: the same
     * double division, so the same value.
     */
    public static double jaccardOfSorted(long[] a, long[] b) {
        if (a.length == 0 && b.length == 0) {
            return 1.0;
        }
        int common = ShingleSet.intersectionSize(a, b, 0);
        return (double) common / (a.length + b.length - common);
    }

    /**
     * {@link #jaccardOfSorted} of two arrays of distinct values in any order ({@link
     * ShingleSet#intersectionSizeOfDistinct}, no sort): the same double division, so the same
     * value.
     */
    public static double jaccardOfDistinct(long[] a, long[] b) {
        if (a.length == 0 && b.length == 0) {
            return 1.0;
        }
        int common = ShingleSet.intersectionSizeOfDistinct(a, b);
        return (double) common / (a.length + b.length - common);
    }

    /** Exact containment of A in B, |A ∩ B| / |A| (Broder's 1997 containment c(A, B)). */
    public static double containment(ShingleSet a, ShingleSet b) {
        if (a.isEmpty()) {
            return 1.0;
        }
        return (double) a.intersectionSize(b) / a.size();
    }

    /** Standard error of the MinHash Jaccard estimate with K values at true similarity j. */
    public static double standardError(double j, int numHashes) {
        return Math.sqrt(j * (1 - j) / numHashes);
    }
}
