package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link BlockParams}: the layout (blocks tile the fingerprint, tables are the C(B, k) choices of B
 * - k blocks), the suggest rules, and the random-candidate formulas against direct computation. The
 * formulas are checked against measured rates in {@link PermutedBlocksTest}.
 */
class BlockParamsTest {

    @ParameterizedTest(name = "D = {0}, k = {1}, B = {2}")
    @CsvSource({"64,3,4", "64,3,5", "64,3,6", "64,0,1", "128,5,7", "192,4,7", "1024,7,10"})
    void blocksTileTheFingerprintAndTablesAreAllChoices(int bits, int k, int blocks) {
        BlockParams p = new BlockParams(bits, k, blocks);
        int next = 0;
        for (int b = 0; b < blocks; b++) {
            assertThat(p.blockStart(b)).isEqualTo(next);
            assertThat(p.blockWidth(b)).isBetween(bits / blocks, bits / blocks + 1);
            next += p.blockWidth(b);
        }
        assertThat(next).isEqualTo(bits);
        Set<List<Integer>> seen = new HashSet<>();
        int widest = 0;
        int narrowest = Integer.MAX_VALUE;
        for (int t = 0; t < p.tables(); t++) {
            int[] chosen = p.tableBlocks(t);
            assertThat(chosen).hasSize(blocks - k).isSorted();
            assertThat(chosen[0]).isGreaterThanOrEqualTo(0);
            assertThat(chosen[chosen.length - 1]).isLessThan(blocks);
            assertThat(seen.add(java.util.Arrays.stream(chosen).boxed().toList())).isTrue();
            widest = Math.max(widest, p.keyWidth(t));
            narrowest = Math.min(narrowest, p.keyWidth(t));
        }
        // All (B - k)-subsets, each once.
        assertThat(seen).hasSize((int) BlockParams.binomial(blocks, blocks - k));
        assertThat(p.tables()).isEqualTo(seen.size());
        assertThat(p.maxKeyWidth()).isEqualTo(widest);
        assertThat(p.minKeyWidth()).isEqualTo(narrowest);
    }

    @Test
    void mankusSixtyFourBitLayouts() {
        // Manku et al. (WWW 2007), f = 64, k = 3: 4, 10 and 20 tables.
        assertThat(BlockParams.suggest(64, 3))
                .hasToString("64 bits, k = 3: 4 blocks of 16 bits, 4 tables, keys of 16 bits");
        assertThat(BlockParams.suggest(64, 3, 10))
                .hasToString(
                        "64 bits, k = 3: 5 blocks of 12-13 bits, 10 tables, keys of 25-26 bits");
        assertThat(BlockParams.suggest(64, 3, 20))
                .hasToString(
                        "64 bits, k = 3: 6 blocks of 10-11 bits, 20 tables, keys of 31-33 bits");
        assertThat(BlockParams.suggest(64, 3, 34).blocks()).isEqualTo(6); // C(7, 3) = 35
        assertThat(BlockParams.suggest(64, 3, 35).blocks()).isEqualTo(7);
        assertThat(BlockParams.suggest(64, 0, 100)).isEqualTo(new BlockParams(64, 0, 1));
    }

    @Test
    void randomCandidateProbabilityIsTheTailOverBlocks() {
        // B = k + 1: a candidate iff at least one block agrees.
        BlockParams p = new BlockParams(64, 7, 8);
        assertThat(p.randomCandidateProbability())
                .isCloseTo(1 - Math.pow(1 - 1.0 / 256, 8), within(1e-15));
        assertThat(p.expectedSharedKeys()).isCloseTo(8.0 / 256, within(1e-15));
        // Brute force over which blocks agree, for an uneven layout.
        BlockParams q = new BlockParams(64, 3, 5);
        double total = 0;
        for (int agree = 0; agree < 1 << 5; agree++) {
            if (Integer.bitCount(agree) < 2) {
                continue;
            }
            double pr = 1;
            for (int b = 0; b < 5; b++) {
                double x = Math.scalb(1.0, -q.blockWidth(b));
                pr *= (agree >> b & 1) == 1 ? x : 1 - x;
            }
            total += pr;
        }
        assertThat(q.randomCandidateProbability()).isCloseTo(total, within(1e-18));
        assertThat(q.expectedRandomCandidates(1_000_001))
                .isCloseTo(1_000_000 * total, within(1e-9));
        assertThat(q.expectedRandomCollisions(1)).isZero();
        // Sharing keys counts pairs once per table: never below the candidate probability.
        assertThat(q.expectedSharedKeys()).isGreaterThanOrEqualTo(total);
    }

    @Test
    void suggestForCorpusTakesTheFewestTablesMeetingTheTarget() {
        // 8 billion pages (Manku et al.), k = 3, at most 1,000 random candidates per page.
        long n = 8_000_000_000L;
        BlockParams p = BlockParams.suggestForCorpus(64, 3, n, 1000);
        assertThat(p.expectedRandomCandidates(n)).isLessThanOrEqualTo(1000);
        BlockParams fewer = new BlockParams(64, 3, p.blocks() - 1);
        assertThat(fewer.expectedRandomCandidates(n)).isGreaterThan(1000);
        // Unreachable targets give the most tables allowed.
        BlockParams most = BlockParams.suggestForCorpus(64, 10, n, 0);
        assertThat(most.tables()).isLessThanOrEqualTo(BlockParams.MAX_TABLES);
        assertThat(BlockParams.binomial(most.blocks() + 1, 10))
                .isGreaterThan(BlockParams.MAX_TABLES);
    }

    @Test
    void invalidLayoutsAreRejectedWithTheReason() {
        assertThatThrownBy(() -> new BlockParams(64, 3, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least k + 1 = 4 (pigeonhole)");
        assertThatThrownBy(() -> new BlockParams(64, -1, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 0 and 63");
        assertThatThrownBy(() -> new BlockParams(100, 3, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("multiple of 64");
        assertThatThrownBy(() -> new BlockParams(1024, 10, 30))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("C(30, 10) = 30045015 tables, more than 4096");
        assertThatThrownBy(() -> BlockParams.suggest(64, 3, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs at least 4 tables");
        assertThatThrownBy(() -> new BlockParams(64, 3, 4).tableBlocks(4))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
