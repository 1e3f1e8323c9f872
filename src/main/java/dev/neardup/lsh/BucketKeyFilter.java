package dev.neardup.lsh;

import dev.neardup.sketch.Mix64;
import java.util.ArrayList;
import java.util.List;

/**
 * Which band keys may have a bucket: a set of 64-bit keys with false positives but no false
 * negatives, so that a bucket that certainly does not exist is not looked up. Most band keys of a
 * new document have no bucket yet; in a state store on disk the lookup of an absent key costs more
 * than in memory.
 *
 * <p>Each generation is a split block Bloom filter (Putze, Sanders and Singler, "Cache-, hash- and
 * space-efficient Bloom filters", 2007; {@link SplitBlockBloom}): a key sets one bit in each of the
 * eight 32-bit words of one 256-bit block, so a lookup reads one cache line. Generations grow as in
 * scalable Bloom filters (Almeida, Baquero, Preguiça and Hutchison, 2007): when the newest is full,
 * a new one of twice its capacity is added, or as large as the memory bound allows; when it allows
 * none, the newest takes the further keys (more false positives, never a false negative).
 *
 * <p>Keys expire with their buckets: a bucket lives {@code retention} after its last write
 * (processing time), and a key written is added to the newest generation. So a generation that
 * stopped being the newest more than {@code retention} ago holds no key of a live bucket, and is
 * dropped.
 *
 * <p>Not thread-safe.
 */
public final class BucketKeyFilter {

    /** Bits per key at a generation's capacity: about 0.5% false positives when full. */
    static final int BITS_PER_KEY = 12;

    /** Keys in the first generation (1.5 MB). */
    static final long FIRST_CAPACITY = 1 << 20;

    private final long maxBytes;
    private final long retentionMillis;

    /** Oldest first; the last takes the keys added. */
    private final List<Generation> generations = new ArrayList<>();

    private long bytes;

    /**
     * @param maxBytes memory for all generations (at least one block of 32 bytes); 0 turns the
     *     filter off (every key may exist)
     * @param retentionMillis how long after its last write a key's bucket lives
     */
    public BucketKeyFilter(long maxBytes, long retentionMillis) {
        if (maxBytes < 0 || retentionMillis <= 0) {
            throw new IllegalArgumentException(
                    "maxBytes must be >= 0 and retentionMillis > 0, got "
                            + maxBytes
                            + " and "
                            + retentionMillis);
        }
        this.maxBytes = maxBytes;
        this.retentionMillis = retentionMillis;
    }

    /** Whether the filter is on: off, every key may exist. */
    public boolean enabled() {
        return maxBytes > 0;
    }

    /** False if no bucket with {@code key} was written within the retention. */
    public boolean mightContain(long key) {
        if (maxBytes == 0) {
            return true;
        }
        long h = Mix64.fmix64(key);
        for (int g = generations.size() - 1; g >= 0; g--) {
            if (generations.get(g).contains(h)) {
                return true;
            }
        }
        return false;
    }

    /** Notes that the bucket with {@code key} was written at {@code nowMillis}. */
    public void add(long key, long nowMillis) {
        if (maxBytes == 0) {
            return;
        }
        long h = Mix64.fmix64(key);
        Generation newest = generations.isEmpty() ? null : generations.get(generations.size() - 1);
        if (newest == null || (newest.keys >= newest.capacity && !newest.contains(h))) {
            Generation next = grow(newest, nowMillis);
            if (next != null) {
                newest = next;
            }
        }
        newest.put(h);
    }

    /** Drops the generations that hold no key of a live bucket at {@code nowMillis}. */
    public void expire(long nowMillis) {
        while (generations.size() > 1
                && generations.get(0).retiredAt < nowMillis - retentionMillis) {
            bytes -= generations.remove(0).bytes();
        }
    }

    /** Memory held, in bytes. */
    public long bytes() {
        return bytes;
    }

    /** Keys added (counted once per generation). */
    public long keys() {
        long keys = 0;
        for (Generation g : generations) {
            keys += g.keys;
        }
        return keys;
    }

    /** Generations held. */
    public int generations() {
        return generations.size();
    }

    /**
     * A new newest generation, twice as large as {@code newest} (or the first), or as large as the
     * memory bound still allows; null if that is less than the first generation's size (then {@code
     * newest} takes the key).
     */
    private Generation grow(Generation newest, long nowMillis) {
        long capacity = newest == null ? FIRST_CAPACITY : newest.capacity * 2;
        long room = maxBytes - bytes;
        long blocks = Math.min(blocksFor(capacity), room / Generation.BLOCK_BYTES);
        blocks = Math.min(blocks, Integer.MAX_VALUE / 8);
        long smallest =
                Math.max(1, Math.min(blocksFor(FIRST_CAPACITY), maxBytes / Generation.BLOCK_BYTES));
        if (blocks < smallest) {
            if (newest != null) {
                return null;
            }
            blocks = 1;
        }
        Generation g = new Generation((int) blocks);
        if (newest != null) {
            newest.retiredAt = nowMillis;
        }
        generations.add(g);
        bytes += g.bytes();
        return g;
    }

    private static long blocksFor(long capacity) {
        return Math.max(1, capacity * BITS_PER_KEY / (Generation.BLOCK_BYTES * 8));
    }

    /** One split block Bloom filter. */
    private static final class Generation {
        static final int BLOCK_BYTES = SplitBlockBloom.BLOCK_BYTES;

        final int[] words;
        final int blocks;
        final long capacity;
        long keys;
        long retiredAt = Long.MAX_VALUE;

        Generation(int blocks) {
            this.blocks = blocks;
            this.words = new int[blocks * SplitBlockBloom.BLOCK_WORDS];
            this.capacity = (long) blocks * BLOCK_BYTES * 8 / BITS_PER_KEY;
        }

        long bytes() {
            return (long) words.length * Integer.BYTES;
        }

        boolean contains(long h) {
            return SplitBlockBloom.contains(words, SplitBlockBloom.base(h, blocks), h);
        }

        /** Sets the bits of {@code h}; counts it as a key if one of them was not set. */
        void put(long h) {
            if (SplitBlockBloom.put(words, SplitBlockBloom.base(h, blocks), h)) {
                keys++;
            }
        }
    }
}
