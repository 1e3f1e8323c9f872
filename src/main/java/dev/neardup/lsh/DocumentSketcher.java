package dev.neardup.lsh;

import dev.neardup.sketch.BbitMinHash;
import dev.neardup.sketch.MinHash;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import java.util.Objects;

/**
 * The whole algorithm path of one document, the document similarity pipeline of Leskovec, Rajaraman
 * and Ullman (Mining of Massive Datasets, 2014, ch. 3): content, then shingle hashes ({@link
 * Shingler}), then a MinHash signature ({@link MinHash}), then b band keys ({@link Banding}).
 *
 * <p>Not thread-safe (the shingler reuses buffers): use one instance per thread.
 */
public final class DocumentSketcher extends TextSketcher {

    /**
     * One document's sketch.
     *
     * @param shingleCount number of shingles (with repeats) the signature was computed from (for
     *     {@link SimHashSketcher}: features); 0 for a document without tokens
     * @param signature the K-value MinHash signature (for {@link SimHashSketcher}: the SimHash
     *     fingerprint, D / 64 words)
     * @param bandKeys the b band keys (for {@link SimHashSketcher}: the T table keys)
     * @param identity a 64-bit hash equal for exact copies, which the buckets keep once: the XXH3
     *     of the MinHash signature ({@link BbitMinHash#fingerprint}: equal shingle sets, up to
     *     collisions); for {@link SimHashSketcher}, of the feature multiset (equal term
     *     frequencies), not of the fingerprint, since near-copies often have equal fingerprints
     */
    public record Sketch(int shingleCount, long[] signature, long[] bandKeys, long identity) {

        /** A MinHash sketch: its identity is the fingerprint of the signature. */
        public Sketch(int shingleCount, long[] signature, long[] bandKeys) {
            this(shingleCount, signature, bandKeys, BbitMinHash.fingerprint(signature));
        }
    }

    private final MinHash minHash;
    private final Banding banding;

    public DocumentSketcher(ShingleOptions shingles, MinHash minHash, Banding banding) {
        super(new Shingler(Objects.requireNonNull(shingles, "shingles")));
        this.minHash = Objects.requireNonNull(minHash, "minHash");
        this.banding = Objects.requireNonNull(banding, "banding");
        banding.params().checkFits(minHash.numHashes());
    }

    @Override
    public Sketch sketch(long[] hashes) {
        long[] signature = minHash.signature(hashes);
        return new Sketch(hashes.length, signature, banding.bandKeys(signature));
    }

    public MinHash minHash() {
        return minHash;
    }
}
