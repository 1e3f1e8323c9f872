package dev.neardup.text;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.text.Normalizer2;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.tartarus.snowball.SnowballStemmer;
import org.tartarus.snowball.ext.EnglishStemmer;
import org.tartarus.snowball.ext.PorterStemmer;

/**
 * A frozen copy of {@link Tokenizer} as it was before the incremental normalisation (commit
 * 3d8f70b): the whole text through {@code Normalizer2.normalize} as soon as it has one non-ASCII
 * character, then the per-code-point path. The test oracle that the fast tokenizer must match byte
 * for byte on every input without the scripts that the CJK and Thai rules changed (see {@link
 * TokenizerLegacyEquivalenceTest}). Do not edit.
 */
final class LegacyTokenizer {

    private static final Normalizer2 NFKC_CASEFOLD = Normalizer2.getNFKCCasefoldInstance();
    private static final CharArraySet STOP_WORDS = EnglishAnalyzer.ENGLISH_STOP_WORDS_SET;

    /** ASCII character to its token byte (lower-cased letter or digit), 0 for separators. */
    private static final byte[] ASCII_TOKEN_BYTE = new byte[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            ASCII_TOKEN_BYTE[c] = (byte) c;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            ASCII_TOKEN_BYTE[c] = (byte) c;
            ASCII_TOKEN_BYTE[c - 'a' + 'A'] = (byte) c;
        }
    }

    private final boolean removeStopWords;
    private final SnowballStemmer stemmer;

    private char[] chars = new char[256];
    private char[] tokenChars = new char[32];
    private byte[] buf = new byte[256];
    private int length;
    private int[] starts = new int[64];
    private int[] ends = new int[64];
    private int count;
    private boolean ascii;

    /**
     * @param removeStopWords drop English stop words
     * @param stemming which stemmer to apply, if any
     */
    LegacyTokenizer(boolean removeStopWords, Tokenizer.Stemming stemming) {
        this.removeStopWords = removeStopWords;
        switch (stemming) {
            case PORTER:
                this.stemmer = new PorterStemmer();
                break;
            case SNOWBALL_ENGLISH:
                this.stemmer = new EnglishStemmer();
                break;
            default:
                this.stemmer = null;
        }
    }

    /** A tokenizer with no stop-word removal and no stemming. */
    LegacyTokenizer() {
        this(false, Tokenizer.Stemming.NONE);
    }

    /**
     * Tokenizes {@code text}, replacing the result of the previous call.
     *
     * @return this, to read the tokens from
     */
    LegacyTokenizer tokenize(CharSequence text) {
        String s = text.toString();
        int n = s.length();
        if (chars.length < n) {
            chars = new char[Math.max(n, 2 * chars.length)];
        }
        s.getChars(0, n, chars, 0);
        ensureBuffer(n + 1);
        length = 0;
        count = 0;
        ascii = true;
        if (!tokenizeAscii(chars, n)) {
            length = 0;
            count = 0;
            ascii = false;
            String normalized = NFKC_CASEFOLD.normalize(s);
            ensureBuffer(3 * normalized.length() + 1);
            tokenizeUnicode(normalized);
        }
        if (removeStopWords || stemmer != null) {
            applyFilters();
        }
        return this;
    }

    /**
     * The fast path, for pure ASCII text, without data-dependent branches: every character writes
     * either its token byte or a separator, and the output position only advances when the
     * character is a token character or the first separator after one. Returns false (the buffer
     * then holds garbage) at the first non-ASCII character.
     */
    private boolean tokenizeAscii(char[] in, int n) {
        final byte[] table = ASCII_TOKEN_BYTE;
        final byte[] out = buf;
        int o = 0;
        int tokens = 0;
        int closed = 0;
        int prev = 0;
        int[] st = starts;
        int[] en = ends;
        for (int i = 0; i < n; i++) {
            char c = in[i];
            if (c >= 0x80) {
                return false;
            }
            if (tokens == st.length - 1) {
                st = starts = Arrays.copyOf(st, 2 * st.length);
                en = ends = Arrays.copyOf(en, 2 * en.length);
            }
            int t = table[c];
            int tok = (t | -t) >>> 31; // 1 for a token character, 0 for a separator
            out[o] = (byte) (t | ((tok - 1) & ' '));
            st[tokens] = o;
            tokens += tok & ~prev;
            en[closed] = o;
            closed += prev & ~tok;
            o += tok | prev;
            prev = tok;
        }
        if (prev == 1) {
            en[closed] = o;
        } else if (o > 0) {
            o--; // the separator written after the last token
        }
        length = o;
        count = tokens;
        return true;
    }

    private void tokenizeUnicode(String normalized) {
        int n = normalized.length();
        int tokenStart = -1;
        for (int i = 0; i < n; ) {
            int cp = normalized.codePointAt(i);
            i += Character.charCount(cp);
            boolean tokenChar =
                    cp < 0x80
                            ? ASCII_TOKEN_BYTE[cp] != 0
                            : UCharacter.isLetter(cp)
                                    || UCharacter.isDigit(cp)
                                    || (tokenStart >= 0 && isMark(cp));
            if (tokenChar) {
                if (tokenStart < 0) {
                    if (length > 0) {
                        buf[length++] = ' ';
                    }
                    tokenStart = length;
                }
                appendUtf8(cp);
            } else if (tokenStart >= 0) {
                addToken(tokenStart, length);
                tokenStart = -1;
            }
        }
        if (tokenStart >= 0) {
            addToken(tokenStart, length);
        }
    }

    private void addToken(int start, int end) {
        if (count == starts.length) {
            starts = Arrays.copyOf(starts, count * 2);
            ends = Arrays.copyOf(ends, count * 2);
        }
        starts[count] = start;
        ends[count] = end;
        count++;
    }

    private void appendUtf8(int cp) {
        byte[] out = buf;
        int o = length;
        if (cp < 0x80) {
            out[o++] = ASCII_TOKEN_BYTE[cp];
        } else if (cp < 0x800) {
            out[o++] = (byte) (0xC0 | (cp >>> 6));
            out[o++] = (byte) (0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out[o++] = (byte) (0xE0 | (cp >>> 12));
            out[o++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
            out[o++] = (byte) (0x80 | (cp & 0x3F));
        } else {
            out[o++] = (byte) (0xF0 | (cp >>> 18));
            out[o++] = (byte) (0x80 | ((cp >>> 12) & 0x3F));
            out[o++] = (byte) (0x80 | ((cp >>> 6) & 0x3F));
            out[o++] = (byte) (0x80 | (cp & 0x3F));
        }
        length = o;
    }

    /**
     * Removes stop words and stems the tokens, rebuilding the buffer; only called when one of the
     * two is switched on.
     */
    private void applyFilters() {
        byte[] in = buf;
        byte[] out = new byte[in.length];
        int o = 0;
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int tokenLength = decodeToken(in, starts[i], ends[i]);
            if (removeStopWords && STOP_WORDS.contains(tokenChars, 0, tokenLength)) {
                continue;
            }
            byte[] token;
            if (stemmer != null) {
                // The stemmer works in place on the array it is given and may replace it.
                stemmer.setCurrent(tokenChars, tokenLength);
                stemmer.stem();
                tokenChars = stemmer.getCurrentBuffer();
                int stemLength = stemmer.getCurrentBufferLength();
                if (stemLength == 0) {
                    // Porter's step 1a stems "s" (as in "it's") to "": keep the token as it is
                    // rather than write an empty one.
                    token = Arrays.copyOfRange(in, starts[i], ends[i]);
                } else {
                    token = new String(tokenChars, 0, stemLength).getBytes(StandardCharsets.UTF_8);
                }
            } else {
                token = Arrays.copyOfRange(in, starts[i], ends[i]);
            }
            if (o + token.length + 1 > out.length) {
                out = Arrays.copyOf(out, 2 * (o + token.length + 1));
            }
            if (kept > 0) {
                out[o++] = ' ';
            }
            System.arraycopy(token, 0, out, o, token.length);
            starts[kept] = o;
            o += token.length;
            ends[kept] = o;
            kept++;
        }
        buf = out;
        length = o;
        count = kept;
    }

    /** Decodes the UTF-8 token {@code in[start, end)} into {@code tokenChars}; returns length. */
    private int decodeToken(byte[] in, int start, int end) {
        if (ascii) {
            int n = end - start;
            if (tokenChars.length < n) {
                tokenChars = new char[2 * n];
            }
            for (int i = 0; i < n; i++) {
                tokenChars[i] = (char) in[start + i];
            }
            return n;
        }
        String token = new String(in, start, end - start, StandardCharsets.UTF_8);
        if (tokenChars.length < token.length()) {
            tokenChars = new char[2 * token.length()];
        }
        token.getChars(0, token.length(), tokenChars, 0);
        return token.length();
    }

    private void ensureBuffer(int capacity) {
        // ASCII: at most one byte per char plus a separator per token (<= 2n + 1). Unicode:
        // callers pass 3 * length, enough for UTF-8 of BMP text plus separators.
        int needed = 2 * capacity + 1;
        if (buf.length < needed) {
            buf = new byte[needed];
        }
    }

    private static boolean isMark(int cp) {
        int type = UCharacter.getType(cp);
        return type == UCharacter.NON_SPACING_MARK
                || type == UCharacter.COMBINING_SPACING_MARK
                || type == UCharacter.ENCLOSING_MARK;
    }

    /** Number of tokens found by the last {@link #tokenize} call. */
    public int tokenCount() {
        return count;
    }

    /**
     * The normalised buffer: UTF-8 tokens separated by single spaces; valid up to {@link
     * #bufferLength()} and until the next call.
     */
    public byte[] buffer() {
        return buf;
    }

    /** Length in bytes of the used part of {@link #buffer()}. */
    public int bufferLength() {
        return length;
    }

    /**
     * True when the text took the ASCII fast path, so the buffer is pure ASCII (one byte per code
     * point). False does not promise non-ASCII: text such as "ﬁle" normalises to ASCII.
     */
    public boolean isAscii() {
        return ascii;
    }

    /** Start offset in {@link #buffer()} of token {@code i}. */
    public int tokenStart(int i) {
        return starts[i];
    }

    /** End offset (exclusive) in {@link #buffer()} of token {@code i}. */
    public int tokenEnd(int i) {
        return ends[i];
    }

    /** Token {@code i} as a string (allocates; for tests and tools, not the hot path). */
    public String token(int i) {
        return new String(buf, starts[i], ends[i] - starts[i], StandardCharsets.UTF_8);
    }

    /** The normalised text: the tokens joined by single spaces. */
    public String normalizedText() {
        return new String(buf, 0, length, StandardCharsets.UTF_8);
    }
}
