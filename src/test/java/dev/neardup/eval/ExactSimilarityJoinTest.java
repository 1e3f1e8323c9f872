package dev.neardup.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.eval.ExactSimilarityJoin.Pair;
import dev.neardup.eval.ExactSimilarityJoin.Result;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The PPJoin all-pairs join (Bayardo et al. 2007, Xiao et al. 2008) against the brute-force list of
 * pairs with {@link Similarity#jaccard} &ge; the floor.
 */
class ExactSimilarityJoinTest {

    /** All pairs i &lt; j with Similarity.jaccard &ge; floor, in (i, j) order. */
    static List<Pair> bruteForce(List<ShingleSet> sets, double floor) {
        List<Pair> pairs = new ArrayList<>();
        for (int i = 0; i < sets.size(); i++) {
            for (int j = i + 1; j < sets.size(); j++) {
                double jaccard = Similarity.jaccard(sets.get(i), sets.get(j));
                if (jaccard >= floor) {
                    pairs.add(new Pair(i, j, jaccard));
                }
            }
        }
        return pairs;
    }

    @Property(tries = 200)
    void equalsBruteForceOnSmallCorpora(
            @ForAll("corpora") List<ShingleSet> sets, @ForAll("floors") double floor) {
        List<Pair> expected = bruteForce(sets, floor);
        assertThat(ExactSimilarityJoin.allPairs(sets, floor)).isEqualTo(expected);
        // The same with the frequency count split into many hash ranges.
        assertThat(ExactSimilarityJoin.join(sets, floor, 5).pairs()).isEqualTo(expected);
    }

    @Provide
    Arbitrary<Double> floors() {
        return Arbitraries.oneOf(
                Arbitraries.of(0.1, 0.3, 0.5, 2.0 / 3, 0.75, 0.8, 0.9, 1.0),
                Arbitraries.doubles().between(0.01, 1.0));
    }

    /**
     * 2 to 40 sets over a small universe (so overlaps are common), sizes from 0 up, with exact
     * duplicates and one-element edits of earlier sets mixed in.
     */
    @Provide
    Arbitrary<List<ShingleSet>> corpora() {
        return Arbitraries.integers()
                .between(1, 40)
                .flatMap(
                        universe ->
                                Arbitraries.longs()
                                        .between(0, universe - 1)
                                        .list()
                                        .ofMaxSize(25)
                                        .map(l -> l.stream().mapToLong(Long::longValue).toArray())
                                        .list()
                                        .ofMinSize(1)
                                        .ofMaxSize(30)
                                        .flatMap(
                                                base ->
                                                        Arbitraries.integers()
                                                                .between(0, Integer.MAX_VALUE)
                                                                .list()
                                                                .ofMaxSize(10)
                                                                .map(
                                                                        picks ->
                                                                                withCopies(
                                                                                        base, picks,
                                                                                        universe))))
                .filter(sets -> sets.size() >= 2);
    }

    /** base, then for each pick a copy of a base set: exact, or with one element added/removed. */
    private static List<ShingleSet> withCopies(
            List<long[]> base, List<Integer> picks, int universe) {
        List<ShingleSet> sets = new ArrayList<>();
        for (long[] b : base) {
            sets.add(ShingleSet.of(b));
        }
        for (int pick : picks) {
            long[] source = sets.get(pick % sets.size()).toArray();
            long[] copy =
                    switch ((pick >>> 8) % 3) {
                        case 0 -> source;
                        case 1 ->
                                LongStream.concat(
                                                Arrays.stream(source),
                                                LongStream.of(pick % (universe + 3)))
                                        .toArray();
                        default ->
                                source.length == 0
                                        ? source
                                        : Arrays.copyOf(source, source.length - 1);
                    };
            sets.add(
                    (pick >>> 12) % 2 == 0 ? sets.size() : pick % sets.size(), ShingleSet.of(copy));
        }
        return sets;
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, -0.5, 1.0000001, 2, Double.NaN, Double.POSITIVE_INFINITY})
    void floorsOutsideTheUnitIntervalAreRejected(double floor) {
        List<ShingleSet> sets = List.of(set(1, 2), set(1, 2));
        assertThatThrownBy(() -> ExactSimilarityJoin.allPairs(sets, floor))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("floor must be in (0, 1]")
                .hasMessageContaining(String.valueOf(floor));
    }

    @Test
    void emptySetsPairWithEachOtherOnly() {
        List<ShingleSet> sets = List.of(set(), set(1), set(), set(1), set());
        assertThat(ExactSimilarityJoin.allPairs(sets, 1.0))
                .containsExactly(
                        new Pair(0, 2, 1.0),
                        new Pair(0, 4, 1.0),
                        new Pair(1, 3, 1.0),
                        new Pair(2, 4, 1.0));
        assertThat(ExactSimilarityJoin.allPairs(List.of(set(), set(7)), 0.01)).isEmpty();
        assertThat(ExactSimilarityJoin.allPairs(List.of(), 0.5)).isEmpty();
        assertThat(ExactSimilarityJoin.allPairs(List.of(set(3)), 0.5)).isEmpty();
    }

    @Test
    void duplicatesAreFoundAtEveryFloor() {
        List<ShingleSet> sets = List.of(set(5, 6, 7), set(1), set(7, 6, 5), set(1), set(9, 8));
        for (double floor : new double[] {1e-9, 0.5, 1.0}) {
            assertThat(ExactSimilarityJoin.allPairs(sets, floor))
                    .containsExactly(new Pair(0, 2, 1.0), new Pair(1, 3, 1.0));
        }
    }

    @Test
    void boundaryPairsAtExactlyTheFloorAreIncluded() {
        // J = 3/4, 4/5, 3/5 and 4/7 exactly: the filters must not lose them to rounding.
        List<ShingleSet> sets =
                List.of(set(1, 2, 3, 4), set(1, 2, 3), set(1, 2, 3, 4, 5), set(2, 3, 4, 5, 6, 7));
        assertThat(ExactSimilarityJoin.allPairs(sets, 0.8)).containsExactly(new Pair(0, 2, 0.8));
        assertThat(ExactSimilarityJoin.allPairs(sets, 0.75))
                .containsExactly(new Pair(0, 1, 0.75), new Pair(0, 2, 0.8));
        assertThat(ExactSimilarityJoin.allPairs(sets, 0.6))
                .containsExactly(new Pair(0, 1, 0.75), new Pair(0, 2, 0.8), new Pair(1, 2, 0.6));
        assertThat(ExactSimilarityJoin.allPairs(sets, 4.0 / 7))
                .containsExactly(
                        new Pair(0, 1, 0.75),
                        new Pair(0, 2, 0.8),
                        new Pair(1, 2, 0.6),
                        new Pair(2, 3, 4.0 / 7));
    }

    @Test
    void oneDifferenceInAThousandIsFoundJustBelowItsSimilarity() {
        long[] base = LongStream.range(0, 1000).map(i -> i * 0x9E3779B97F4A7C15L).toArray();
        long[] replaced = base.clone();
        replaced[500] = 42; // |∩| = 999, |∪| = 1001: J = 0.998002
        long[] removed = Arrays.copyOf(base, 999); // |∩| = 999, |∪| = 1000: J = 0.999
        for (long[] other : List.of(replaced, removed)) {
            List<ShingleSet> sets =
                    List.of(set(1, 2, 3), ShingleSet.of(base), set(4), ShingleSet.of(other));
            double jaccard = Similarity.jaccard(sets.get(1), sets.get(3));
            assertThat(ExactSimilarityJoin.allPairs(sets, 0.998))
                    .containsExactly(new Pair(1, 3, jaccard));
            assertThat(ExactSimilarityJoin.allPairs(sets, 0.9995)).isEmpty();
            assertThat(ExactSimilarityJoin.allPairs(sets, jaccard))
                    .containsExactly(new Pair(1, 3, jaccard));
            assertThat(ExactSimilarityJoin.allPairs(sets, Math.nextUp(jaccard))).isEmpty();
        }
    }

    private static final List<ShingleSet> TWO_THOUSAND = clusteredCorpus(2000, 7);

    /** Brute force over TWO_THOUSAND at the smallest floor tested, computed once. */
    private static final List<Pair> TWO_THOUSAND_PAIRS = bruteForce(TWO_THOUSAND, 0.1);

    @ParameterizedTest
    @ValueSource(doubles = {0.1, 0.2, 0.5, 0.8, 0.95, 1.0})
    void twoThousandSetsAgreeWithBruteForce(double floor) {
        List<ShingleSet> sets = TWO_THOUSAND;
        List<Pair> expected =
                TWO_THOUSAND_PAIRS.stream().filter(p -> p.jaccard() >= floor).toList();
        assertThat(expected).isNotEmpty();
        Result result = ExactSimilarityJoin.join(sets, floor);
        assertThat(result.pairs()).isEqualTo(expected);
        assertThat(ExactSimilarityJoin.join(sets, floor, 10_000).pairs()).isEqualTo(expected);
        assertThat(result.candidates()).isGreaterThanOrEqualTo(expected.size() - emptyPairs(sets));
        if (floor >= 0.5) {
            // The filters leave a small fraction of the 2 million pairs to verify.
            assertThat(result.candidates()).isLessThan(20L * Math.max(1, expected.size()));
        }
    }

    @Test
    void resultIsIndependentOfParallelSchedulingAndInputOrder() {
        List<ShingleSet> sets = clusteredCorpus(1500, 11);
        List<Pair> once = ExactSimilarityJoin.allPairs(sets, 0.6);
        assertThat(ExactSimilarityJoin.allPairs(sets, 0.6)).isEqualTo(once);
        List<ShingleSet> reversed = new ArrayList<>(sets);
        java.util.Collections.reverse(reversed);
        int last = sets.size() - 1;
        List<Pair> mapped = new ArrayList<>();
        for (Pair p : ExactSimilarityJoin.allPairs(reversed, 0.6)) {
            mapped.add(new Pair(last - p.second(), last - p.first(), p.jaccard()));
        }
        mapped.sort(java.util.Comparator.comparingInt(Pair::first).thenComparingInt(Pair::second));
        assertThat(mapped).isEqualTo(once);
    }

    @Test
    void groupsLargerThanTheCountingWorkChunksStayWhole() {
        // 120 clusters of 30 identical sets of 100 values: 360,000 occurrences in groups of 30,
        // so the parallel counting's chunk boundaries fall inside groups unless moved.
        List<ShingleSet> sets = new ArrayList<>();
        Random random = new Random(3);
        for (int c = 0; c < 120; c++) {
            long[] values = randomSet(random, 100);
            for (int k = 0; k < 30; k++) {
                sets.add(ShingleSet.of(values));
            }
            sets.add(ShingleSet.of(randomSet(random, 100))); // and a mostly-private set
        }
        List<Pair> expected = new ArrayList<>();
        for (int i = 0; i < sets.size(); i++) {
            for (int j = i + 1; j < sets.size() && j / 31 == i / 31; j++) {
                if (i % 31 < 30 && j % 31 < 30) {
                    expected.add(new Pair(i, j, 1.0));
                }
            }
        }
        assertThat(ExactSimilarityJoin.allPairs(sets, 1.0)).isEqualTo(expected);
        assertThat(ExactSimilarityJoin.join(sets, 1.0, 50_000).pairs()).isEqualTo(expected);
    }

    @Property(tries = 100)
    void radixSortSortsUnsignedAndCarriesTheSetAlong(
            @ForAll @net.jqwik.api.constraints.Size(max = 3000)
                    List<@net.jqwik.api.constraints.IntRange(min = 0, max = 63) Integer> codes) {
        // Keys built from few byte patterns (top, middle and low bytes), so that many keys share
        // long prefixes and the sort has to descend through every byte.
        long[] patterns = {0, 1, 0xFF, 0x80L << 56, -1L, 1L << 32, 0x7FL << 56, 0xFFL << 24};
        long[] key = new long[codes.size()];
        int[] set = new int[codes.size()];
        for (int i = 0; i < key.length; i++) {
            int code = codes.get(i);
            key[i] = patterns[code & 7] ^ Long.rotateLeft(patterns[code >>> 3], 8);
            set[i] = i;
        }
        long[] original = key.clone();
        ExactSimilarityJoin.radixSort(key, set, 0, key.length, 56);
        for (int i = 0; i < key.length; i++) {
            assertThat(key[i]).isEqualTo(original[set[i]]);
            if (i > 0) {
                assertThat(Long.compareUnsigned(key[i - 1], key[i])).isLessThanOrEqualTo(0);
            }
        }
        assertThat(Arrays.stream(set).sorted().toArray())
                .isEqualTo(java.util.stream.IntStream.range(0, key.length).toArray());
    }

    /**
     * Clusters of edited copies of random base sets over a universe of 20,000 values, with a few
     * very frequent values (boilerplate), some empty and one-element sets and exact duplicates.
     */
    static List<ShingleSet> clusteredCorpus(int n, long seed) {
        Random random = new Random(seed);
        List<ShingleSet> sets = new ArrayList<>();
        while (sets.size() < n) {
            int kind = random.nextInt(20);
            if (kind == 0) {
                sets.add(set());
                continue;
            }
            if (kind == 1) {
                sets.add(set(random.nextInt(5)));
                continue;
            }
            long[] base = randomSet(random, 5 + random.nextInt(150));
            int copies = random.nextInt(6);
            sets.add(ShingleSet.of(base));
            for (int c = 0; c < copies && sets.size() < n; c++) {
                long[] copy = base.clone();
                int edits = random.nextInt(1 + copy.length / 4);
                for (int e = 0; e < edits; e++) {
                    copy[random.nextInt(copy.length)] = 1000 + random.nextInt(20_000);
                }
                if (random.nextBoolean()) {
                    copy = Arrays.copyOf(copy, copy.length - random.nextInt(copy.length / 3 + 1));
                }
                sets.add(ShingleSet.of(copy));
            }
        }
        java.util.Collections.shuffle(sets, random);
        return sets;
    }

    private static long[] randomSet(Random random, int size) {
        long[] values = new long[size];
        for (int i = 0; i < size; i++) {
            // One value in ten from a small pool that most sets share.
            values[i] = random.nextInt(10) == 0 ? random.nextInt(8) : 1000 + random.nextInt(20_000);
        }
        return values;
    }

    private static long emptyPairs(List<ShingleSet> sets) {
        long empty = sets.stream().filter(ShingleSet::isEmpty).count();
        return empty * (empty - 1) / 2;
    }

    private static ShingleSet set(long... values) {
        return ShingleSet.of(values);
    }
}
