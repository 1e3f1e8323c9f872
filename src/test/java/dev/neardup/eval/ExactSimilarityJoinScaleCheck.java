package dev.neardup.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.eval.ExactSimilarityJoin.Pair;
import dev.neardup.eval.ExactSimilarityJoin.Result;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cost of the PPJoin all-pairs join (Xiao et al. 2008) at the size of a crawl sample: 20,000
 * documents of 4,000 to 6,000 shingles, with planted clusters of near-duplicates. Too slow and
 * large for every build, so its name keeps it out of the default test run (surefire runs {@code
 * *Test}); run it with {@code mvn test -Dtest=ExactSimilarityJoinScaleCheck} (about 1 GB of heap
 * per corpus). Prints the time per floor and checks the result against the planted clusters: every
 * within-cluster pair at or above the floor is found, and every reported similarity is exact.
 */
class ExactSimilarityJoinScaleCheck {

    private static final int DOCUMENTS = 20_000;

    /**
     * @param corpus "random": random hashes, 40% of the documents in clusters of 2 to 10 edited
     *     copies; "boilerplate": the same, but 1,000 of each document's ~5,000 hashes are shared by
     *     all documents; "zipf": 10% of each document's hashes drawn from 200,000 common ones with
     *     Zipf(1) frequencies (phrases that recur across pages)
     */
    @ParameterizedTest
    @ValueSource(strings = {"random", "boilerplate", "zipf"})
    void twentyThousandDocuments(String corpus) {
        long start = System.nanoTime();
        Corpus c = generate(corpus, new SplittableRandom(2026));
        long hashes = c.sets.stream().mapToLong(ShingleSet::size).sum();
        System.out.printf(
                "%s: %d sets, %d hashes, generated in %.1f s, %d cores%n",
                corpus,
                c.sets.size(),
                hashes,
                (System.nanoTime() - start) / 1e9,
                Runtime.getRuntime().availableProcessors());
        for (double floor : new double[] {0.9, 0.8, 0.5, 0.3}) {
            long t0 = System.nanoTime();
            Result result = ExactSimilarityJoin.join(c.sets, floor);
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf(
                    "  floor %.1f: %.1f s, %d pairs, %d candidates verified, %d shared"
                            + " shingles, %d index entries%n",
                    floor,
                    seconds,
                    result.pairs().size(),
                    result.candidates(),
                    result.sharedShingles(),
                    result.indexEntries());
            check(c, result.pairs(), floor);
        }
    }

    private static void check(Corpus c, List<Pair> pairs, double floor) {
        Set<Long> found = new HashSet<>();
        for (Pair p : pairs) {
            assertThat(p.first()).isLessThan(p.second());
            assertThat(p.jaccard())
                    .isEqualTo(Similarity.jaccard(c.sets.get(p.first()), c.sets.get(p.second())))
                    .isGreaterThanOrEqualTo(floor);
            found.add(((long) p.first() << 32) | p.second());
        }
        for (int[] cluster : c.clusters) {
            for (int a = 0; a < cluster.length; a++) {
                for (int b = a + 1; b < cluster.length; b++) {
                    int i = Math.min(cluster[a], cluster[b]);
                    int j = Math.max(cluster[a], cluster[b]);
                    if (Similarity.jaccard(c.sets.get(i), c.sets.get(j)) >= floor) {
                        assertThat(found.contains(((long) i << 32) | j))
                                .as("planted pair (%d, %d) found", i, j)
                                .isTrue();
                    }
                }
            }
        }
    }

    private record Corpus(List<ShingleSet> sets, List<int[]> clusters) {}

    static Corpus generate(String kind, SplittableRandom random) {
        long[] boilerplate = new long[kind.equals("boilerplate") ? 1000 : 0];
        for (int i = 0; i < boilerplate.length; i++) {
            boilerplate[i] = random.nextLong();
        }
        long[] common = new long[kind.equals("zipf") ? 200_000 : 0];
        double[] cumulative = new double[common.length];
        double sum = 0;
        for (int i = 0; i < common.length; i++) {
            common[i] = random.nextLong();
            sum += 1.0 / (i + 1);
            cumulative[i] = sum;
        }
        List<ShingleSet> sets = new ArrayList<>();
        List<int[]> clusters = new ArrayList<>();
        while (sets.size() < DOCUMENTS) {
            long[] base = document(random, boilerplate, common, cumulative, sum);
            if (random.nextInt(10) < 6) {
                sets.add(ShingleSet.of(base));
                continue;
            }
            int size = Math.min(2 + random.nextInt(9), DOCUMENTS - sets.size());
            int[] members = new int[size];
            for (int m = 0; m < size; m++) {
                members[m] = sets.size();
                sets.add(ShingleSet.of(edit(random, base)));
            }
            clusters.add(members);
        }
        return new Corpus(sets, clusters);
    }

    /** 4,000 to 6,000 hashes: boilerplate, then Zipf-drawn common ones, then random ones. */
    private static long[] document(
            SplittableRandom random,
            long[] boilerplate,
            long[] common,
            double[] cumulative,
            double sum) {
        int size = 4000 + random.nextInt(2001);
        long[] doc = new long[size];
        int n = 0;
        for (long b : boilerplate) {
            doc[n++] = b;
        }
        int fromCommon = common.length == 0 ? 0 : size / 10;
        for (int k = 0; k < fromCommon; k++) {
            double u = random.nextDouble() * sum;
            int i = java.util.Arrays.binarySearch(cumulative, u);
            doc[n++] = common[Math.min(common.length - 1, i < 0 ? -i - 1 : i)];
        }
        while (n < size) {
            doc[n++] = random.nextLong();
        }
        return doc;
    }

    /** A copy with up to 20% of its non-boilerplate hashes replaced and up to 5% dropped. */
    private static long[] edit(SplittableRandom random, long[] base) {
        long[] copy = base.clone();
        int replace = random.nextInt(copy.length / 5 + 1);
        for (int r = 0; r < replace; r++) {
            copy[copy.length - 1 - random.nextInt(copy.length * 4 / 5)] = random.nextLong();
        }
        int keep = copy.length - random.nextInt(copy.length / 20 + 1);
        return java.util.Arrays.copyOf(copy, keep);
    }
}
