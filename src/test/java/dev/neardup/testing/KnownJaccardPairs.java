package dev.neardup.testing;

import java.util.SplittableRandom;

/**
 * Pairs of shingle-hash sets with an exactly known Jaccard similarity, for statistical tests:
 * {@code common} values shared by both sets, the other {@code union - common} values split between
 * A only and B only, all values distinct random 64-bit numbers.
 */
public final class KnownJaccardPairs {

    /** One pair; {@link #jaccard()} is exact by construction. */
    public record Pair(long[] a, long[] b, int union, int common) {
        public double jaccard() {
            return (double) common / union;
        }
    }

    private final SplittableRandom random;

    public KnownJaccardPairs(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /**
     * A pair whose union has {@code union} elements of which {@code round(j * union)} are common.
     */
    public Pair next(double j, int union) {
        int common = (int) Math.round(j * union);
        int onlyA = (union - common + 1) / 2;
        int onlyB = union - common - onlyA;
        long[] a = new long[common + onlyA];
        long[] b = new long[common + onlyB];
        java.util.HashSet<Long> seen = new java.util.HashSet<>();
        for (int i = 0; i < union; i++) {
            long v;
            do {
                v = random.nextLong();
            } while (!seen.add(v));
            if (i < common) {
                a[i] = v;
                b[i] = v;
            } else if (i < common + onlyA) {
                a[i] = v;
            } else {
                b[i - onlyA] = v;
            }
        }
        return new Pair(a, b, union, common);
    }
}
