package dev.neardup.cli;

import dev.neardup.pipeline.NearDupOptions;
import dev.neardup.pipeline.SimilarityFamily;
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
            paramLabel = "jaccard|cosine",
            converter = FamilyConverter.class,
            description =
                    "jaccard: shingle sets (MinHash, LSH bands); cosine: term-frequency vectors"
                            + " of the words (64-bit SimHash fingerprints within --max-hamming,"
                            + " found by permuted-block tables). Default:"
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

    /** True when cosine similarity was asked for on the command line. */
    boolean cosine() {
        return similarity == SimilarityFamily.COSINE;
    }

    /** Sets the options that were given, and only those. */
    void applyTo(Configuration conf) {
        if (similarity != null) {
            conf.set(NearDupOptions.SIMILARITY, similarity);
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
