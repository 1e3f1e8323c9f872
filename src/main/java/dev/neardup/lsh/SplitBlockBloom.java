package dev.neardup.lsh;

import dev.neardup.sketch.Mix64;

/**
 * The bit layout of a split block Bloom filter (Putze, Sanders and Singler, "Cache-, hash- and
 * space-efficient Bloom filters", 2007; the salts of Apache Parquet's filter): a 64-bit hash picks
 * one 256-bit block of eight 32-bit words and sets one bit in each word, so a lookup reads one
 * cache line. The filters here keep their words in {@code int} arrays, eight per block.
 */
final class SplitBlockBloom {

    private SplitBlockBloom() {}

    /** Bytes in a block. */
    static final int BLOCK_BYTES = 32;

    /** Words in a block. */
    static final int BLOCK_WORDS = 8;

    private static final int[] SALT = {
        0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
        0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31
    };

    /** The block of {@code h} among {@code blocks}. */
    static int block(long h, int blocks) {
        return Mix64.reduce(h, blocks);
    }

    /** The first word of the block of {@code h} among {@code blocks}. */
    static int base(long h, int blocks) {
        return block(h, blocks) * BLOCK_WORDS;
    }

    /** The bit of {@code h} in word {@code i} of its block. */
    static int bit(long h, int i) {
        return 1 << (((int) h * SALT[i]) >>> 27);
    }

    /** Whether every bit of {@code h} is set in the block that starts at {@code base}. */
    static boolean contains(int[] words, int base, long h) {
        for (int i = 0; i < BLOCK_WORDS; i++) {
            if ((words[base + i] & bit(h, i)) == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sets the bits of {@code h} in the block that starts at {@code base}.
     *
     * @return whether one of them was not set yet
     */
    static boolean put(int[] words, int base, long h) {
        int changed = 0;
        for (int i = 0; i < BLOCK_WORDS; i++) {
            int bit = bit(h, i);
            changed |= ~words[base + i] & bit;
            words[base + i] |= bit;
        }
        return changed != 0;
    }
}
