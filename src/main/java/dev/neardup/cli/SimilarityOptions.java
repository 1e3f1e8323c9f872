package dev.neardup.cli;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.runtime.NeardupException;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Option;

/**
 * The similarity family and the cosine family's options ({@code --similarity cosine --max-hamming K
 * --simhash-bits D --simhash-blocks B}), shared as a picocli {@code @Mixin} by the commands that
 * run or describe the job. Like {@link JobOptions}' flags they have no default of their own: a flag
 * sets its {@link NearDupOptions} option only when it is named, and {@link
 * dev.neardup.pipeline.NearDupSettings#from} validates the combination.
 */
final class SimilarityOptions {

    /** {@code --similarity}. */
    static final class FamilyConverter extends EnumConverter<SimilarityFamily> {
        FamilyConverter() {
            super(SimilarityFamily.class);
        }
    }

    @Option(
            names = "--similarity",
            paramLabel = "jaccard|cosine|containment",
            converter = FamilyConverter.class,
            description =
                    "jaccard: shingle sets (MinHash, LSH bands); cosine: term-frequency vectors"
                            + " of the words (64-bit SimHash fingerprints within --max-hamming,"
                            + " found by permuted-block tables); containment: see --containment."
                            + " Default:"
                            + " ${bundle:neardup.similarity}.")
    SimilarityFamily similarity;

    @Option(
            names = "--max-hamming",
            paramLabel = "K",
            description =
                    "cosine: the largest Hamming distance of a near-duplicate pair; the threshold"
                            + " is cos(pi K / bits), 0.989 at K = 3 of 64. Below bits / 2."
                            + " Default: ${bundle:neardup.max-hamming}.")
    Integer maxHamming;

    @Option(
            names = "--simhash-bits",
            paramLabel = "N",
            description =
                    "cosine: SimHash fingerprint bits, a multiple of 64 up to 1024."
                            + " Default: ${bundle:neardup.simhash.bits}.")
    Integer simHashBits;

    @Option(
            names = "--simhash-blocks",
            paramLabel = "B",
            description =
                    "cosine: blocks per fingerprint (C(B, K) tables), more than K. Default: the"
                            + " fewest tables with at most one random candidate per document in"
                            + " a corpus of 1,000,000 (see 'neardup tune --similarity cosine"
                            + " --corpus-size N').")
    Integer blocks;

    @Option(
            names = "--containment",
            paramLabel = "T",
            description =
                    "Containment mode: find pages contained in others, |A n B| / |A| >= T"
                            + " (a quoted article, a page inside a digest), either way round;"
                            + " alerts and verdicts say which is in which (direction)."
                            + " Candidates from MinHash bands tuned per pair of size partitions"
                            + " (LSH Ensemble), verified on bottom-s samples. Replaces"
                            + " --threshold; not with --similarity cosine. E.g. --containment 0.8.")
    Double containment;

    @Option(
            names = "--max-size-ratio",
            paramLabel = "R",
            description =
                    "containment: the largest size ratio of a pair searched (larger page over"
                        + " smaller, in shingles), 1 to 64; each doubling costs about 100 band keys"
                        + " per document. Default: ${bundle:neardup.containment.max-size-ratio}.")
    Double maxSizeRatio;

    @Option(
            names = "--sketch-size",
            paramLabel = "S",
            description =
                    "containment: shingles sampled per document to verify a pair (bottom-S,"
                            + " 4 S + 2 bytes per bucket member); the estimate of a page in one R"
                            + " times larger rests on about S / R of them. Default:"
                            + " ${bundle:neardup.containment.sketch-size}.")
    Integer sketchSize;

    /** True when cosine similarity was asked for on the command line. */
    boolean cosine() {
        return similarity == SimilarityFamily.COSINE;
    }

    /** True when containment was asked for on the command line. */
    boolean containment() {
        return containment != null || similarity == SimilarityFamily.CONTAINMENT;
    }

    /**
     * Sets the options that were given, and only those.
     *
     * @throws NeardupException (usage) for --containment with another similarity
     */
    void applyTo(Configuration conf) {
        if (containment != null) {
            if (similarity != null && similarity != SimilarityFamily.CONTAINMENT) {
                throw NeardupException.usage(
                        "--containment and --similarity "
                                + similarity.name().toLowerCase(java.util.Locale.ROOT)
                                + " exclude each other: containment compares shingle sets one"
                                + " way round; drop one of them");
            }
            conf.set(NearDupOptions.SIMILARITY, SimilarityFamily.CONTAINMENT);
            conf.set(NearDupOptions.THRESHOLD, containment);
        } else if (similarity != null) {
            conf.set(NearDupOptions.SIMILARITY, similarity);
        }
        if (maxSizeRatio != null) {
            conf.set(NearDupOptions.CONTAINMENT_MAX_RATIO, maxSizeRatio);
        }
        if (sketchSize != null) {
            conf.set(NearDupOptions.CONTAINMENT_SKETCH_SIZE, sketchSize);
        }
        if (maxHamming != null) {
            conf.set(NearDupOptions.MAX_HAMMING, maxHamming);
        }
        if (simHashBits != null) {
            conf.set(NearDupOptions.SIMHASH_BITS, simHashBits);
        }
        if (blocks != null) {
            conf.set(NearDupOptions.SIMHASH_BLOCKS, blocks);
        }
    }
}
