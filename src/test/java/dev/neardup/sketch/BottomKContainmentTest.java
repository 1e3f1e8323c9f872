package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neardup.testing.KnownOverlapPairs;
import java.util.Locale;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * The bottom-s containment sketch the buckets keep in containment mode: the definition, the byte
 * form, exactness where the sketches hold whole sets, and the estimator against exact containment
 * over generated pairs of articles in larger pages (fixed seeds), next to the estimate from a
 * MinHash signature and the set sizes, which it replaced: at a size ratio of 4 the signature's
 * error is about twice the sketch's.
 */
class BottomKContainmentTest {

    private static long pi32(long x, long seed) {
        return Mix64.fmix64(x ^ Mix64.splitMix64(seed, 0)) >>> 32;
    }

    @Property(tries = 200, seed = "1503")
    void holdsTheSmallestDistinctUpper32BitsOfThePermutedHashes(
            @ForAll @Size(max = 300) long[] hashes,
            @ForAll @IntRange(min = 1, max = 64) int s,
            @ForAll long seed) {
        TreeSet<Long> all = new TreeSet<>();
        for (long x : hashes) {
            all.add(pi32(x, seed));
        }
        long[] expected = all.stream().limit(s).mapToLong(Long::longValue).toArray();
        long[] sample = BottomKContainment.sample(hashes, s, seed);
        assertThat(sample).containsExactly(expected);
        byte[] packed = BottomKContainment.pack(sample, s);
        assertThat(packed).hasSize(BottomKContainment.packedBytes(s));
        assertThat(BottomKContainment.unpack(packed)).containsExactly(expected);
    }

    @Test
    void goldenBytes() {
        long[] sample = BottomKContainment.sample(new long[] {1, 2, 3}, 4);
        byte[] packed = BottomKContainment.pack(sample, 4);
        assertThat(packed).hasSize(18);
        assertThat(packed[0]).isEqualTo((byte) 3);
        assertThat(sample).containsExactly(sortedOf(1, 2, 3));
        assertThat(BottomKContainment.unpack(packed)).containsExactly(sample);
    }

    private static long[] sortedOf(long... xs) {
        return java.util.Arrays.stream(xs)
                .map(x -> pi32(x, MinSSketch.DEFAULT_SEED))
                .sorted()
                .toArray();
    }

    @Test
    void exactWhenBothSketchesHoldTheirWholeSets() {
        KnownOverlapPairs gen = new KnownOverlapPairs(15);
        KnownOverlapPairs.Pair p = gen.next(10, 30, 50);
        byte[] a = BottomKContainment.pack(BottomKContainment.sample(p.a(), 128), 128);
        byte[] b = BottomKContainment.pack(BottomKContainment.sample(p.b(), 128), 128);
        BottomKContainment.Estimate e = BottomKContainment.containment(a, b);
        assertThat(e.exact()).isTrue();
        assertThat(e.aInB()).isEqualTo(30.0 / 40);
        assertThat(e.bInA()).isEqualTo(30.0 / 80);
        assertThat(e.aInBSample().standardError()).isZero();
    }

    @Test
    void aPageWhollyContainedInALargerOneIsEstimatedAtOne() {
        KnownOverlapPairs gen = new KnownOverlapPairs(16);
        for (int i = 0; i < 50; i++) {
            KnownOverlapPairs.Pair p = gen.next(0, 300 + 10 * i, 2000);
            BottomKContainment.Estimate e =
                    BottomKContainment.containment(
                            BottomKContainment.pack(BottomKContainment.sample(p.a(), 64), 64),
                            BottomKContainment.pack(BottomKContainment.sample(p.b(), 64), 64));
            assertThat(e.aInB()).isEqualTo(1.0);
            assertThat(e.sampleA()).isPositive();
        }
    }

    @Test
    void refusesSketchesOfAnotherSize() {
        byte[] a = BottomKContainment.pack(new long[] {1}, 4);
        byte[] b = BottomKContainment.pack(new long[] {1}, 8);
        assertThatThrownBy(() -> BottomKContainment.containment(a, b))
                .hasMessageContaining("different sizes");
        assertThatThrownBy(() -> BottomKContainment.pack(new long[] {1, 2, 3}, 2))
                .hasMessageContaining("does not fit");
    }

    /**
     * Articles of 500 shingles with containment c in pages r times as large, 300 pairs per cell:
     * the bottom-128 sketch's estimate is unbiased within sampling error and its root mean square
     * error close to sqrt(c (1 - c) / (128 / r)); the estimate from a K = 128 MinHash signature and
     * the exact set sizes, J (|A| + |B|) / ((1 + J) |A|), errs more as r grows (about twice at r =
     * 4). The table is printed for the README.
     */
    @Test
    void estimatorAccuracyAgainstTheMinHashAndSizesEstimate() {
        int s = 128;
        int trials = 300;
        int article = 500;
        MinHash minHash = MinHash.defaults();
        StringBuilder table = new StringBuilder();
        for (int ratio : new int[] {1, 2, 4, 8}) {
            for (double c : new double[] {0.9, 0.7}) {
                KnownOverlapPairs gen = new KnownOverlapPairs(1500 + ratio * 10 + (int) (c * 10));
                int common = (int) Math.round(c * article);
                int onlyB = ratio * article - common;
                double sum = 0;
                double squares = 0;
                double jSquares = 0;
                for (int t = 0; t < trials; t++) {
                    KnownOverlapPairs.Pair p = gen.next(article - common, common, onlyB);
                    BottomKContainment.Estimate e =
                            BottomKContainment.containment(
                                    BottomKContainment.pack(BottomKContainment.sample(p.a(), s), s),
                                    BottomKContainment.pack(
                                            BottomKContainment.sample(p.b(), s), s));
                    double truth = p.containment();
                    sum += e.aInB() - truth;
                    squares += (e.aInB() - truth) * (e.aInB() - truth);
                    double j =
                            Similarity.estimateJaccard(
                                    minHash.signature(p.a()), minHash.signature(p.b()));
                    double fromJ =
                            BottomKContainment.containmentFromJaccard(
                                    j, p.a().length, p.b().length);
                    jSquares += (fromJ - truth) * (fromJ - truth);
                }
                double bias = sum / trials;
                double rmse = Math.sqrt(squares / trials);
                double jRmse = Math.sqrt(jSquares / trials);
                double expected = Math.sqrt(c * (1 - c) / ((double) s / ratio));
                table.append(
                        String.format(
                                Locale.ROOT,
                                "| %d | %.1f | %.3f | %.3f | %.3f | %.4f |%n",
                                ratio,
                                c,
                                rmse,
                                expected,
                                jRmse,
                                bias));
                assertThat(bias).isCloseTo(0, within(4 * expected / Math.sqrt(trials) + 0.01));
                assertThat(rmse).isLessThan(1.3 * expected);
                if (ratio >= 4) {
                    assertThat(jRmse).isGreaterThan(1.3 * rmse);
                }
            }
        }
        System.out.print(
                "| size ratio | containment | RMSE bottom-128 | sqrt(c(1-c)/(128/r)) | RMSE MinHash"
                        + " K=128 + sizes | bias bottom-128 |\n"
                        + table);
    }
}
