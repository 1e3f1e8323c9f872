package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.neardup.testing.KnownOverlapPairs;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seed 003's MIN_s sketch (Broder 1997): the definition, merging, the byte form, golden vectors,
 * and the resemblance estimator against exact resemblance over many generated pairs: unbiased, with
 * the hypergeometric standard error, and within Hoeffding's bound as often as it promises.
 */
class MinSSketchTest {

    private static final HexFormat HEX = HexFormat.of();

    /** π(x) written out from the contract, independently of the sketch's code. */
    private static long pi(long x, long seed) {
        return Mix64.fmix64(x ^ Mix64.splitMix64(seed, 0));
    }

    @Property(tries = 300, seed = "3003")
    void holdsTheSSmallestPermutedValuesOfTheSet(
            @ForAll @Size(max = 400) long[] hashes,
            @ForAll @IntRange(min = 1, max = 64) int s,
            @ForAll long seed) {
        TreeSet<Long> permuted = new TreeSet<>(Long::compareUnsigned);
        for (long x : hashes) {
            permuted.add(pi(x, seed));
        }
        long[] expected = permuted.stream().limit(s).mapToLong(Long::longValue).toArray();

        MinSSketch sketch = MinSSketch.of(hashes, s, seed);

        assertThat(sketch.values()).containsExactly(expected);
        assertThat(sketch.count()).isEqualTo(Math.min(s, permuted.size()));
        assertThat(sketch.isComplete()).isEqualTo(permuted.size() < s);
        // Order and repeats do not matter.
        long[] shuffledWithRepeats = Arrays.copyOf(hashes, 2 * hashes.length);
        System.arraycopy(hashes, 0, shuffledWithRepeats, hashes.length, hashes.length);
        shuffle(shuffledWithRepeats, new SplittableRandom(seed));
        assertThat(MinSSketch.of(shuffledWithRepeats, s, seed)).isEqualTo(sketch);
    }

    @Property(tries = 300, seed = "3003")
    void mergeIsTheSketchOfTheUnion(
            @ForAll @Size(max = 300) long[] left,
            @ForAll @Size(max = 300) long[] right,
            @ForAll @IntRange(min = 1, max = 64) int s) {
        long[] shared = Arrays.copyOf(left, Math.min(left.length, 20));
        long[] b = concat(right, shared);
        MinSSketch fa = MinSSketch.of(left, s, 3);
        MinSSketch fb = MinSSketch.of(b, s, 3);

        MinSSketch merged = fa.merge(fb);

        assertThat(merged).isEqualTo(MinSSketch.of(concat(left, b), s, 3));
        assertThat(fb.merge(fa)).isEqualTo(merged);
        assertThat(merged.merge(fa)).isEqualTo(merged);
    }

    @Property(tries = 300, seed = "3003")
    void bytesRoundTrip(
            @ForAll @Size(max = 500) long[] hashes,
            @ForAll @IntRange(min = 1, max = 200) int s,
            @ForAll long seed) {
        MinSSketch sketch = MinSSketch.of(hashes, s, seed);
        byte[] bytes = sketch.toBytes();
        assertThat(MinSSketch.fromBytes(bytes)).isEqualTo(sketch);
        // Header (kind, seed, varints of s and n) plus at most 10 bytes a value.
        assertThat(bytes.length).isLessThanOrEqualTo(9 + 3 + 3 + 10 * sketch.count());
    }

    @Test
    void bytesOfALargeSetTakeLessThanEightBytesAValue() {
        // The s smallest of n uniform values differ by about 2^64 / n: 64 - log2(n) bits each.
        long[] hashes = new SplittableRandom(5).longs(1 << 17).toArray();
        MinSSketch sketch = MinSSketch.of(hashes, 256);
        assertThat(sketch.toBytes().length).isLessThan(9 + 4 + 7 * 256 + 8);
    }

    @Test
    void goldenVectors() {
        long[] oneToThousand = new long[1000];
        for (int i = 0; i < 1000; i++) {
            oneToThousand[i] = i + 1;
        }
        MinSSketch sketch = MinSSketch.of(oneToThousand, 4);
        assertThat(sketch.values())
                .containsExactly(
                        0x00b0518461ff5c3aL,
                        0x00d673b9417cfbf7L,
                        0x00fc29484082000dL,
                        0x011e2807c793fea0L);
        assertThat(HEX.formatHex(sketch.toBytes()))
                .isEqualTo(
                        "0137397265646f72620404bab8fd8fc6b09458bdbff6fbcdc68813968894f8efb1ed1293fdc7b8f8d7ff10");
        MinSSketch single = MinSSketch.of(new long[] {42}, 4, 7);
        assertThat(single.values()).containsExactly(0x12903561fed590bbL);
        assertThat(HEX.formatHex(single.toBytes()))
                .isEqualTo("0107000000000000000401bba1d6f69fac8dc812");
        assertThat(MinSSketch.DEFAULT_SEED).isEqualTo(0x62726F6465723937L);
    }

    @Test
    void smallSetsGiveTheExactResemblance() {
        KnownOverlapPairs pairs = new KnownOverlapPairs(11);
        for (int i = 0; i < 50; i++) {
            KnownOverlapPairs.Pair pair = pairs.next(10 + i, 20, 30 - i / 2);
            SampleEstimate e =
                    MinSSketch.resemblance(
                            MinSSketch.of(pair.a(), 128), MinSSketch.of(pair.b(), 128));
            assertThat(e.exhaustive()).isTrue();
            assertThat(e.standardError()).isZero();
            assertThat(e.sampleSize()).isEqualTo(pair.unionSize());
            assertThat(e.value())
                    .isEqualTo(
                            Similarity.jaccard(ShingleSet.of(pair.a()), ShingleSet.of(pair.b())));
        }
        // A union of exactly s values is still exact; one more and it is a sample.
        KnownOverlapPairs.Pair exact = pairs.next(40, 48, 40);
        KnownOverlapPairs.Pair sampled = pairs.next(40, 49, 40);
        assertThat(estimate(exact, 128).exhaustive()).isTrue();
        assertThat(estimate(sampled, 128).exhaustive()).isFalse();
        assertThat(estimate(sampled, 128).sampleSize()).isEqualTo(128);
    }

    @Test
    void emptySetConventionsMatchSimilarity() {
        MinSSketch empty = MinSSketch.of(new long[0], 16);
        MinSSketch some = MinSSketch.of(new long[] {1, 2, 3}, 16);
        assertThat(empty.isEmpty()).isTrue();
        assertThat(MinSSketch.resemblance(empty, empty).value()).isEqualTo(1.0);
        assertThat(MinSSketch.resemblance(empty, some).value()).isZero();
        assertThat(MinSSketch.resemblance(empty, some).exhaustive()).isTrue();
        assertThat(MinSSketch.fromBytes(empty.toBytes())).isEqualTo(empty);
    }

    static Stream<Arguments> cases() {
        // |A \ B|, |A ∩ B|, |B \ A|: equal sizes at several resemblances, and a short article
        // (300 shingles, 90% or all of it) inside a long digest (20,000).
        return Stream.of(
                Arguments.of(1000, 500, 1000),
                Arguments.of(300, 2400, 300),
                Arguments.of(1500, 7000, 1500),
                Arguments.of(30, 270, 19_730),
                Arguments.of(0, 300, 19_700));
    }

    @ParameterizedTest(name = "|A-B| = {0}, |A&B| = {1}, |B-A| = {2}")
    @MethodSource("cases")
    void resemblanceIsUnbiasedWithTheHypergeometricErrorAndWithinItsBound(
            int onlyA, int common, int onlyB) {
        int s = 256;
        int trials = 1500;
        double delta = 0.05;
        KnownOverlapPairs pairs = new KnownOverlapPairs(onlyA * 31L + common * 7L + onlyB);
        double sumError = 0;
        double sumSquaredError = 0;
        int outside = 0;
        KnownOverlapPairs.Pair pair = null;
        for (int t = 0; t < trials; t++) {
            pair = pairs.next(onlyA, common, onlyB);
            SampleEstimate e = estimate(pair, s);
            double error = e.value() - pair.resemblance();
            sumError += error;
            sumSquaredError += error * error;
            assertThat(e.sampleSize()).isEqualTo(s);
            if (Math.abs(error) > e.errorBound(delta)) {
                outside++;
            }
        }
        double r = pair.resemblance();
        assertThat(r)
                .isEqualTo(Similarity.jaccard(ShingleSet.of(pair.a()), ShingleSet.of(pair.b())));
        double se = SampleEstimate.standardError(r, s, pair.unionSize());
        double rmse = Math.sqrt(sumSquaredError / trials);
        double bias = sumError / trials;

        // RMSE of 1500 trials is itself uncertain by about 1/sqrt(2 * 1500) = 1.8%.
        assertThat(rmse)
                .as("RMSE at r = %.4f (predicted %.5f)", r, se)
                .isCloseTo(se, within(0.1 * se));
        assertThat(Math.abs(bias)).as("bias at r = %.4f", r).isLessThan(4 * se / Math.sqrt(trials));
        // Hoeffding: P(outside) <= delta; allow 3 binomial standard deviations above it.
        assertThat((double) outside / trials)
                .as("failure rate at Hoeffding's bound %.4f", SampleEstimate.errorBound(s, delta))
                .isLessThanOrEqualTo(delta + 3 * Math.sqrt(delta * (1 - delta) / trials));
    }

    @Test
    void rejectsBadParametersWithClearMessages() {
        long[] hashes = {1, 2, 3};
        assertThatThrownBy(() -> MinSSketch.of(hashes, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("MIN_s sample size s must be between 1 and 1048576, got 0");
        assertThatThrownBy(() -> MinSSketch.of(hashes, MinSSketch.MAX_SIZE + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1 and 1048576");
        MinSSketch a = MinSSketch.of(hashes, 16, 1);
        assertThatThrownBy(() -> MinSSketch.resemblance(a, MinSSketch.of(hashes, 32, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("different parameters")
                .hasMessageContaining("s = 16, seed = 1 and s = 32, seed = 1");
        assertThatThrownBy(() -> a.merge(MinSSketch.of(hashes, 16, 2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("s = 16, seed = 1 and s = 16, seed = 2");
    }

    @Test
    void rejectsMalformedBytes() {
        byte[] good = MinSSketch.of(new long[] {5, 6, 7}, 2, 1).toBytes();
        assertThatThrownBy(() -> MinSSketch.fromBytes(new byte[3]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("malformed MIN_s sketch bytes: too short (3 bytes)");
        assertThatThrownBy(() -> MinSSketch.fromBytes(ModMSketch.of(new long[] {5}, 1).toBytes()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kind byte 2, expected 1");
        assertThatThrownBy(() -> MinSSketch.fromBytes(Arrays.copyOf(good, good.length - 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ends inside a varint");
        assertThatThrownBy(() -> MinSSketch.fromBytes(Arrays.copyOf(good, good.length + 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 trailing bytes");
        byte[] tooMany = good.clone();
        tooMany[10] = 3; // count 3 > s = 2
        assertThatThrownBy(() -> MinSSketch.fromBytes(tooMany))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than s = 2");
        byte[] repeated = {1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 5, 0};
        assertThatThrownBy(() -> MinSSketch.fromBytes(repeated))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("repeats a value");
        byte[] zeroS = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assertThatThrownBy(() -> MinSSketch.fromBytes(zeroS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sample size s = 0");
    }

    private static SampleEstimate estimate(KnownOverlapPairs.Pair pair, int s) {
        return MinSSketch.resemblance(MinSSketch.of(pair.a(), s), MinSSketch.of(pair.b(), s));
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
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
