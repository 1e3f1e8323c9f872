package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** LSH Ensemble's size partitions and containment-to-resemblance thresholds (Zhu et al. 2016). */
class SizePartitionsTest {

    @Test
    void equiDepthBoundsAreTheQuantilesOfPowerLawSizes() {
        // Pareto sizes (alpha = 1.2), as Zhu et al. observe for real data. With a minimum of 20
        // shingles many sets tie at small sizes; with 20,000 ties are rare.
        for (int minimum : new int[] {20, 20_000}) {
            SplittableRandom random = new SplittableRandom(16);
            long[] sizes = new long[10_000];
            for (int i = 0; i < sizes.length; i++) {
                sizes[i] = (long) (minimum / Math.pow(1 - random.nextDouble(), 1 / 1.2));
            }
            long[] bounds = SizePartitions.equiDepthUpperBounds(sizes, 8);
            assertThat(bounds).hasSize(8).isSorted().doesNotHaveDuplicates();
            assertThat(bounds[7]).isEqualTo(java.util.Arrays.stream(sizes).max().orElseThrow());
            int[] counts = new int[8];
            for (long size : sizes) {
                int p = SizePartitions.partitionOf(bounds, size);
                assertThat(p).isBetween(0, 7);
                assertThat(size).isLessThanOrEqualTo(bounds[p]);
                if (p > 0) {
                    assertThat(size).isGreaterThan(bounds[p - 1]);
                }
                counts[p]++;
            }
            // Bound i is the size at rank 1,250 (i + 1): at least that many sets are <= it, fewer
            // are < it.
            int atOrBelow = 0;
            for (int i = 0; i < 8; i++) {
                atOrBelow += counts[i];
                final long bound = bounds[i];
                long below = java.util.Arrays.stream(sizes).filter(x -> x < bound).count();
                assertThat(atOrBelow).isGreaterThanOrEqualTo(1250 * (i + 1));
                assertThat(below).isLessThan(1250 * (i + 1));
            }
            if (minimum == 20_000) {
                for (int c : counts) {
                    assertThat(c).isBetween(1240, 1260);
                }
            }
            assertThat(SizePartitions.partitionOf(bounds, bounds[7] + 1)).isEqualTo(-1);
        }
    }

    @Test
    void tiedSizesMergePartitions() {
        assertThat(SizePartitions.equiDepthUpperBounds(new long[] {7, 7, 7, 7}, 3))
                .containsExactly(7);
        assertThat(SizePartitions.equiDepthUpperBounds(new long[] {1, 2, 3, 4, 5, 6}, 3))
                .containsExactly(2, 4, 6);
        assertThat(SizePartitions.equiDepthUpperBounds(new long[] {5, 1, 1, 1, 1, 9}, 2))
                .containsExactly(1, 9);
        assertThat(SizePartitions.equiDepthUpperBounds(new long[] {3}, 5)).containsExactly(3);
    }

    @Test
    void thresholdIsTheConversionAtTheUpperBound() {
        // t = 0.8, q = 300: 240 shared shingles; X of 20,000 gives 240 / 20,060.
        assertThat(SizePartitions.resemblanceThreshold(0.8, 300, 20_000))
                .isCloseTo(240.0 / 20_060, within(1e-15));
        assertThat(SizePartitions.resemblanceThreshold(1.0, 300, 300)).isEqualTo(1.0);
        assertThat(SizePartitions.resemblanceThreshold(0.8, 300, 239)).isInfinite();
        assertThat(SizePartitions.resemblanceThreshold(0.8, 300, 240)).isEqualTo(240.0 / 300);
        assertThat(SizePartitions.resemblanceThreshold(0.5, 100, 40)).isInfinite();
        assertThat(SizePartitions.resemblanceThreshold(0.5, 100, 1000)).isEqualTo(50.0 / 1050);
    }

    @Test
    void noPairAtTheContainmentThresholdFallsBelowItsPartitionsThreshold() {
        // Any Q, X with c(Q, X) >= t and |X| <= u has r(Q, X) >= s(u): nothing is lost.
        SplittableRandom random = new SplittableRandom(17);
        int tight = 0;
        for (int trial = 0; trial < 100_000; trial++) {
            double t = 0.05 + 0.95 * random.nextDouble();
            int q = 1 + random.nextInt(2000);
            int shared =
                    (int) Math.ceil(t * q - 1e-9)
                            + random.nextInt(q - (int) Math.ceil(t * q - 1e-9) + 1);
            shared = Math.min(shared, q);
            long x = shared + random.nextInt(50_000);
            long u = x + random.nextInt(3) * random.nextInt(50_000);
            double r = (double) shared / (q + x - shared);
            double s = SizePartitions.resemblanceThreshold(t, q, u);
            assertThat(r)
                    .as("t=%.3f q=%d |Q&X|=%d x=%d u=%d", t, q, shared, x, u)
                    .isGreaterThanOrEqualTo(s - 1e-12);
            if (u == x && shared == Math.ceil(t * q - 1e-9) && Math.abs(r - s) < 0.01) {
                tight++;
            }
        }
        assertThat(tight).as("cases where the bound is nearly reached").isPositive();
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> SizePartitions.equiDepthUpperBounds(new long[] {1}, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("number of size partitions must be at least 1, got 0");
        assertThatThrownBy(() -> SizePartitions.equiDepthUpperBounds(new long[0], 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> SizePartitions.equiDepthUpperBounds(new long[] {4, -1}, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(">= 0, got -1");
        assertThatThrownBy(() -> SizePartitions.resemblanceThreshold(0, 10, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("containment threshold must be in (0, 1]");
        assertThatThrownBy(() -> SizePartitions.resemblanceThreshold(0.5, 0, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("query size");
        assertThatThrownBy(() -> SizePartitions.partitionOf(new long[] {5, 5}, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("strictly ascending, got 5 before 5");
    }
}
