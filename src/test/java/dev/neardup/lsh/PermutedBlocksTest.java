package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link PermutedBlocks} (Manku et al., WWW 2007): every pair within distance k shares a key
 * (exhaustively around a fingerprint, and on random pairs at each distance 0..k), pairs at distance
 * k + 1 spread over k + 1 blocks share none, the table index and seed are part of the key, and the
 * measured random-candidate rate of a corpus matches {@link BlockParams}' formulas.
 */
class PermutedBlocksTest {

    private static long[] random(SplittableRandom r, int bits) {
        return r.longs(bits / 64).toArray();
    }

    private static long[] flip(long[] f, int... positions) {
        long[] g = f.clone();
        for (int i : positions) {
            g[i >>> 6] ^= 1L << (i & 63);
        }
        return g;
    }

    private static boolean shareKey(long[] ka, long[] kb) {
        for (int t = 0; t < ka.length; t++) {
            if (ka[t] == kb[t]) {
                return true;
            }
        }
        return false;
    }

    @ParameterizedTest(name = "64 bits, k = 3, B = {0}")
    @CsvSource({"4", "5", "6"})
    void everyFingerprintWithinThreeBitsSharesAKeyExhaustively(int blocks) {
        PermutedBlocks pb = new PermutedBlocks(new BlockParams(64, 3, blocks));
        long[] base = random(new SplittableRandom(blocks), 64);
        long[] baseKeys = pb.bandKeys(base);
        List<int[]> flipSets = new ArrayList<>();
        flipSets.add(new int[0]);
        for (int i = 0; i < 64; i++) {
            flipSets.add(new int[] {i});
            for (int j = i + 1; j < 64; j++) {
                flipSets.add(new int[] {i, j});
                for (int l = j + 1; l < 64; l++) {
                    flipSets.add(new int[] {i, j, l});
                }
            }
        }
        for (int[] flips : flipSets) {
            long[] other = flip(base, flips);
            assertThat(shareKey(baseKeys, pb.bandKeys(other)))
                    .as("flips %s", java.util.Arrays.toString(flips))
                    .isTrue();
            assertThat(pb.firstAgreeingBand(base, other)).isNotNegative();
        }
        int pairs = flipSets.size();
        assertThat(pb.firstAgreeingBand(base, base)).isZero();
        assertThat(pairs).isEqualTo(1 + 64 + 64 * 63 / 2 + 64 * 63 * 62 / 6);
    }

    @ParameterizedTest(name = "D = {0}, k = {1}, B = {2}")
    @CsvSource({"64,3,4", "128,5,6", "128,5,8", "192,4,7", "1024,7,8", "1024,7,10", "256,0,1"})
    void randomPairsAtEveryDistanceUpToKShareAKeyAndSpreadPairsBeyondDoNot(
            int bits, int k, int blocks) {
        BlockParams params = new BlockParams(bits, k, blocks);
        PermutedBlocks pb = new PermutedBlocks(params, 17);
        SplittableRandom r = new SplittableRandom(bits * 100L + k);
        for (int trial = 0; trial < 300; trial++) {
            long[] a = random(r, bits);
            for (int d = 0; d <= k; d++) {
                Set<Integer> flips = new HashSet<>();
                while (flips.size() < d) {
                    flips.add(r.nextInt(bits));
                }
                long[] b = flip(a, flips.stream().mapToInt(x -> x).toArray());
                int first = pb.firstAgreeingBand(a, b);
                assertThat(first).as("distance %d", d).isNotNegative();
                assertThat(pb.bandKeys(a)[first]).isEqualTo(pb.bandKeys(b)[first]);
            }
            if (k + 1 <= blocks) {
                // Distance k + 1 with one flip in each of k + 1 different blocks: only B - k - 1
                // blocks agree, fewer than any key covers.
                int[] flips = new int[k + 1];
                for (int i = 0; i <= k; i++) {
                    int block = (trial + i) % blocks;
                    flips[i] = params.blockStart(block) + r.nextInt(params.blockWidth(block));
                }
                long[] c = flip(a, flips);
                assertThat(pb.firstAgreeingBand(a, c)).isEqualTo(-1);
                assertThat(shareKey(pb.bandKeys(a), pb.bandKeys(c))).isFalse();
            }
        }
    }

    @Test
    void tableIndexAndSeedArePartOfTheKey() {
        BlockParams params = new BlockParams(64, 3, 6);
        long[] zero = new long[1];
        assertThat(new PermutedBlocks(params).bandKeys(zero)).hasSize(20).doesNotHaveDuplicates();
        long[] f = random(new SplittableRandom(5), 64);
        long[] a = new PermutedBlocks(params, 1).bandKeys(f);
        long[] b = new PermutedBlocks(params, 2).bandKeys(f);
        for (int t = 0; t < 20; t++) {
            assertThat(a[t]).isNotEqualTo(b[t]);
        }
    }

    @Test
    void aChangeInOneBlockChangesExactlyTheKeysOfTablesCoveringIt() {
        BlockParams params = new BlockParams(128, 3, 5);
        PermutedBlocks pb = new PermutedBlocks(params);
        long[] f = random(new SplittableRandom(6), 128);
        long[] before = pb.bandKeys(f);
        int block = 2;
        long[] after = pb.bandKeys(flip(f, params.blockStart(block) + 3));
        for (int t = 0; t < params.tables(); t++) {
            boolean covers = false;
            for (int b : params.tableBlocks(t)) {
                covers |= b == block;
            }
            assertThat(after[t] != before[t]).as("table %d", t).isEqualTo(covers);
            assertThat(Long.bitCount(pb.mask(t)[0]) + Long.bitCount(pb.mask(t)[1]))
                    .isEqualTo(params.keyWidth(t));
        }
    }

    @Test
    void wrongLengthsAreRejected() {
        PermutedBlocks pb = new PermutedBlocks(BlockParams.suggest(128, 3));
        assertThatThrownBy(() -> pb.bandKeys(new long[1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fingerprint has 64 bits but")
                .hasMessageContaining("needs 128");
        assertThatThrownBy(() -> pb.firstAgreeingBand(new long[2], new long[3]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Golden vectors, computed once and pinned: table keys are keys of stored state. The first key
     * is checked independently against the contract (XXH3-64 of the little-endian longs (0, f &
     * M_0)).
     */
    @Test
    void goldenVectors() {
        PermutedBlocks pb = new PermutedBlocks(BlockParams.suggest(64, 3));
        long[] f = {0x0123_4567_89AB_CDEFL};
        long[] keys = pb.bandKeys(f);
        java.nio.ByteBuffer bytes =
                java.nio.ByteBuffer.allocate(16).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        bytes.putLong(0L).putLong(0x0000_0000_0000_CDEFL);
        assertThat(keys[0])
                .isEqualTo(
                        com.dynatrace.hash4j.hashing.Hashing.xxh3_64(PermutedBlocks.DEFAULT_SEED)
                                .hashBytesToLong(bytes.array()));
        assertThat(keys)
                .containsExactly(
                        0xcd8755f800475853L,
                        0x35560ffa74117907L,
                        0xd23ec5c995d1a97eL,
                        0xf1521f0788b27d6fL);
    }

    /**
     * Random candidates: in a corpus of n independent random fingerprints, the number of distinct
     * pairs sharing a key, and of (pair, table) collisions, match n (n - 1) / 2 times {@link
     * BlockParams#randomCandidateProbability} and {@link BlockParams#expectedSharedKeys}. The pair
     * events are pairwise independent (given one fingerprint, another's agreement is uniform), so
     * the count has the binomial variance; the test allows 4 standard deviations.
     */
    @ParameterizedTest(name = "D = {0}, k = {1}, B = {2}")
    @CsvSource({"64,7,8", "64,8,10", "128,15,16"})
    void measuredRandomCandidateRateMatchesTheFormula(int bits, int k, int blocks) {
        BlockParams params = new BlockParams(bits, k, blocks);
        PermutedBlocks pb = new PermutedBlocks(params);
        SplittableRandom r = new SplittableRandom(bits + k + blocks);
        int n = 2000;
        Map<Long, List<Integer>> buckets = new HashMap<>();
        Set<Long> candidates = new HashSet<>();
        long collisions = 0;
        for (int doc = 0; doc < n; doc++) {
            long[] keys = pb.bandKeys(random(r, bits));
            for (long key : keys) {
                List<Integer> members = buckets.computeIfAbsent(key, x -> new ArrayList<>());
                for (int other : members) {
                    collisions++;
                    candidates.add((long) other * n + doc);
                }
                members.add(doc);
            }
        }
        double pairs = n * (n - 1) / 2.0;
        double p = params.randomCandidateProbability();
        double expected = pairs * p;
        double sd = Math.sqrt(pairs * p * (1 - p));
        double expectedCollisions = pairs * params.expectedSharedKeys();
        System.out.printf(
                "%s: %d candidate pairs (expected %.1f +- %.1f), %d collisions (expected %.1f),"
                        + " %.3f random candidates per document (formula %.3f)%n",
                params,
                candidates.size(),
                expected,
                sd,
                collisions,
                expectedCollisions,
                2.0 * candidates.size() / n,
                params.expectedRandomCandidates(n));
        assertThat((double) candidates.size()).isBetween(expected - 4 * sd, expected + 4 * sd);
        assertThat((double) collisions)
                .isBetween(
                        expectedCollisions - 4 * Math.sqrt(expectedCollisions) - 1,
                        expectedCollisions + 4 * Math.sqrt(expectedCollisions) + 1);
        // Per document: each candidate pair is a candidate of both its documents.
        assertThat(2.0 * candidates.size() / n)
                .isBetween(
                        params.expectedRandomCandidates(n) - 8 * sd / n,
                        params.expectedRandomCandidates(n) + 8 * sd / n);
    }

    /**
     * candidateProbability(p): fingerprints with each bit flipped independently with probability p
     * share a table key as often as the Poisson-binomial formula says (Monte Carlo, fixed seed,
     * within 4 standard errors); p = 1/2 is randomCandidateProbability.
     */
    @ParameterizedTest
    @CsvSource({"64, 3, 5, 0.03", "64, 3, 4, 0.08", "128, 6, 8, 0.05"})
    void candidateProbabilityMatchesFlippedBits(int bits, int k, int blocks, double p) {
        BlockParams params = new BlockParams(bits, k, blocks);
        PermutedBlocks tables = new PermutedBlocks(params);
        SplittableRandom random = new SplittableRandom(14);
        int trials = 20_000;
        int candidates = 0;
        for (int t = 0; t < trials; t++) {
            long[] a = new long[bits / 64];
            long[] b = new long[bits / 64];
            for (int w = 0; w < a.length; w++) {
                a[w] = random.nextLong();
                b[w] = a[w];
                for (int i = 0; i < 64; i++) {
                    if (random.nextDouble() < p) {
                        b[w] ^= 1L << i;
                    }
                }
            }
            if (tables.firstAgreeingBand(a, b) >= 0) {
                candidates++;
            }
        }
        double expected = params.candidateProbability(p);
        double se = Math.sqrt(expected * (1 - expected) / trials);
        assertThat((double) candidates / trials)
                .isCloseTo(expected, org.assertj.core.api.Assertions.within(4 * se + 1e-9));
        assertThat(params.candidateProbability(0.5)).isEqualTo(params.randomCandidateProbability());
        assertThat(params.candidateProbability(0)).isEqualTo(1.0);
    }
}
