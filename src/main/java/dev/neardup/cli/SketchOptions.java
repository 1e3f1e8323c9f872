package dev.neardup.cli;

import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.MinHashAlgorithm;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Tokenizer;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The options that decide how a document becomes a MinHash signature (shingle kind and size, stop
 * words, stemming, K, algorithm), shared as a picocli {@code @Mixin} by every command that sketches
 * documents. Hash seeds stay at their defaults, so that signatures are comparable between runs and
 * commands.
 */
public final class SketchOptions {

    /** {@code --shingle}: word or character shingles. */
    public enum ShingleKind {
        WORD(ShingleOptions.Kind.WORD, ShingleOptions.DEFAULT_WORD_SIZE),
        CHAR(ShingleOptions.Kind.CHAR, ShingleOptions.DEFAULT_CHAR_SIZE);

        final ShingleOptions.Kind kind;
        final int defaultSize;

        ShingleKind(ShingleOptions.Kind kind, int defaultSize) {
            this.kind = kind;
            this.defaultSize = defaultSize;
        }
    }

    /** {@code --stem}: the stemmer, if any. */
    public enum Stem {
        NONE(Tokenizer.Stemming.NONE),
        PORTER(Tokenizer.Stemming.PORTER),
        SNOWBALL(Tokenizer.Stemming.SNOWBALL_ENGLISH);

        final Tokenizer.Stemming stemming;

        Stem(Tokenizer.Stemming stemming) {
            this.stemming = stemming;
        }
    }

    @Option(
            names = "--shingle",
            paramLabel = "word|char",
            converter = EnumConverter.ShingleKindConverter.class,
            defaultValue = "word",
            description =
                    "Shingle kind: word (w consecutive tokens) or char (k consecutive characters"
                            + " of the normalised text). Default: ${DEFAULT-VALUE}.")
    ShingleKind shingle = ShingleKind.WORD;

    @Option(
            names = "--shingle-size",
            paramLabel = "N",
            description =
                    "Shingle size: tokens per word shingle (default "
                            + ShingleOptions.DEFAULT_WORD_SIZE
                            + ") or characters per char shingle (default "
                            + ShingleOptions.DEFAULT_CHAR_SIZE
                            + "), 1 to "
                            + ShingleOptions.MAX_SIZE
                            + ".")
    Integer shingleSize;

    @Option(
            names = "--stopwords",
            description = "Drop the 33 English stop words (Lucene's list) before shingling.")
    boolean stopWords;

    @Option(
            names = "--stem",
            paramLabel = "none|porter|snowball",
            converter = EnumConverter.StemConverter.class,
            defaultValue = "none",
            description =
                    "Stem tokens before shingling: none, porter (Porter 1980) or snowball (Snowball"
                            + " English, Porter2). Default: ${DEFAULT-VALUE}.")
    Stem stem = Stem.NONE;

    @Option(
            names = "--num-hashes",
            paramLabel = "K",
            defaultValue = "" + MinHash.DEFAULT_NUM_HASHES,
            description =
                    "MinHash signature length K, 1 to 4096; the estimate's standard error is about"
                            + " sqrt(J (1 - J) / K). Default: ${DEFAULT-VALUE}.")
    int numHashes = MinHash.DEFAULT_NUM_HASHES;

    @Option(
            names = "--algorithm",
            paramLabel = "oph|classic",
            converter = EnumConverter.AlgorithmConverter.class,
            defaultValue = "oph",
            description =
                    "MinHash algorithm: oph (one-permutation hashing with optimal densification,"
                            + " fast) or classic (K independent hash functions)."
                            + " Default: ${DEFAULT-VALUE}.")
    MinHashAlgorithm algorithm = MinHashAlgorithm.OPH;

    /** Checks the values; throws a usage error naming the option. */
    public void validate() {
        if (shingleSize != null && (shingleSize < 1 || shingleSize > ShingleOptions.MAX_SIZE)) {
            throw CliException.usage(
                    "--shingle-size must be between 1 and "
                            + ShingleOptions.MAX_SIZE
                            + ", got "
                            + shingleSize);
        }
        if (numHashes < 1 || numHashes > 4096) {
            throw CliException.usage(
                    "--num-hashes (K) must be between 1 and 4096, got " + numHashes);
        }
    }

    /** The shingle size in effect: the given one or the kind's default. */
    public int shingleSize() {
        return shingleSize != null ? shingleSize : shingle.defaultSize;
    }

    /** The shingle options these command-line options describe (default seed). */
    public ShingleOptions shingleOptions() {
        validate();
        return new ShingleOptions(
                shingle.kind, shingleSize(), stopWords, stem.stemming, ShingleOptions.DEFAULT_SEED);
    }

    /** K. */
    public int numHashes() {
        return numHashes;
    }

    /** The MinHash algorithm. */
    public MinHashAlgorithm algorithm() {
        return algorithm;
    }

    /** The MinHash these options describe (default seed). */
    public MinHash minHash() {
        validate();
        return MinHash.create(algorithm, numHashes, MinHash.DEFAULT_SEED);
    }

    /** For example "word 5-shingles, stop words kept, no stemming; MinHash oph, K = 128". */
    public String describe() {
        return shingleDescription()
                + ", "
                + (stopWords ? "stop words removed" : "stop words kept")
                + ", "
                + (stem == Stem.NONE ? "no stemming" : name(stem) + " stemming")
                + "; MinHash "
                + name(algorithm)
                + ", K = "
                + numHashes;
    }

    /** For example "word 5-shingles" or "char 9-shingles". */
    public String shingleDescription() {
        return name(shingle) + " " + shingleSize() + "-shingles";
    }

    /** The lower-case command-line spelling of an enum value. */
    static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
