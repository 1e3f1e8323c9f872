package dev.neardup.text;

import java.io.Serializable;
import java.util.Objects;

/**
 * How documents become shingle hashes: the shingle kind and size, and the normalisation switches of
 * Broder 1997 (stop words, Porter 1980 stemming). Two documents can only be compared when they were
 * shingled with equal options.
 *
 * @param kind word shingles (Broder 1997) or character shingles (Leskovec, Rajaraman and Ullman,
 *     Mining of Massive Datasets, 2014, ch. 3)
 * @param size w for word shingles (default 5), k for character shingles (in practice 5 &lt; k &lt;
 *     10, Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, 2014, ch. 3)
 * @param removeStopWords drop English stop words before shingling (default off)
 * @param stemming stem tokens before shingling (default none)
 * @param seed seed of the XXH3 shingle hash
 */
public record ShingleOptions(
        Kind kind, int size, boolean removeStopWords, Tokenizer.Stemming stemming, long seed)
        implements Serializable {

    /** Word or character shingles. */
    public enum Kind {
        /** w consecutive tokens (Broder's 1997 w-shingles). */
        WORD,
        /**
         * k consecutive characters of the normalised text (k-shingles, Leskovec, Rajaraman and
         * Ullman, Mining of Massive Datasets, 2014, ch. 3).
         */
        CHAR
    }

    /** Default word shingle size w. */
    public static final int DEFAULT_WORD_SIZE = 5;

    /** Default character shingle size k. */
    public static final int DEFAULT_CHAR_SIZE = 9;

    /** Default shingle hash seed. Changing it changes every hash: it is part of stored state. */
    public static final long DEFAULT_SEED = 0x6E656172_64757031L; // "neardup1"

    /** Largest shingle size accepted. */
    public static final int MAX_SIZE = 64;

    public ShingleOptions {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(stemming, "stemming");
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException(
                    "shingle size must be between 1 and " + MAX_SIZE + ", got " + size);
        }
    }

    /** Word 5-shingles, no stop-word removal, no stemming, default seed. */
    public static ShingleOptions defaults() {
        return words(DEFAULT_WORD_SIZE);
    }

    /** Word w-shingles with the other options at their defaults. */
    public static ShingleOptions words(int w) {
        return new ShingleOptions(Kind.WORD, w, false, Tokenizer.Stemming.NONE, DEFAULT_SEED);
    }

    /** Character k-shingles with the other options at their defaults. */
    public static ShingleOptions chars(int k) {
        return new ShingleOptions(Kind.CHAR, k, false, Tokenizer.Stemming.NONE, DEFAULT_SEED);
    }

    /** A copy with stop-word removal switched as given. */
    public ShingleOptions withStopWords(boolean remove) {
        return new ShingleOptions(kind, size, remove, stemming, seed);
    }

    /** A copy with the given stemming. */
    public ShingleOptions withStemming(Tokenizer.Stemming newStemming) {
        return new ShingleOptions(kind, size, removeStopWords, newStemming, seed);
    }

    /** A copy with the given hash seed. */
    public ShingleOptions withSeed(long newSeed) {
        return new ShingleOptions(kind, size, removeStopWords, stemming, newSeed);
    }
}
