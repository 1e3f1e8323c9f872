package dev.neardup.sketch;

import java.util.Arrays;

/**
 * A set of 64-bit shingle hashes, held as a sorted array of distinct values: a column of the
 * characteristic matrix (Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, 2014, ch. 3),
 * for exact similarity (verification, tests, {@code neardup compare}). Immutable.
 */
public final class ShingleSet {

    final long[] sorted;

    private ShingleSet(long[] sorted) {
        this.sorted = sorted;
    }

    /** The set of the given hashes (repeats removed); the argument is not modified. */
    public static ShingleSet of(long[] hashes) {
        long[] copy = hashes.clone();
        Arrays.sort(copy);
        int n = SampledHashes.distinct(copy, copy.length);
        return new ShingleSet(n == copy.length ? copy : Arrays.copyOf(copy, n));
    }

    public int size() {
        return sorted.length;
    }

    public boolean isEmpty() {
        return sorted.length == 0;
    }

    public boolean contains(long hash) {
        return Arrays.binarySearch(sorted, hash) >= 0;
    }

    /** |this ∩ other|, by a merge of the two sorted arrays. */
    public int intersectionSize(ShingleSet other) {
        return intersectionSize(sorted, other.sorted, 0);
    }

    /**
     * |a ∩ b| of two arrays of distinct values in ascending order, by a merge: signed order for
     * {@code flip} 0, unsigned order for {@code Long.MIN_VALUE} (x ^ flip puts them in signed
     * order).
     */
    static int intersectionSize(long[] a, long[] b, long flip) {
        int i = 0;
        int j = 0;
        int common = 0;
        while (i < a.length && j < b.length) {
            int c = Long.compare(a[i] ^ flip, b[j] ^ flip);
            if (c < 0) {
                i++;
            } else if (c > 0) {
                j++;
            } else {
                common++;
                i++;
                j++;
            }
        }
        return common;
    }

    /** The distinct hashes in ascending order (a copy). */
    public long[] toArray() {
        return sorted.clone();
    }
}
