package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The {@link MinHash} contract, for every implementation. */
class MinHashContractTest {

    @Property(tries = 200)
    void signatureDependsOnlyOnTheSet(@ForAll @Size(max = 300) long[] hashes, @ForAll long seed) {
        for (MinHashAlgorithm algorithm : MinHashAlgorithm.values()) {
            MinHash minHash = MinHash.create(algorithm, 64, 17);
            long[] shuffledWithRepeats = Arrays.copyOf(hashes, hashes.length * 2);
            System.arraycopy(hashes, 0, shuffledWithRepeats, hashes.length, hashes.length);
            shuffle(shuffledWithRepeats, new SplittableRandom(seed));
            assertThat(minHash.signature(shuffledWithRepeats))
                    .as(algorithm.name())
                    .containsExactly(minHash.signature(hashes));
        }
    }

    @ParameterizedTest
    @EnumSource(MinHashAlgorithm.class)
    void emptySetHasTheEmptySignatureAndMatchesNothingElse(MinHashAlgorithm algorithm) {
        MinHash minHash = MinHash.create(algorithm, 128, MinHash.DEFAULT_SEED);
        long[] empty = minHash.signature(new long[0]);
        assertThat(empty).hasSize(128).containsOnly(MinHash.EMPTY);
        long[] single = minHash.signature(new long[] {42});
        assertThat(single).doesNotContain(MinHash.EMPTY);
        assertThat(Similarity.estimateJaccard(empty, single)).isZero();
        assertThat(Similarity.estimateJaccard(empty, empty)).isEqualTo(1.0);
    }

    @ParameterizedTest
    @EnumSource(MinHashAlgorithm.class)
    void everyPositionIsFilledWithAValueOfTheSet(MinHashAlgorithm algorithm) {
        MinHash minHash = MinHash.create(algorithm, 128, 5);
        long[] three = {11, 22, 33};
        long[] signature = minHash.signature(three);
        // Every value is the hash of one of the three elements: re-sketching any one element
        // alone must reproduce at least one position's value, and all positions are covered.
        long[][] singles = new long[3][];
        for (int i = 0; i < 3; i++) {
            singles[i] = minHash.signature(new long[] {three[i]});
        }
        for (int pos = 0; pos < 128; pos++) {
            final int p = pos;
            assertThat(Arrays.stream(singles).anyMatch(s -> s[p] == signature[p]))
                    .as("position %d comes from one of the elements", pos)
                    .isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(MinHashAlgorithm.class)
    void seedAndLengthMatter(MinHashAlgorithm algorithm) {
        long[] set = new SplittableRandom(3).longs(500).toArray();
        long[] a = MinHash.create(algorithm, 128, 1).signature(set);
        long[] b = MinHash.create(algorithm, 128, 2).signature(set);
        assertThat(Similarity.estimateJaccard(a, b)).isLessThan(0.1);
        assertThat(MinHash.create(algorithm, 256, 1).signature(set)).hasSize(256);
        assertThat(MinHash.create(algorithm, 128, 1).signature(set)).containsExactly(a);
        assertThat(MinHash.create(algorithm, 128, 1).algorithm()).isEqualTo(algorithm);
    }

    @ParameterizedTest
    @EnumSource(MinHashAlgorithm.class)
    void rejectsBadNumberOfHashes(MinHashAlgorithm algorithm) {
        assertThatThrownBy(() -> MinHash.create(algorithm, 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 4096");
    }

    private static void shuffle(long[] values, SplittableRandom random) {
        for (int i = values.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = values[i];
            values[i] = values[j];
            values[j] = t;
        }
    }
}
