package dev.neardup.lsh;

import java.util.Arrays;

/**
 * Size partitioning for containment search with MinHash LSH, after LSH Ensemble (Zhu, Nargesian, Pu
 * and Miller, "LSH Ensemble: Internet-Scale Domain Search", VLDB 2016): banding finds pairs by
 * resemblance, so a containment threshold must be turned into a resemblance threshold, and that
 * depends on the size of the indexed set. Partitioning the indexed sets by size bounds the size in
 * each partition, and each partition gets its own resemblance threshold (and banding): in a
 * partition of sizes at most u, a query of q shingles contained at t in a set has resemblance at
 * least s(u) = t q / (q + u - t q). Equi-depth partitions are close to optimal for real size
 * distributions (Zhu et al.). Math: docs/design/minhash.md.
 */
public final class SizePartitions {

    private SizePartitions() {}

    /**
     * Upper bounds of equi-depth partitions of the given set sizes: partition i holds the sizes in
     * (u_(i-1), u_i] (u_(-1) = -1), each about {@code sizes.length / partitions} of them. Bound i
     * is the size at rank ceil((i + 1) n / p) in ascending order; repeated bounds (many sets of one
     * size) are merged, so there may be fewer than {@code partitions}. The last bound is the
     * largest size.
     *
     * @throws IllegalArgumentException if there are no sizes, a size is negative, or partitions
     *     &lt; 1
     */
    public static long[] equiDepthUpperBounds(long[] sizes, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException(
                    "number of size partitions must be at least 1, got " + partitions);
        }
        if (sizes.length == 0) {
            throw new IllegalArgumentException("cannot partition an empty list of set sizes");
        }
        long[] sorted = sizes.clone();
        Arrays.sort(sorted);
        if (sorted[0] < 0) {
            throw new IllegalArgumentException("set sizes must be >= 0, got " + sorted[0]);
        }
        int n = sorted.length;
        long[] bounds = new long[Math.min(partitions, n)];
        int count = 0;
        for (int i = 0; i < partitions; i++) {
            int rank = (int) Math.max(1, -Math.floorDiv(-(long) (i + 1) * n, partitions));
            long bound = sorted[rank - 1];
            if (count == 0 || bound > bounds[count - 1]) {
                bounds[count++] = bound;
            }
        }
        return Arrays.copyOf(bounds, count);
    }

    /**
     * The partition of a set of the given size: the first i with size &lt;= u_i, or -1 when the
     * size is above every bound (a set larger than all those the partitions were made from; the
     * last partition's threshold does not cover it).
     *
     * @throws IllegalArgumentException if the bounds are not strictly ascending
     */
    public static int partitionOf(long[] upperBounds, long size) {
        checkBounds(upperBounds);
        int i = Arrays.binarySearch(upperBounds, size);
        int index = i >= 0 ? i : -i - 1;
        return index == upperBounds.length ? -1 : index;
    }

    /**
     * The resemblance threshold s(u) = t q / (q + u - t q) at which to query a partition of sizes
     * up to u, for containment threshold t and a query of q shingles; {@code
     * Double.POSITIVE_INFINITY} when u &lt; t q (no set of the partition can qualify). Otherwise in
     * (0, 1].
     *
     * @throws IllegalArgumentException if t is not in (0, 1], q &lt; 1 or u &lt; 0
     */
    public static double resemblanceThreshold(double containment, long querySize, long upperBound) {
        if (!(containment > 0 && containment <= 1)) {
            throw new IllegalArgumentException(
                    "containment threshold must be in (0, 1], got " + containment);
        }
        if (querySize < 1) {
            throw new IllegalArgumentException(
                    "query size must be at least 1 shingle, got " + querySize);
        }
        if (upperBound < 0) {
            throw new IllegalArgumentException(
                    "partition upper bound must be >= 0, got " + upperBound);
        }
        double shared = containment * querySize;
        if (upperBound < shared) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.min(1.0, shared / (querySize + upperBound - shared));
    }

    private static void checkBounds(long[] upperBounds) {
        if (upperBounds.length == 0) {
            throw new IllegalArgumentException("no partition upper bounds given");
        }
        for (int i = 1; i < upperBounds.length; i++) {
            if (upperBounds[i] <= upperBounds[i - 1]) {
                throw new IllegalArgumentException(
                        "partition upper bounds must be strictly ascending, got "
                                + upperBounds[i - 1]
                                + " before "
                                + upperBounds[i]);
            }
        }
    }
}
