package dev.neardup.similarity;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.lsh.Banding;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.pipeline.CandidatePath;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.sketch.MinHash;
import dev.neardup.text.ShingleOptions;
import java.util.Map;

/**
 * Resemblance, the Jaccard similarity of shingle sets (Broder 1997): MinHash signatures, LSH
 * banding (Indyk and Motwani 1998), candidates verified in the buckets by the estimate from the
 * members' b-bit signatures (Li and König 2010). The default mode.
 */
final class JaccardMode implements SimilarityMode {

    private static final long serialVersionUID = 1L;

    private final NearDupSettings settings;

    JaccardMode(NearDupSettings settings) {
        this.settings = settings;
    }

    @Override
    public SimilarityFamily family() {
        return SimilarityFamily.JACCARD;
    }

    @Override
    public TextSketcher newSketcher() {
        return new DocumentSketcher(
                settings.shingleOptions(),
                MinHash.create(settings.algorithm(), settings.numHashes(), MinHash.DEFAULT_SEED),
                new Banding(settings.banding()));
    }

    @Override
    public Verification verification() {
        return new Verification.Jaccard(
                settings.numHashes(), settings.signatureBits(), settings.threshold());
    }

    @Override
    public CandidatePath candidatePath() {
        return CandidatePath.inBuckets();
    }

    @Override
    public ShingleOptions features() {
        return settings.shingleOptions();
    }

    @Override
    public void addStateShape(Map<String, String> m) {
        m.put(NearDupOptions.NUM_HASHES.key(), Integer.toString(settings.numHashes()));
        m.put(NearDupOptions.ALGORITHM.key(), settings.algorithm().name());
        m.put("minhash-seed", Long.toHexString(MinHash.DEFAULT_SEED));
        m.put(NearDupOptions.BANDS.key(), Integer.toString(settings.bands()));
        m.put(NearDupOptions.ROWS.key(), Integer.toString(settings.rows()));
        m.put("band-key-seed", Long.toHexString(Banding.DEFAULT_SEED));
        ShapeKeys.putShingles(m, features());
        m.put(NearDupOptions.SIGNATURE_BITS.key(), Integer.toString(settings.signatureBits()));
    }

    @Override
    public String describe() {
        LshParams banding = settings.banding();
        ShingleOptions sh = features();
        return String.format(
                "threshold=%.2f K=%d %s (effective threshold %.3f) minhash=%s shingles=%s/%d%s"
                        + " bucket-capacity=%d signature-bits=%d retention=%s",
                settings.threshold(),
                settings.numHashes(),
                banding,
                banding.effectiveThreshold(),
                settings.algorithm(),
                sh.kind(),
                sh.size(),
                ShapeKeys.textOptions(sh),
                settings.bucketCapacity(),
                settings.signatureBits(),
                ShapeKeys.retention(settings.retentionMillis()));
    }
}
