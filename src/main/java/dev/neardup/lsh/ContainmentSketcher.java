package dev.neardup.lsh;

import dev.neardup.sketch.BbitMinHash;
import dev.neardup.sketch.BottomKContainment;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import java.util.Objects;

/**
 * The algorithm path of one document in containment mode (containment c(A, B) = |S(A) ∩ S(B)| /
 * |S(A)|, Broder 1997): shingle hashes, a MinHash signature cut into the size-partitioned bands of
 * {@link ContainmentBanding} (LSH Ensemble, Zhu et al. 2016) for the candidates, and a bottom-s
 * sample ({@link BottomKContainment}) for verifying them. Its {@link DocumentSketcher.Sketch}
 * carries the sample as its {@code signature} (the s values, each in a long), the size-partitioned
 * keys as its band keys and the fingerprint of the MinHash signature as its identity.
 *
 * <p>Not thread-safe (the shingler reuses buffers): one per thread.
 */
public final class ContainmentSketcher extends TextSketcher {

    private final MinHash minHash;
    private final ContainmentBanding banding;
    private final int sampleSize;

    public ContainmentSketcher(
            ShingleOptions shingles, MinHash minHash, ContainmentBanding banding, int sampleSize) {
        super(new Shingler(Objects.requireNonNull(shingles, "shingles")));
        this.minHash = Objects.requireNonNull(minHash, "minHash");
        this.banding = Objects.requireNonNull(banding, "banding");
        this.sampleSize = sampleSize;
        BottomKContainment.packedBytes(sampleSize); // checks s
        for (LshParams p : banding.bandings()) {
            p.checkFits(minHash.numHashes());
        }
    }

    @Override
    public DocumentSketcher.Sketch sketch(long[] hashes) {
        if (hashes.length == 0) {
            return new DocumentSketcher.Sketch(0, new long[0], new long[0], 0);
        }
        long[] signature = minHash.signature(hashes);
        int distinct = ShingleSet.distinctCount(hashes);
        return new DocumentSketcher.Sketch(
                hashes.length,
                BottomKContainment.sample(hashes, sampleSize),
                banding.bandKeys(signature, distinct),
                BbitMinHash.fingerprint(signature));
    }
}
