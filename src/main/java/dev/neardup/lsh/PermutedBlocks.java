package dev.neardup.lsh;

import static dev.neardup.lsh.Banding.LONG_LE;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * Candidate pairs of SimHash fingerprints within Hamming distance k by permuted blocks (Manku, Jain
 * and Das Sarma, "Detecting Near-Duplicates for Web Crawling", WWW 2007, online queries against
 * fingerprints in hash tables): the fingerprint is cut into B blocks ({@link BlockParams}), and
 * each of the T = C(B, k) tables keys a document by one choice of B - k blocks, hashed into a
 * 64-bit key, which plays the role of {@link Banding}'s band keys (table index = band index). Every
 * pair within distance k shares a key. Design: docs/design/permuted-blocks.md.
 *
 * <p>Contract (table keys are keys of stored state; PermutedBlocksTest pins golden vectors): with
 * M_t the mask of the bits of table t's blocks ({@link BlockParams#tableBlocks}, bit numbering of
 * {@link dev.neardup.sketch.SimHash}), table t's key is XXH3-64 with seed {@code seed} (hash4j)
 * over the 8 (W + 1) little-endian bytes of the longs {@code (t, f[0] & M_t[0], ..., f[W - 1] &
 * M_t[W - 1])}, W = D / 64. Immutable and thread-safe.
 */
public final class PermutedBlocks implements BandKeys {

    /** Default table-key seed. Part of stored state: never change it. */
    public static final long DEFAULT_SEED = 0x626C6F63_6B6B6579L; // "blockkey"

    private final BlockParams params;
    private final long seed;
    private final Hasher64 hash;
    private final int words;

    /** masks[t][w]: the bits of word w that table t's key covers. */
    private final long[][] masks;

    public PermutedBlocks(BlockParams params, long seed) {
        this.params = Objects.requireNonNull(params, "params");
        this.seed = seed;
        this.hash = Hashing.xxh3_64(seed);
        this.words = params.bits() / 64;
        int tables = params.tables();
        this.masks = new long[tables][words];
        int[] chosen = IntStream.range(0, params.blocksPerKey()).toArray();
        for (int t = 0; t < tables; t++) {
            for (int b : chosen) {
                int start = params.blockStart(b);
                for (int i = start; i < start + params.blockWidth(b); i++) {
                    masks[t][i >>> 6] |= 1L << (i & 63);
                }
            }
            BlockParams.nextCombination(chosen, params.blocks());
        }
    }

    public PermutedBlocks(BlockParams params) {
        this(params, DEFAULT_SEED);
    }

    public BlockParams params() {
        return params;
    }

    public long seed() {
        return seed;
    }

    /** The mask M_t of table t: the fingerprint bits its key covers. */
    public long[] mask(int table) {
        return masks[table].clone();
    }

    /**
     * The T table keys of a fingerprint, in table order: the band keys of the bucket operator.
     *
     * @throws IllegalArgumentException if the fingerprint is not D bits long
     */
    @Override
    public long[] bandKeys(long[] fingerprint) {
        checkLength(fingerprint);
        long[] keys = new long[masks.length];
        byte[] scratch = new byte[8 * (words + 1)];
        for (int t = 0; t < masks.length; t++) {
            LONG_LE.set(scratch, 0, (long) t);
            long[] mask = masks[t];
            for (int w = 0; w < words; w++) {
                LONG_LE.set(scratch, 8 * (w + 1), fingerprint[w] & mask[w]);
            }
            keys[t] = hash.hashBytesToLong(scratch);
        }
        return keys;
    }

    /**
     * The lowest table on whose blocks two fingerprints agree exactly, or -1 when none does (then
     * their Hamming distance exceeds k). With equal keys this is the table a pair collides in
     * first, which is where the job reports it.
     */
    @Override
    public int firstAgreeingBand(long[] a, long[] b) {
        checkLength(a);
        checkLength(b);
        for (int t = 0; t < masks.length; t++) {
            long[] mask = masks[t];
            boolean same = true;
            for (int w = 0; w < words && same; w++) {
                same = ((a[w] ^ b[w]) & mask[w]) == 0;
            }
            if (same) {
                return t;
            }
        }
        return -1;
    }

    private void checkLength(long[] fingerprint) {
        if (fingerprint.length != words) {
            throw new IllegalArgumentException(
                    "fingerprint has %s bits but %s needs %s"
                            .formatted(fingerprint.length * 64, params, params.bits()));
        }
    }
}
