package dev.neardup.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neardup.eval.ExactCosineJoin.Pair;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The All-Pairs cosine join (Bayardo et al. 2007) against the brute-force list of pairs with {@link
 * TermVector#cosine} &ge; the floor, on small random vectors.
 */
class ExactCosineJoinTest {

    /** All pairs i &lt; j with TermVector.cosine &ge; floor, in (i, j) order. */
    static List<Pair> bruteForce(List<TermVector> vectors, double floor) {
        List<Pair> pairs = new ArrayList<>();
        for (int i = 0; i < vectors.size(); i++) {
            for (int j = i + 1; j < vectors.size(); j++) {
                double c = TermVector.cosine(vectors.get(i), vectors.get(j));
                if (c >= floor) {
                    pairs.add(new Pair(i, j, c));
                }
            }
        }
        return pairs;
    }

    /**
     * {@code count} random vectors over {@code universe} features with Zipf-like term counts (a few
     * frequent features in most vectors, as words in prose), a third of them copies of an earlier
     * vector with a few counts changed, so that pairs near every floor exist.
     */
    static List<TermVector> randomVectors(long seed, int count, int universe, int length) {
        SplittableRandom random = new SplittableRandom(seed);
        List<long[]> texts = new ArrayList<>();
        for (int d = 0; d < count; d++) {
            long[] words;
            if (d > 0 && random.nextInt(3) == 0) {
                words = texts.get(random.nextInt(texts.size())).clone();
                int edits = random.nextInt(1 + words.length / 4);
                for (int e = 0; e < edits && words.length > 0; e++) {
                    words[random.nextInt(words.length)] = zipf(random, universe);
                }
            } else {
                words = new long[random.nextInt(length + 1)];
                for (int i = 0; i < words.length; i++) {
                    words[i] = zipf(random, universe);
                }
            }
            texts.add(words);
        }
        List<TermVector> vectors = new ArrayList<>();
        for (long[] t : texts) {
            vectors.add(TermVector.termFrequencies(t));
        }
        return vectors;
    }

    private static long zipf(SplittableRandom random, int universe) {
        // Feature ids spread over the long range, so the join cannot rely on small values.
        long index = (long) Math.pow(universe, random.nextDouble());
        return index * 0x9E3779B97F4A7C15L;
    }

    @Property(tries = 300, seed = "14")
    void equalsBruteForceOnSmallRandomVectors(
            @ForAll("seeds") long seed, @ForAll("floors") double floor) {
        List<TermVector> vectors = randomVectors(seed, 2 + (int) (seed & 31), 60, 40);
        assertThat(ExactCosineJoin.allPairs(vectors, floor)).isEqualTo(bruteForce(vectors, floor));
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    @Provide
    Arbitrary<Double> floors() {
        return Arbitraries.oneOf(
                Arbitraries.of(0.1, 0.5, 0.8, 0.9, 0.95, 0.9892, 0.999, 1.0),
                Arbitraries.doubles().between(0.01, 1.0));
    }

    @Test
    void weightedVectorsAndDuplicates() {
        // Real-valued weights (tf-idf like), exact duplicates and a scaled copy (cosine 1).
        SplittableRandom random = new SplittableRandom(7);
        List<TermVector> vectors = new ArrayList<>();
        for (int d = 0; d < 120; d++) {
            int size = 1 + random.nextInt(30);
            long[] f = new long[size];
            double[] w = new double[size];
            for (int i = 0; i < size; i++) {
                f[i] = random.nextInt(80);
                w[i] = random.nextDouble() * 3;
            }
            vectors.add(TermVector.of(f, w));
            if (d % 10 == 0) {
                double[] scaled = w.clone();
                for (int i = 0; i < scaled.length; i++) {
                    scaled[i] *= 2.5;
                }
                vectors.add(TermVector.of(f, scaled));
            }
        }
        for (double floor : new double[] {0.3, 0.6, 0.9, 0.999}) {
            ExactCosineJoin.Result r = ExactCosineJoin.join(vectors, floor);
            assertThat(r.pairs()).isEqualTo(bruteForce(vectors, floor));
            assertThat(r.pairs()).isNotEmpty();
        }
        // The index leaves frequent features out: fewer candidates than pairs of vectors.
        ExactCosineJoin.Result high = ExactCosineJoin.join(vectors, 0.9);
        assertThat(high.candidates()).isLessThan(vectors.size() * (vectors.size() - 1L) / 2);
    }

    @Test
    void termFrequenciesAndCosine() {
        TermVector a = TermVector.termFrequencies(new long[] {5, 3, 5, 9, 5});
        assertThat(a.size()).isEqualTo(3);
        assertThat(a.feature(0)).isEqualTo(3);
        assertThat(a.weight(2)).isEqualTo(1.0);
        assertThat(a.weight(1)).isEqualTo(3.0);
        assertThat(a.norm()).isCloseTo(Math.sqrt(11), within(1e-12));
        TermVector b = TermVector.of(new long[] {9, 5, 7, 9}, new double[] {1, 3, 2, 0});
        // a = (3: 1, 5: 3, 9: 1), b = (5: 3, 7: 2, 9: 1): dot 10, norms sqrt(11) and sqrt(14).
        assertThat(TermVector.cosine(a, b)).isCloseTo(10 / Math.sqrt(11 * 14), within(1e-12));
        assertThat(TermVector.cosine(a, a)).isEqualTo(1.0);
        assertThat(TermVector.cosine(a, TermVector.termFrequencies(new long[0]))).isZero();
        // Order does not matter.
        assertThat(TermVector.cosine(a, TermVector.termFrequencies(new long[] {9, 5, 5, 3, 5})))
                .isEqualTo(1.0);
    }

    @Test
    void rejectsBadInput() {
        assertThatThrownBy(() -> ExactCosineJoin.allPairs(List.of(), 0))
                .hasMessageContaining("cosine floor must be in (0, 1]");
        assertThatThrownBy(() -> TermVector.of(new long[] {1}, new double[] {-1}))
                .hasMessageContaining("must be a finite number >= 0");
    }
}
