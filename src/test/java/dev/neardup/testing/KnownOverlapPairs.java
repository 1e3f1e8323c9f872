package dev.neardup.testing;

import java.util.SplittableRandom;

/**
 * Pairs of shingle-hash sets with exactly known sizes and overlap, for the resemblance and
 * containment tests (seed 003): {@code common} values in both sets, {@code onlyA} in A only and
 * {@code onlyB} in B only, so that a short article contained in a long digest is {@code next(0,
 * 300, 20_000)}.
 *
 * <p>All values come from one {@link SplittableRandom} stream, whose outputs are distinct (it
 * applies a bijective mixer to a counter that steps by an odd constant, period 2^64), so no value
 * is drawn twice and the sizes are exact without deduplication.
 */
public final class KnownOverlapPairs {

    /** One pair; sizes and overlap are exact by construction. */
    public record Pair(long[] a, long[] b, int common) {

        /** Exact resemblance r(A, B) = |A ∩ B| / |A ∪ B|. */
        public double resemblance() {
            return (double) common / (a.length + b.length - common);
        }

        /** Exact containment c(A, B) = |A ∩ B| / |A|. */
        public double containment() {
            return (double) common / a.length;
        }

        public int unionSize() {
            return a.length + b.length - common;
        }
    }

    private final SplittableRandom random;

    public KnownOverlapPairs(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** A pair with the given sizes of A \ B, A ∩ B and B \ A, each set in random order. */
    public Pair next(int onlyA, int common, int onlyB) {
        long[] a = new long[onlyA + common];
        long[] b = new long[common + onlyB];
        for (int i = 0; i < common; i++) {
            a[i] = random.nextLong();
            b[i] = a[i];
        }
        for (int i = common; i < a.length; i++) {
            a[i] = random.nextLong();
        }
        for (int i = common; i < b.length; i++) {
            b[i] = random.nextLong();
        }
        shuffle(a);
        shuffle(b);
        return new Pair(a, b, common);
    }

    /** A pair of resemblance round(r · union) / union with A and B of about equal size. */
    public Pair withResemblance(double r, int union) {
        int common = (int) Math.round(r * union);
        int onlyA = (union - common + 1) / 2;
        return next(onlyA, common, union - common - onlyA);
    }

    private void shuffle(long[] values) {
        for (int i = values.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = values[i];
            values[i] = values[j];
            values[j] = t;
        }
    }
}
