package dev.neardup.similarity;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.lsh.BlockParams;
import dev.neardup.lsh.PermutedBlocks;
import dev.neardup.lsh.SimHashSketcher;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.pipeline.CandidatePath;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.sketch.SimHash;
import dev.neardup.text.ShingleOptions;
import java.util.Map;

/**
 * Cosine similarity of term-frequency vectors: SimHash fingerprints (Charikar 2002), permuted-block
 * tables that find every pair within Hamming distance k (Manku, Jain and Das Sarma 2007), verified
 * in the buckets by the Hamming distance of the members' fingerprints.
 */
final class CosineMode implements SimilarityMode {

    private static final long serialVersionUID = 1L;

    private final NearDupSettings settings;

    CosineMode(NearDupSettings settings) {
        this.settings = settings;
    }

    @Override
    public SimilarityFamily family() {
        return SimilarityFamily.COSINE;
    }

    @Override
    public TextSketcher newSketcher() {
        return new SimHashSketcher(
                features(),
                new SimHash(settings.simHashBits(), SimHash.DEFAULT_SEED),
                new PermutedBlocks(settings.blockParams()));
    }

    @Override
    public Verification verification() {
        return new Verification.Cosine(settings.simHashBits(), settings.maxHamming());
    }

    @Override
    public CandidatePath candidatePath() {
        return CandidatePath.inBuckets();
    }

    /** The words (shingles of one token) or the configured shingles, counted. */
    @Override
    public ShingleOptions features() {
        return SimHashSketcher.featureOptions(
                settings.simHashFeatures(), settings.shingleOptions());
    }

    @Override
    public void addStateShape(Map<String, String> m) {
        BlockParams layout = settings.blockParams();
        m.put(NearDupOptions.SIMHASH_BITS.key(), Integer.toString(layout.bits()));
        m.put("simhash-seed", Long.toHexString(SimHash.DEFAULT_SEED));
        m.put(NearDupOptions.MAX_HAMMING.key(), Integer.toString(layout.maxHamming()));
        m.put(NearDupOptions.SIMHASH_BLOCKS.key(), Integer.toString(layout.blocks()));
        m.put("block-key-seed", Long.toHexString(PermutedBlocks.DEFAULT_SEED));
        m.put(NearDupOptions.SIMHASH_FEATURES.key(), settings.simHashFeatures().name());
        ShapeKeys.putShingles(m, features());
    }

    @Override
    public String describe() {
        BlockParams layout = settings.blockParams();
        ShingleOptions sh = settings.shingleOptions();
        return String.format(
                java.util.Locale.ROOT,
                "similarity=cosine simhash-bits=%d max-hamming=%d (cosine >= %.3f) %d blocks,"
                        + " %d tables (keys of %s bits) features=%s%s bucket-capacity=%d"
                        + " retention=%s",
                settings.simHashBits(),
                settings.maxHamming(),
                settings.threshold(),
                layout.blocks(),
                layout.tables(),
                layout.minKeyWidth() == layout.maxKeyWidth()
                        ? "" + layout.minKeyWidth()
                        : layout.minKeyWidth() + "-" + layout.maxKeyWidth(),
                settings.simHashFeatures() == SimHashSketcher.Features.WORDS
                        ? "words"
                        : "shingles/" + sh.kind() + "/" + sh.size(),
                ShapeKeys.textOptions(sh),
                settings.bucketCapacity(),
                ShapeKeys.retention(settings.retentionMillis()));
    }
}
