package dev.neardup.lsh;

import dev.neardup.sketch.GaussianSimHash;
import dev.neardup.sketch.Mix64;
import dev.neardup.sketch.SimHash;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import java.util.Objects;

/**
 * The cosine family's algorithm path of one document (Charikar's random projections, STOC 2002;
 * Manku, Jain and Das Sarma, WWW 2007): features, then a term-frequency {@link SimHash}
 * fingerprint, then the T table keys of {@link PermutedBlocks}, which the job uses as band keys.
 * With verification bits, the sketch is the D-bit fingerprint followed by V {@link GaussianSimHash}
 * bits of the same vector ({@code long[(D + V) / 64]}): the tables key the first D bits, the V bits
 * judge the candidates. For exact verification instead, the sketch is the document's term-frequency
 * vector ({@link #termFrequencies}), followed by the V bits that screen its candidates, and the
 * fingerprint only makes the table keys.
 *
 * <p>The sketch's {@link DocumentSketcher.Sketch#identity} is a hash of the feature multiset, not
 * of the fingerprint: two pages a word apart often have equal 64-bit fingerprints (at cosine 0.999,
 * 4 times in 10), and the buckets keep one member per identity.
 *
 * <p>Not thread-safe (the shingler reuses buffers): one instance per thread.
 */
public final class SimHashSketcher extends TextSketcher {

    /** What a document's vector is made of. */
    public enum Features {
        /** The default: word tokens (shingle size 1) weighted by term frequency, in any order. */
        WORDS,
        /** The configured shingles weighted by their frequency (order-sensitive). */
        SHINGLES
    }

    private final SimHash simHash;
    private final PermutedBlocks blocks;
    private final GaussianSimHash verify;
    private final boolean termFrequencies;

    /**
     * @param features the shingling of the features (word shingles of size 1 for {@link
     *     Features#WORDS}, see {@link #featureOptions})
     */
    public SimHashSketcher(ShingleOptions features, SimHash simHash, PermutedBlocks blocks) {
        this(features, simHash, blocks, null);
    }

    /**
     * @param verify the verification bits appended to the fingerprint, or null for none
     */
    public SimHashSketcher(
            ShingleOptions features,
            SimHash simHash,
            PermutedBlocks blocks,
            GaussianSimHash verify) {
        this(features, simHash, blocks, verify, false);
    }

    /**
     * @param verify the verification bits appended to the fingerprint, or null for none
     * @param termFrequencies whether the sketch is the term-frequency vector ({@link
     *     #termFrequencies}) instead of the fingerprint, followed by the {@code verify} bits
     */
    public SimHashSketcher(
            ShingleOptions features,
            SimHash simHash,
            PermutedBlocks blocks,
            GaussianSimHash verify,
            boolean termFrequencies) {
        super(new Shingler(Objects.requireNonNull(features, "features")));
        this.termFrequencies = termFrequencies;
        this.simHash = Objects.requireNonNull(simHash, "simHash");
        this.blocks = Objects.requireNonNull(blocks, "blocks");
        this.verify = verify;
        if (blocks.params().bits() != simHash.bits()) {
            throw new IllegalArgumentException(
                    "the block layout is for "
                            + blocks.params().bits()
                            + "-bit fingerprints, the SimHash has "
                            + simHash.bits());
        }
    }

    /**
     * The shingling of the features: for {@link Features#WORDS}, single word tokens with the text
     * options (stop words, stemming, seed) of {@code shingles}; for {@link Features#SHINGLES},
     * {@code shingles} itself.
     */
    public static ShingleOptions featureOptions(Features features, ShingleOptions shingles) {
        if (features == Features.SHINGLES) {
            return shingles;
        }
        return new ShingleOptions(
                ShingleOptions.Kind.WORD,
                1,
                shingles.removeStopWords(),
                shingles.stemming(),
                shingles.seed());
    }

    @Override
    public DocumentSketcher.Sketch sketch(long[] features) {
        // One sort: the fingerprints and the identity come from the term-frequency vector.
        long[] counts = termFrequencies(features);
        long[] fingerprint = simHash.fingerprintOfCounts(counts);
        long[] keys = blocks.bandKeys(fingerprint);
        long[] sketch = termFrequencies ? counts : fingerprint;
        if (verify != null) {
            long[] bits = verify.fingerprintOfCounts(counts);
            int at = sketch.length;
            sketch = java.util.Arrays.copyOf(sketch, at + bits.length);
            System.arraycopy(bits, 0, sketch, at, bits.length);
        }
        return new DocumentSketcher.Sketch(features.length, sketch, keys, identityOfCounts(counts));
    }

    /**
     * The term-frequency vector of {@code features} (with repeats, as the shingler returns them):
     * its distinct feature hashes in ascending (signed) order, each followed by the number of times
     * it occurs, {@code [f0, n0, f1, n1, ...]}. The vector the fingerprints are made of. The array
     * is not modified.
     */
    public static long[] termFrequencies(long[] features) {
        return SimHash.termFrequencies(features);
    }

    /** {@link #identity} of the features whose term-frequency vector is {@code counts}. */
    static long identityOfCounts(long[] counts) {
        long sum = 0;
        long length = 0;
        for (int i = 0; i < counts.length; i += 2) {
            sum += counts[i + 1] * Mix64.fmix64(counts[i] ^ IDENTITY_SEED);
            length += counts[i + 1];
        }
        return Mix64.fmix64(sum + length * Mix64.GOLDEN_GAMMA);
    }

    /** Seed of {@link #identity}. Part of stored state: never change it. */
    static final long IDENTITY_SEED = 0x74666964_656E7431L; // "tfident1"

    /**
     * An order-independent 64-bit hash of a feature multiset, equal for equal term-frequency
     * vectors: fmix64 of the count plus the sum of fmix64(feature XOR seed) over all occurrences (a
     * sum of uniform hashes, so two different multisets collide with probability about 2^-64). The
     * buckets keep documents with equal identities once, as exact copies.
     */
    public static long identity(long[] features) {
        long sum = 0;
        for (long f : features) {
            sum += Mix64.fmix64(f ^ IDENTITY_SEED);
        }
        return Mix64.fmix64(sum + features.length * Mix64.GOLDEN_GAMMA);
    }
}
