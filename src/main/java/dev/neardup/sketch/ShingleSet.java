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

    /**
     * The distinct values of {@code hashes}, in the order first seen, found with an open-addressing
     * table (linear probing, Knuth 1963) instead of a sort: about a fifth of the time of {@link
     * #of} on a page's shingles. The argument is not modified.
     */
    public static long[] distinct(long[] hashes) {
        long[] out = new long[hashes.length];
        int n = distinct(hashes, out);
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** The number of distinct values of {@code hashes}, as {@link #distinct} finds them. */
    public static int distinctCount(long[] hashes) {
        return distinct(hashes, null);
    }

    /** Writes the distinct values to {@code out} (when not null) and returns their number. */
    private static int distinct(long[] hashes, long[] out) {
        // Zero marks an empty slot: the value 0 is remembered apart.
        int capacity = Integer.highestOneBit(Math.max(2, hashes.length) * 2 - 1) << 1;
        long[] table = new long[capacity];
        int mask = capacity - 1;
        boolean zero = false;
        int n = 0;
        for (long x : hashes) {
            if (x == 0) {
                if (!zero) {
                    zero = true;
                    n = add(out, n, x);
                }
                continue;
            }
            for (int i = (int) mix(x) & mask; ; i = (i + 1) & mask) {
                long y = table[i];
                if (y == 0) {
                    table[i] = x;
                    n = add(out, n, x);
                    break;
                }
                if (y == x) {
                    break;
                }
            }
        }
        return n;
    }

    /**
     * |a ∩ b| of two arrays of distinct values in any order: the smaller one in an open-addressing
     * table (linear probing, Knuth 1963), the larger one looked up in it, with no sort.
     */
    public static int intersectionSizeOfDistinct(long[] a, long[] b) {
        long[] small = a.length <= b.length ? a : b;
        long[] large = small == a ? b : a;
        if (small.length == 0) {
            return 0;
        }
        // Zero marks an empty slot: the value 0 is remembered apart.
        int capacity = Integer.highestOneBit(Math.max(2, small.length) * 2 - 1) << 1;
        long[] table = new long[capacity];
        int mask = capacity - 1;
        boolean zero = false;
        for (long x : small) {
            if (x == 0) {
                zero = true;
                continue;
            }
            int i = (int) mix(x) & mask;
            while (table[i] != 0) {
                i = (i + 1) & mask;
            }
            table[i] = x;
        }
        int common = 0;
        for (long x : large) {
            if (x == 0) {
                common += zero ? 1 : 0;
                continue;
            }
            for (int i = (int) mix(x) & mask; ; i = (i + 1) & mask) {
                long y = table[i];
                if (y == x) {
                    common++;
                    break;
                }
                if (y == 0) {
                    break;
                }
            }
        }
        return common;
    }

    private static int add(long[] out, int n, long x) {
        if (out != null) {
            out[n] = x;
        }
        return n + 1;
    }

    /**
     * A 64-bit fingerprint of the set of {@code distinct} values (no repeats), the same whatever
     * their order: the sum of the values mixed (a commutative combination), mixed with the count.
     */
    public static long fingerprint(long[] distinct) {
        long sum = 0;
        for (long x : distinct) {
            sum += mix(x + 0x9E3779B97F4A7C15L);
        }
        return mix(sum ^ distinct.length);
    }

    /** MurmurHash3's 64-bit finalizer (Appleby 2011): every input bit reaches every output bit. */
    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
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
