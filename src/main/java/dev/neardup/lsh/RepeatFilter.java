package dev.neardup.lsh;

import dev.neardup.sketch.Mix64;
import java.util.Arrays;
import java.util.Objects;

/**
 * Which keys of a collection may occur more than once in it: false positives, no false negatives. A
 * collection cut into parts (the shares of parallel tasks) is counted part by part and the counts
 * merged, so that no key has to travel to be counted.
 *
 * <p>Each part adds its keys to a {@link Builder}: two Bloom filters (Bloom 1970, "Space/time
 * trade-offs in hash coding with allowable errors") of the split block layout ({@link
 * SplitBlockBloom}), {@code seen} and {@code repeated}; a key whose bits are all set in {@code
 * seen} when it is added (it was seen before, or its bits were set by others) also goes to {@code
 * repeated}. Two parts' filters merge bit by bit: {@code repeated = r1 | r2 | (s1 & s2)}, {@code
 * seen = s1 | s2}, an operation that is associative and commutative, so the parts may be merged in
 * any order and any grouping, a {@link Chunk} of blocks at a time. A key that occurs twice, in one
 * part or in two, has every bit set in the merged {@code repeated}.
 *
 * <p>A key that occurs once passes when its bits are set by others: in {@code seen} of another part
 * (or of its own before it, then in {@code repeated} of its part), with about {@code p^8} for a
 * share {@code p} of bits set in a word, which at 12 keys per block is about 1e-4.
 *
 * <p>Not thread-safe.
 */
public final class RepeatFilter {

    /** Blocks in a {@link Chunk}: 128 KB of each filter. */
    public static final int CHUNK_BLOCKS = 1 << 12;

    private static final int CHUNK_WORDS = CHUNK_BLOCKS * SplitBlockBloom.BLOCK_WORDS;

    /** Bytes of each filter's chunk. */
    public static final long CHUNK_BYTES = (long) CHUNK_BLOCKS * SplitBlockBloom.BLOCK_BYTES;

    /** The most chunks of a filter: 1 GB each of its two filters. */
    public static final int MAX_CHUNKS = 1 << 13;

    /** Salts of the kinds of key, so that an id and a band key with equal hashes do not meet. */
    private static final long ID_SALT = 0x2545f4914f6cdd1dL;

    private static final long CONTENT_SALT = 0x61c8864680b583ebL;

    private final int chunks;

    /** The merged {@code repeated} words of each chunk; null where no chunk came (all set). */
    private final int[][] repeated;

    private RepeatFilter(int chunks, int[][] repeated) {
        this.chunks = chunks;
        this.repeated = repeated;
    }

    /**
     * The chunks of a filter of {@code bytes} (each of its two filters): whole chunks, at least
     * one.
     */
    public static int chunksFor(long bytes) {
        return (int) Math.max(1, Math.min(MAX_CHUNKS, bytes / CHUNK_BYTES));
    }

    /** The key of a document id (a string hash, FNV-1a over its UTF-16 units, salted). */
    public static long idKey(String id) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < id.length(); i++) {
            h = (h ^ id.charAt(i)) * 0x100000001b3L;
        }
        return Mix64.fmix64(h) ^ ID_SALT;
    }

    /** The key of a 64-bit content fingerprint (salted). */
    public static long contentKey(long fingerprint) {
        return fingerprint ^ CONTENT_SALT;
    }

    /** The filter of the merged chunks: a chunk that did not come lets every key of it pass. */
    public static RepeatFilter of(int chunks, Iterable<Chunk> merged) {
        int[][] repeated = new int[chunks][];
        for (Chunk c : merged) {
            if (c.index() < 0 || c.index() >= chunks || c.repeated().length != CHUNK_WORDS) {
                throw new IllegalArgumentException(
                        "chunk " + c.index() + " does not belong to a filter of " + chunks);
            }
            repeated[c.index()] = c.repeated();
        }
        return new RepeatFilter(chunks, repeated);
    }

    /** False if {@code key} was added once at most, over all the parts merged. */
    public boolean mayRepeat(long key) {
        long h = Mix64.fmix64(key);
        int block = SplitBlockBloom.block(h, chunks * CHUNK_BLOCKS);
        int[] words = repeated[block / CHUNK_BLOCKS];
        return words == null
                || SplitBlockBloom.contains(
                        words, (block % CHUNK_BLOCKS) * SplitBlockBloom.BLOCK_WORDS, h);
    }

    /** The chunks that came, of {@link #chunks()}. */
    public int chunksPresent() {
        return (int) Arrays.stream(repeated).filter(Objects::nonNull).count();
    }

    public int chunks() {
        return chunks;
    }

    /**
     * The two filters' words of {@link #CHUNK_BLOCKS} blocks, from block {@code index *
     * CHUNK_BLOCKS}; {@code seen} null once it is no longer needed (after the last merge).
     */
    public record Chunk(int index, int[] seen, int[] repeated) {

        public Chunk {
            Objects.requireNonNull(repeated, "repeated");
        }

        /** The two chunks merged: associative and commutative. */
        public static Chunk merge(Chunk a, Chunk b) {
            if (a.index != b.index || a.seen == null || b.seen == null) {
                throw new IllegalArgumentException(
                        "merges the counts of one chunk, got " + a.index + " and " + b.index);
            }
            int[] seen = new int[a.seen.length];
            int[] repeated = new int[a.repeated.length];
            for (int i = 0; i < seen.length; i++) {
                repeated[i] = a.repeated[i] | b.repeated[i] | (a.seen[i] & b.seen[i]);
                seen[i] = a.seen[i] | b.seen[i];
            }
            return new Chunk(a.index, seen, repeated);
        }

        /** This chunk without {@code seen}: what a {@link RepeatFilter} reads. */
        public Chunk repeatedOnly() {
            return new Chunk(index, null, repeated);
        }
    }

    /** Counts the keys of one part. */
    public static final class Builder {
        private final int chunks;
        private final int blocks;
        private final int[] seen;
        private final int[] repeated;

        /** A builder of {@code chunks} chunks ({@link #chunksFor}). */
        public Builder(int chunks) {
            if (chunks < 1 || chunks > MAX_CHUNKS) {
                throw new IllegalArgumentException(
                        "chunks must be 1 to " + MAX_CHUNKS + ", got " + chunks);
            }
            this.chunks = chunks;
            this.blocks = chunks * CHUNK_BLOCKS;
            this.seen = new int[chunks * CHUNK_WORDS];
            this.repeated = new int[chunks * CHUNK_WORDS];
        }

        /** Adds one occurrence of {@code key}. */
        public void add(long key) {
            long h = Mix64.fmix64(key);
            int base = SplitBlockBloom.base(h, blocks);
            if (!SplitBlockBloom.put(seen, base, h)) {
                SplitBlockBloom.put(repeated, base, h);
            }
        }

        /** The counts so far of chunk {@code c} (a copy). */
        public Chunk chunk(int c) {
            int from = Objects.checkIndex(c, chunks) * CHUNK_WORDS;
            return new Chunk(
                    c,
                    Arrays.copyOfRange(seen, from, from + CHUNK_WORDS),
                    Arrays.copyOfRange(repeated, from, from + CHUNK_WORDS));
        }

        public int chunks() {
            return chunks;
        }
    }
}
