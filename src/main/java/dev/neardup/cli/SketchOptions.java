package dev.neardup.cli;

import dev.neardup.config.NearDupOptions;
import dev.neardup.runtime.NeardupException;
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
            description =
                    "Shingle kind: word (w consecutive tokens) or char (k consecutive characters"
                            + " of the normalised text). Default: ${bundle:neardup.shingle.kind}.")
    ShingleKind shingle;

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
    Boolean stopWords;

    @Option(
            names = "--stem",
            paramLabel = "none|porter|snowball",
            converter = EnumConverter.StemConverter.class,
            description =
                    "Stem tokens before shingling: none, porter (Porter 1980) or snowball (Snowball"
                            + " English, Porter2). Default: ${bundle:neardup.text.stemming}.")
    Stem stem;

    @Option(
            names = "--num-hashes",
            paramLabel = "K",
            description =
                    "MinHash signature length K, 1 to 4096; the estimate's standard error is about"
                            + " sqrt(J (1 - J) / K). Default: ${bundle:neardup.num-hashes}.")
    Integer numHashes;

    @Option(
            names = "--algorithm",
            paramLabel = "oph|classic",
            converter = EnumConverter.AlgorithmConverter.class,
            description =
                    "MinHash algorithm: oph (one-permutation hashing with optimal densification,"
                            + " fast) or classic (K independent hash functions)."
                            + " Default: ${bundle:neardup.minhash}.")
    MinHashAlgorithm algorithm;

    /** Checks the values; throws a usage error naming the option. */
    public void validate() {
        if (shingleSize != null && (shingleSize < 1 || shingleSize > ShingleOptions.MAX_SIZE)) {
            throw NeardupException.usage(
                    "--shingle-size must be between 1 and "
                            + ShingleOptions.MAX_SIZE
                            + ", got "
                            + shingleSize);
        }
        if (numHashes != null && (numHashes < 1 || numHashes > 4096)) {
            throw NeardupException.usage(
                    "--num-hashes (K) must be between 1 and 4096, got " + numHashes);
        }
    }

    /** The shingle size in effect: the given one or the kind's default. */
    public int shingleSize() {
        return shingleSize != null ? shingleSize : shingleKind().defaultSize;
    }

    /**
     * The shingle kind in effect: the given one or {@link NearDupOptions#SHINGLE_KIND}'s default.
     */
    public ShingleKind shingleKind() {
        if (shingle != null) {
            return shingle;
        }
        ShingleOptions.Kind kind = NearDupOptions.SHINGLE_KIND.defaultValue();
        return kind == ShingleOptions.Kind.WORD ? ShingleKind.WORD : ShingleKind.CHAR;
    }

    /** Whether stop words are dropped: given, or {@link NearDupOptions#STOP_WORDS}'s default. */
    public boolean stopWords() {
        return stopWords != null ? stopWords : NearDupOptions.STOP_WORDS.defaultValue();
    }

    /** The stemmer in effect: given, or {@link NearDupOptions#STEMMING}'s default. */
    public Stem stem() {
        if (stem != null) {
            return stem;
        }
        for (Stem s : Stem.values()) {
            if (s.stemming == NearDupOptions.STEMMING.defaultValue()) {
                return s;
            }
        }
        throw new IllegalStateException("no --stem for " + NearDupOptions.STEMMING.defaultValue());
    }

    /**
     * Sets in {@code conf} the options given on the command line, and only those: an option not
     * named keeps the value of {@code -D} or the cluster's configuration.
     */
    void applyTo(org.apache.flink.configuration.Configuration conf) {
        validate();
        if (numHashes != null) {
            conf.set(NearDupOptions.NUM_HASHES, numHashes);
        }
        if (algorithm != null) {
            conf.set(NearDupOptions.ALGORITHM, algorithm);
        }
        if (shingle != null) {
            conf.set(NearDupOptions.SHINGLE_KIND, shingle.kind);
        }
        if (shingleSize != null) {
            conf.set(NearDupOptions.SHINGLE_SIZE, shingleSize);
        }
        if (stopWords != null) {
            conf.set(NearDupOptions.STOP_WORDS, stopWords);
        }
        if (stem != null) {
            conf.set(NearDupOptions.STEMMING, stem.stemming);
        }
    }

    /** The shingle options these command-line options describe (default seed). */
    public ShingleOptions shingleOptions() {
        validate();
        return new ShingleOptions(
                shingleKind().kind,
                shingleSize(),
                stopWords(),
                stem().stemming,
                ShingleOptions.DEFAULT_SEED);
    }

    /** K. */
    public int numHashes() {
        return numHashes != null ? numHashes : NearDupOptions.NUM_HASHES.defaultValue();
    }

    /** The MinHash algorithm. */
    public MinHashAlgorithm algorithm() {
        return algorithm != null ? algorithm : NearDupOptions.ALGORITHM.defaultValue();
    }

    /** The MinHash these options describe (default seed). */
    public MinHash minHash() {
        validate();
        return MinHash.create(algorithm(), numHashes(), MinHash.DEFAULT_SEED);
    }

    /** For example "word 5-shingles, stop words kept, no stemming; MinHash oph, K = 128". */
    public String describe() {
        return shingleDescription()
                + ", "
                + (stopWords() ? "stop words removed" : "stop words kept")
                + ", "
                + (stem() == Stem.NONE ? "no stemming" : name(stem()) + " stemming")
                + "; MinHash "
                + name(algorithm())
                + ", K = "
                + numHashes();
    }

    /** For example "word 5-shingles" or "char 9-shingles". */
    public String shingleDescription() {
        return name(shingleKind()) + " " + shingleSize() + "-shingles";
    }

    /** The lower-case command-line spelling of an enum value. */
    static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
