package dev.neardup.text;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.nio.charset.StandardCharsets;

/**
 * Turns a document into the 64-bit hashes of its shingles: a shingle is represented by a hash of
 * it, not by its text (Broder 1997), over word shingles (Broder 1997) or character k-shingles
 * (Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, 2014, ch. 3).
 *
 * <p>Contract (a change here changes every signature and band key, and so stored state):
 *
 * <ul>
 *   <li>The text is tokenized by {@link Tokenizer}; the tokens, joined by single spaces, form the
 *       UTF-8 <em>normalised buffer</em>. Word shingles use the tokenizer's rule 3 (bigrams of
 *       scripts written without spaces, so that such pages get word shingles at all); character
 *       shingles do not (such a run stays one token).
 *   <li>Word w-shingle {@code i} is the buffer range from the start of token {@code i} to the end
 *       of token {@code i+w-1} (the w tokens with single spaces between them). Character k-shingle
 *       {@code i} is the k code points of the buffer starting at code point {@code i} (spaces
 *       between tokens included).
 *   <li>A shingle's hash is XXH3-64 with seed {@link ShingleOptions#seed()} over the shingle's
 *       UTF-8 bytes (hash4j's {@code Hashing.xxh3_64(seed)}, identical to the reference C
 *       implementation on every platform). In Python: {@code xxhash.xxh3_64_intdigest(
 *       shingle.encode("utf-8"), seed)}, read as a signed 64-bit value.
 *   <li>A document with fewer tokens than w (fewer code points than k) but at least one has exactly
 *       one shingle: its whole normalised buffer. A document with no tokens has no shingles (an
 *       empty array).
 *   <li>Hashes come in document order and may repeat (a repeated shingle); callers that need a set
 *       use {@code ShingleSet} in the sketch package. MinHash is insensitive to repeats.
 * </ul>
 *
 * <p>Not thread-safe (it reuses its tokenizer's and HTML extractor's buffers): one instance per
 * thread.
 */
public final class Shingler {

    private final ShingleOptions options;
    private final Tokenizer tokenizer;
    private final Hasher64 hash;
    private final HtmlText html = new HtmlText();
    private int[] codePointStarts = new int[256];

    public Shingler(ShingleOptions options) {
        this.options = options;
        this.tokenizer =
                new Tokenizer(
                        options.removeStopWords(),
                        options.stemming(),
                        options.kind() == ShingleOptions.Kind.WORD);
        this.hash = Hashing.xxh3_64(options.seed());
    }

    public ShingleOptions options() {
        return options;
    }

    /** Shingle hashes of a plain-text document. */
    public long[] shingleHashes(CharSequence text) {
        tokenizer.tokenize(text);
        return hashTokens();
    }

    /** Shingle hashes of a document of the given content type (HTML is reduced to its text). */
    public long[] shingleHashes(String content, ContentType type) {
        if (type == ContentType.HTML) {
            html.extract(content);
            tokenizer.tokenize(html.extractedChars(), 0, html.extractedLength());
        } else {
            tokenizer.tokenize(content);
        }
        return hashTokens();
    }

    /** The shingle hashes of the last tokenize() call. */
    private long[] hashTokens() {
        int n = shingleCount();
        long[] out = new long[n];
        byte[] buf = tokenizer.buffer();
        for (int i = 0; i < n; i++) {
            int start = shingleStart(i);
            out[i] = hash.hashBytesToLong(buf, start, shingleEnd(i) - start);
        }
        return out;
    }

    /**
     * The shingles themselves, as text, in document order (allocates; for tools and tests). {@code
     * shingles(t)[i]} hashes to {@code shingleHashes(t)[i]}.
     */
    public String[] shingles(CharSequence text) {
        tokenizer.tokenize(text);
        String[] out = new String[shingleCount()];
        byte[] buf = tokenizer.buffer();
        for (int i = 0; i < out.length; i++) {
            int start = shingleStart(i);
            out[i] = new String(buf, start, shingleEnd(i) - start, StandardCharsets.UTF_8);
        }
        return out;
    }

    /** The normalised buffer of {@code text} as a string: its tokens joined by single spaces. */
    public String normalize(CharSequence text) {
        return tokenizer.tokenize(text).normalizedText();
    }

    // The three methods below describe the shingles of the last tokenize() call.

    private int shingleCount() {
        int tokens = tokenizer.tokenCount();
        if (tokens == 0) {
            return 0;
        }
        int size = options.size();
        if (options.kind() == ShingleOptions.Kind.WORD) {
            return tokens < size ? 1 : tokens - size + 1;
        }
        int codePoints = indexCodePoints();
        return codePoints < size ? 1 : codePoints - size + 1;
    }

    private int shingleStart(int i) {
        if (options.kind() == ShingleOptions.Kind.WORD) {
            return tokenizer.tokenStart(i);
        }
        return tokenizer.isAscii() ? i : codePointStarts[i];
    }

    private int shingleEnd(int i) {
        int size = options.size();
        if (options.kind() == ShingleOptions.Kind.WORD) {
            return tokenizer.tokenEnd(Math.min(i + size, tokenizer.tokenCount()) - 1);
        }
        int length = tokenizer.bufferLength();
        if (tokenizer.isAscii()) {
            return Math.min(i + size, length);
        }
        int end = i + size;
        return end < codePointCount ? codePointStarts[end] : length;
    }

    private int codePointCount;

    /** Counts code points of the buffer and, unless it is ASCII, records where each starts. */
    private int indexCodePoints() {
        byte[] buf = tokenizer.buffer();
        int length = tokenizer.bufferLength();
        if (tokenizer.isAscii()) {
            codePointCount = length;
            return length;
        }
        if (codePointStarts.length < length) {
            codePointStarts = new int[Math.max(length, 2 * codePointStarts.length)];
        }
        int n = 0;
        for (int i = 0; i < length; i++) {
            if ((buf[i] & 0xC0) != 0x80) { // not a UTF-8 continuation byte
                codePointStarts[n++] = i;
            }
        }
        codePointCount = n;
        return n;
    }
}
