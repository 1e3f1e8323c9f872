package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashSet;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Exact resemblance and containment (seed 003) and the signature estimator (seed 001). */
class SimilarityTest {

    @Test
    void exactJaccardAndContainmentFromTheDefinitions() {
        // Seed 001's worked example: S1 = {ab, de, ed, ca}... here as numbers.
        ShingleSet a = ShingleSet.of(new long[] {1, 2, 3, 4});
        ShingleSet b = ShingleSet.of(new long[] {3, 4, 5, 6, 7, 8});
        assertThat(Similarity.jaccard(a, b)).isEqualTo(2.0 / 8);
        assertThat(Similarity.containment(a, b)).isEqualTo(2.0 / 4);
        assertThat(Similarity.containment(b, a)).isEqualTo(2.0 / 6);
        assertThat(Similarity.jaccard(a, a)).isEqualTo(1.0);
        assertThat(Similarity.jaccard(a, ShingleSet.of(new long[] {9}))).isZero();
    }

    @Test
    void pageIncludedInALargerOneIsFullyContained() {
        ShingleSet small = ShingleSet.of(new long[] {1, 2, 3});
        ShingleSet large = ShingleSet.of(new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
        assertThat(Similarity.containment(small, large)).isEqualTo(1.0);
        assertThat(Similarity.jaccard(small, large)).isEqualTo(0.25);
    }

    @Test
    void emptySetConventions() {
        ShingleSet empty = ShingleSet.of(new long[0]);
        ShingleSet some = ShingleSet.of(new long[] {1});
        assertThat(Similarity.jaccard(empty, empty)).isEqualTo(1.0);
        assertThat(Similarity.jaccard(empty, some)).isZero();
        assertThat(Similarity.containment(empty, some)).isEqualTo(1.0);
        assertThat(Similarity.containment(some, empty)).isZero();
    }

    @Test
    void estimatorCountsAgreeingPositions() {
        long[] a = {1, 2, 3, 4};
        long[] b = {1, 9, 3, 9};
        assertThat(Similarity.agreements(a, b)).isEqualTo(2);
        assertThat(Similarity.estimateJaccard(a, b)).isEqualTo(0.5);
        assertThatThrownBy(() -> Similarity.estimateJaccard(a, new long[3]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("different lengths");
    }

    @Test
    void standardErrorIsTheBinomialOne() {
        assertThat(Similarity.standardError(0.5, 100)).isCloseTo(0.05, within(1e-12));
        assertThat(Similarity.standardError(1.0, 128)).isZero();
    }

    @Property(tries = 300)
    void setOperationsAgreeWithJavaCollections(
            @ForAll @Size(max = 60) Set<@LongRange(min = 0, max = 80) Long> left,
            @ForAll @Size(max = 60) Set<@LongRange(min = 0, max = 80) Long> right) {
        ShingleSet a = ShingleSet.of(left.stream().mapToLong(Long::longValue).toArray());
        ShingleSet b = ShingleSet.of(right.stream().mapToLong(Long::longValue).toArray());
        Set<Long> common = new HashSet<>(left);
        common.retainAll(right);
        Set<Long> union = new HashSet<>(left);
        union.addAll(right);
        assertThat(a.size()).isEqualTo(left.size());
        assertThat(a.intersectionSize(b)).isEqualTo(common.size());
        if (!union.isEmpty()) {
            assertThat(Similarity.jaccard(a, b)).isEqualTo((double) common.size() / union.size());
        }
        assertThat(Similarity.jaccard(a, b)).isEqualTo(Similarity.jaccard(b, a));
        for (long v : left) {
            assertThat(a.contains(v)).isTrue();
        }
        assertThat(a.toArray()).isSorted().doesNotHaveDuplicates();
    }

    @Test
    void jaccardOfDistinctValuesInAnyOrderEqualsTheSortedMerge() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(29);
        for (int round = 0; round < 200; round++) {
            int n = random.nextInt(0, 600);
            java.util.Set<Long> left = new java.util.LinkedHashSet<>();
            java.util.Set<Long> right = new java.util.LinkedHashSet<>();
            for (int i = 0; i < n; i++) {
                long v = random.nextInt(4) == 0 ? random.nextLong(-3, 3) : random.nextLong();
                if (random.nextBoolean()) {
                    left.add(v);
                }
                if (random.nextInt(3) > 0) {
                    right.add(random.nextBoolean() ? v : random.nextLong());
                }
            }
            long[] a = left.stream().mapToLong(Long::longValue).toArray();
            long[] b = right.stream().mapToLong(Long::longValue).toArray();
            long[] sortedA = a.clone();
            long[] sortedB = b.clone();
            java.util.Arrays.sort(sortedA);
            java.util.Arrays.sort(sortedB);
            java.util.Set<Long> common = new java.util.HashSet<>(left);
            common.retainAll(right);
            assertThat(ShingleSet.intersectionSizeOfDistinct(a, b)).isEqualTo(common.size());
            assertThat(ShingleSet.intersectionSizeOfDistinct(b, a)).isEqualTo(common.size());
            assertThat(Similarity.jaccardOfDistinct(a, b))
                    .isEqualTo(Similarity.jaccardOfSorted(sortedA, sortedB));
        }
        assertThat(Similarity.jaccardOfDistinct(new long[0], new long[0])).isEqualTo(1.0);
        assertThat(Similarity.jaccardOfDistinct(new long[] {0}, new long[0])).isEqualTo(0.0);
        assertThat(Similarity.jaccardOfDistinct(new long[] {0, 5}, new long[] {5, 0}))
                .isEqualTo(1.0);
    }
}
