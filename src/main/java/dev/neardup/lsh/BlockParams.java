package dev.neardup.lsh;

import dev.neardup.sketch.SimHash;
import java.io.Serializable;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The block layout of {@link PermutedBlocks} (Manku, Jain and Das Sarma, "Detecting Near-Duplicates
 * for Web Crawling", WWW 2007, section 3, online queries against fingerprints in hash tables): a
 * fingerprint of D bits is cut into B blocks, and each of T = C(B, k) tables keys a document by one
 * choice of B - k blocks.
 *
 * <p>Two fingerprints at Hamming distance at most k share a key (recall is 1 by construction).
 * Block b is {@link #blockWidth} bits wide; the other methods give the cost in unrelated documents.
 * Design: docs/design/permuted-blocks.md.
 *
 * @param bits D, the fingerprint length (a multiple of 64, see {@link SimHash#checkBits})
 * @param maxHamming k, the largest Hamming distance that must be found
 * @param blocks B, at least k + 1 and at most D
 */
public record BlockParams(int bits, int maxHamming, int blocks) implements Serializable {

    /** Largest number of tables (keys per document) a layout may have. */
    public static final int MAX_TABLES = 4096;

    public BlockParams {
        SimHash.checkBits(bits);
        if (maxHamming < 0 || maxHamming >= bits) {
            throw new IllegalArgumentException(
                    "maximum Hamming distance k must be between 0 and %s, got %s"
                            .formatted(bits - 1, maxHamming));
        }
        if (blocks < maxHamming + 1 || blocks > bits) {
            throw new IllegalArgumentException(
                    "blocks must be at least k + 1 = %s (pigeonhole) and at most %s, got %s"
                            .formatted(maxHamming + 1, bits, blocks));
        }
        double tables = binomial(blocks, maxHamming);
        if (tables > MAX_TABLES) {
            throw new IllegalArgumentException(
                    ("%s blocks at k = %s need C(%1$s, %2$s) = %s tables, more than %s;"
                                    + " use fewer blocks")
                            .formatted(blocks, maxHamming, (long) tables, MAX_TABLES));
        }
    }

    /** T = C(B, k), the number of tables, i.e. of keys per document. */
    public int tables() {
        return (int) binomial(blocks, maxHamming);
    }

    /** B - k, the number of blocks each table's key covers. */
    public int blocksPerKey() {
        return blocks - maxHamming;
    }

    /** Width of block b in bits: D / B, plus one for the first D mod B blocks. */
    public int blockWidth(int block) {
        checkBlock(block);
        return bits / blocks + (block < bits % blocks ? 1 : 0);
    }

    /** The first fingerprint bit of block b (bit numbering of {@link SimHash}). */
    public int blockStart(int block) {
        checkBlock(block);
        return block * (bits / blocks) + Math.min(block, bits % blocks);
    }

    /**
     * The blocks table t's key covers, ascending: the t-th (B - k)-subset of {@code {0, ..., B -
     * 1}} in lexicographic order (table 0 covers blocks 0 to B - k - 1).
     */
    public int[] tableBlocks(int table) {
        if (table < 0 || table >= tables()) {
            throw new IllegalArgumentException(
                    "table must be between 0 and " + (tables() - 1) + ", got " + table);
        }
        int[] chosen = IntStream.range(0, blocksPerKey()).toArray();
        for (int t = 0; t < table; t++) {
            nextCombination(chosen, blocks);
        }
        return chosen;
    }

    /** w_t, the number of fingerprint bits table t's key covers. */
    public int keyWidth(int table) {
        return Arrays.stream(tableBlocks(table)).map(this::blockWidth).sum();
    }

    /** The narrowest key width over all tables (the last tables take the narrower blocks). */
    public int minKeyWidth() {
        return keyWidth(tables() - 1);
    }

    /** The widest key width over all tables. */
    public int maxKeyWidth() {
        return keyWidth(0);
    }

    /**
     * Probability that two unrelated fingerprints share at least one key: that at least B - k of
     * their B blocks agree, block b agreeing independently with probability 2^-width(b).
     */
    public double randomCandidateProbability() {
        return candidateProbability(0.5);
    }

    /**
     * Probability that two fingerprints whose bits differ independently with probability {@code p}
     * (theta / pi for SimHash, Charikar 2002) share at least one key: that at least B - k of their
     * blocks agree, block b agreeing with probability (1 - p)^width(b).
     */
    public double candidateProbability(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(
                    "bit difference probability must be in [0, 1], got " + p);
        }
        // dist[j]: probability that exactly j of the blocks seen so far agree.
        double[] dist = new double[blocks + 1];
        dist[0] = 1;
        for (int b = 0; b < blocks; b++) {
            double q = Math.pow(1 - p, blockWidth(b));
            for (int j = b + 1; j >= 1; j--) {
                dist[j] = dist[j] * (1 - q) + dist[j - 1] * q;
            }
            dist[0] *= 1 - q;
        }
        double tail = 0;
        for (int j = blocksPerKey(); j <= blocks; j++) {
            tail += dist[j];
        }
        return Math.min(1.0, tail);
    }

    /** sum_t 2^-w_t: the expected number of keys two unrelated fingerprints share. */
    public double expectedSharedKeys() {
        double sum = 0;
        int[] chosen = IntStream.range(0, blocksPerKey()).toArray();
        do {
            sum += Math.scalb(1.0, -Arrays.stream(chosen).map(this::blockWidth).sum());
        } while (nextCombination(chosen, blocks));
        return sum;
    }

    /**
     * Expected number of random candidates of one document in a corpus of n documents: (n - 1)
     * {@link #randomCandidateProbability()}. Every candidate costs one Hamming comparison.
     */
    public double expectedRandomCandidates(long corpusSize) {
        return Math.max(0, corpusSize - 1) * randomCandidateProbability();
    }

    /**
     * Expected number of unrelated documents a new document meets in its T buckets, counted once
     * per bucket, in a corpus of n documents: (n - 1) sum_t 2^-w_t. At least {@link
     * #expectedRandomCandidates}; the excess is pairs met in several tables.
     */
    public double expectedRandomCollisions(long corpusSize) {
        return Math.max(0, corpusSize - 1) * expectedSharedKeys();
    }

    /** The fewest tables: B = k + 1 blocks, each table keyed by one block. */
    public static BlockParams suggest(int bits, int maxHamming) {
        return new BlockParams(bits, maxHamming, maxHamming + 1);
    }

    /**
     * The layout with the most blocks (the widest keys, the fewest random candidates) whose table
     * count C(B, k) is at most {@code maxTables}. For k = 0 there is one table whatever B, and B =
     * 1.
     *
     * @throws IllegalArgumentException if {@code maxTables} is below k + 1, the fewest tables
     *     possible
     */
    public static BlockParams suggest(int bits, int maxHamming, int maxTables) {
        BlockParams fewest = suggest(bits, maxHamming);
        if (maxTables < fewest.tables()) {
            throw new IllegalArgumentException(
                    "k = %s needs at least %s tables (k + 1 blocks), got %s"
                            .formatted(maxHamming, fewest.tables(), maxTables));
        }
        if (maxHamming == 0) {
            return fewest;
        }
        int best = fewest.blocks();
        for (int b = best + 1;
                b <= bits && binomial(b, maxHamming) <= Math.min(maxTables, MAX_TABLES);
                b++) {
            best = b;
        }
        return new BlockParams(bits, maxHamming, best);
    }

    /**
     * The layout with the fewest tables whose {@link #expectedRandomCandidates} in a corpus of n
     * documents is at most {@code candidatesPerDocument}; if none within {@link #MAX_TABLES} tables
     * reaches it, the one with the most tables (the fewest candidates) there is.
     */
    public static BlockParams suggestForCorpus(
            int bits, int maxHamming, long corpusSize, double candidatesPerDocument) {
        if (corpusSize < 1 || !(candidatesPerDocument >= 0)) {
            throw new IllegalArgumentException(
                    "corpus size must be at least 1 and candidates per document at least 0, got "
                            + corpusSize
                            + " and "
                            + candidatesPerDocument);
        }
        BlockParams best = suggest(bits, maxHamming);
        while (best.expectedRandomCandidates(corpusSize) > candidatesPerDocument
                && maxHamming > 0
                && best.blocks() < bits
                && binomial(best.blocks() + 1, maxHamming) <= MAX_TABLES) {
            best = new BlockParams(bits, maxHamming, best.blocks() + 1);
        }
        return best;
    }

    private void checkBlock(int block) {
        if (block < 0 || block >= blocks) {
            throw new IllegalArgumentException(
                    "block must be between 0 and " + (blocks - 1) + ", got " + block);
        }
    }

    /**
     * Advances {@code chosen} (ascending indices below n) to the next combination in lexicographic
     * order; false when it was the last.
     */
    static boolean nextCombination(int[] chosen, int n) {
        int m = chosen.length;
        int i = m - 1;
        while (i >= 0 && chosen[i] == n - m + i) {
            i--;
        }
        if (i < 0) {
            return false;
        }
        chosen[i]++;
        for (int j = i + 1; j < m; j++) {
            chosen[j] = chosen[j - 1] + 1;
        }
        return true;
    }

    /** C(n, k) as a double (exact below 2^53). */
    static double binomial(int n, int k) {
        k = Math.min(k, n - k);
        double result = 1;
        for (int i = 1; i <= k; i++) {
            result = result * (n - k + i) / i;
        }
        return Math.rint(result);
    }

    @Override
    public String toString() {
        int narrow = bits / blocks;
        String widths = bits % blocks == 0 ? "" + narrow : narrow + "-" + (narrow + 1);
        int minKey = minKeyWidth();
        int maxKey = maxKeyWidth();
        String keys = minKey == maxKey ? "" + minKey : minKey + "-" + maxKey;
        return "%s bits, k = %s: %s blocks of %s bits, %s tables, keys of %s bits"
                .formatted(bits, maxHamming, blocks, widths, tables(), keys);
    }
}
