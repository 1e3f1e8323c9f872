package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.sketch.SimHash;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Seed 002's sliding window: permutations, the sorted order, partitions and the window scan. */
class SortedWindowTest {

    @Test
    void permutationsKeepHammingDistancesAndAreDeterministic() {
        SortedWindow w = new SortedWindow(128, 5, 4, 6, SortedWindow.DEFAULT_SEED);
        SortedWindow again = new SortedWindow(128, 5, 4, 6, SortedWindow.DEFAULT_SEED);
        SplittableRandom random = new SplittableRandom(14);
        for (int t = 0; t < 200; t++) {
            long[] a = {random.nextLong(), random.nextLong()};
            long[] b = {a[0] ^ (1L << random.nextInt(64)), a[1] ^ random.nextLong()};
            for (int m = 0; m < 5; m++) {
                long[] pa = w.permute(a, m);
                assertThat(SimHash.hamming(pa, w.permute(b, m))).isEqualTo(SimHash.hamming(a, b));
                assertThat(Long.bitCount(pa[0]) + Long.bitCount(pa[1]))
                        .isEqualTo(Long.bitCount(a[0]) + Long.bitCount(a[1]));
                assertThat(again.permute(a, m)).isEqualTo(pa);
            }
        }
        // Different permutations differ.
        long[] one = {1L, 0L};
        assertThat(w.permute(one, 0)).isNotEqualTo(w.permute(one, 1));
    }

    @Test
    void compareIsTheOrderOfTheBitStringsAndPartitionsAreItsPrefixes() {
        long[] small = {0x0FFFFFFFFFFFFFFFL};
        long[] large = {0x8000000000000000L};
        assertThat(SortedWindow.compare(small, large)).isNegative();
        assertThat(SortedWindow.compare(large, small)).isPositive();
        assertThat(SortedWindow.compare(large, large.clone())).isZero();
        assertThat(SortedWindow.partition(large, 4)).isEqualTo(8);
        assertThat(SortedWindow.partition(small, 4)).isZero();
        assertThat(SortedWindow.partition(large, 0)).isZero();
        // Sorted strings have non-decreasing partitions: the ranges are contiguous.
        SplittableRandom random = new SplittableRandom(3);
        List<long[]> strings = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            strings.add(new long[] {random.nextLong()});
        }
        strings.sort(SortedWindow::compare);
        for (int i = 1; i < strings.size(); i++) {
            assertThat(SortedWindow.partition(strings.get(i), 5))
                    .isGreaterThanOrEqualTo(SortedWindow.partition(strings.get(i - 1), 5));
        }
    }

    @Test
    void scanComparesEachWithTheNextWOnly() {
        // Six equal fingerprints: with W = 2, the pairs (i, i + 1) and (i, i + 2) only.
        List<long[]> sorted = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            sorted.add(new long[] {42L});
        }
        List<String> pairs = new ArrayList<>();
        long compared =
                new SortedWindow(64, 1, 2, 3, 1).scan(sorted, (i, j, h) -> pairs.add(i + "-" + j));
        assertThat(compared).isEqualTo(5 + 4);
        assertThat(pairs)
                .containsExactly("0-1", "0-2", "1-2", "1-3", "2-3", "2-4", "3-4", "3-5", "4-5");
        // Beyond k: not reported.
        List<long[]> far = List.of(new long[] {0L}, new long[] {0xFL});
        List<String> none = new ArrayList<>();
        new SortedWindow(64, 1, 8, 3, 1).scan(far, (i, j, h) -> none.add(i + "-" + j));
        assertThat(none).isEmpty();
        assertThatThrownBy(() -> new SortedWindow(64, 0, 8, 3, 1))
                .hasMessageContaining("permutations and window must be at least 1");
    }
}
