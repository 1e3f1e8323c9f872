package dev.neardup.text;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UScript;
import com.ibm.icu.text.Normalizer2;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.tartarus.snowball.SnowballStemmer;
import org.tartarus.snowball.ext.EnglishStemmer;
import org.tartarus.snowball.ext.PorterStemmer;

/**
 * Normalises text and splits it into tokens, written as UTF-8 into one buffer and separated by
 * single spaces: the <em>normalised buffer</em> that {@link Shingler} hashes. This is the
 * normalisation step of Broder 1997 (case, punctuation and white space do not make two pages
 * different), with its optional stop-word removal and Porter stemming, and, for scripts written
 * without spaces, the overlapping bigrams of Lucene's CJKBigramFilter.
 *
 * <p>Contract (the shingle hashes, and so the stored state, depend on it):
 *
 * <ol>
 *   <li>The text is normalised to Unicode <b>NFKC_Casefold</b> (NFKC, full case folding, default
 *       ignorables such as soft hyphen and zero-width joiner removed), through ICU4J; the result is
 *       that of normalising the whole text, however it is computed.
 *   <li>A token is a maximal run of code points that are letters ({@code UCharacter.isLetter}) or
 *       decimal digits ({@code UCharacter.isDigit}), with combining marks ({@code Mn}, {@code Mc},
 *       {@code Me}) attached to the token they follow. Everything else separates tokens. The
 *       Unicode data is ICU4J's, pinned by the pom, not the JVM's, which changes with the JDK.
 *   <li><b>Scripts written without spaces</b> (word tokens only, see {@link #Tokenizer(boolean,
 *       Stemming, boolean)}): inside a token, a maximal run of letters and digits whose
 *       Script_Extensions are all among Han, Hiragana, Katakana, Hangul (the scripts of Lucene's
 *       CJKBigramFilter) and Thai, Lao, Khmer, Myanmar, each with the marks after it (a
 *       <em>unit</em>), becomes the overlapping pairs of its units (n units give n - 1 bigram
 *       tokens), or its unit alone if it has only one. The rest of the token, before and after such
 *       runs, stays whole: {@code "abc東京都def"} gives {@code abc 東京 京都 def}. Text without letters of
 *       these scripts is not affected by this rule.
 *   <li>With stop words on, tokens in Lucene's English stop set ({@link
 *       EnglishAnalyzer#ENGLISH_STOP_WORDS_SET}, 33 words) are dropped.
 *   <li>With stemming on, each remaining token is replaced by its Porter (1980) or Snowball English
 *       ("Porter2") stem, computed by Lucene's Snowball stemmers.
 * </ol>
 *
 * <p>Not thread-safe: it reuses its buffers between calls. Use one instance per thread. Design:
 * docs/design/tokens.md.
 */
public final class Tokenizer {

    /**
     * Version of the token contract above, recorded with the job's state: 1 until November 2026; 2
     * adds the bigram rule for scripts written without spaces (item 3), which changes the tokens of
     * text in those scripts and of nothing else.
     */
    public static final int CONTRACT_VERSION = 2;

    /** Optional stemming of tokens (Porter 1980). */
    public enum Stemming {
        /** Tokens are kept as they are (the default). */
        NONE,
        /** The original Porter (1980) algorithm. */
        PORTER,
        /** Snowball English, also known as Porter2: a revised Porter. */
        SNOWBALL_ENGLISH
    }

    private static final Normalizer2 NFKC_CASEFOLD = Normalizer2.getNFKCCasefoldInstance();
    private static final CharArraySet STOP_WORDS = EnglishAnalyzer.ENGLISH_STOP_WORDS_SET;

    /** ASCII character to its token byte (lower-cased letter or digit), 0 for separators. */
    private static final byte[] ASCII_TOKEN_BYTE = new byte[128];

    static {
        for (char c = 0; c < 128; c++) {
            if (Character.isLetterOrDigit(c)) {
                ASCII_TOKEN_BYTE[c] = (byte) Character.toLowerCase(c);
            }
        }
    }

    private final boolean removeStopWords;
    private final boolean segmentScripts;
    private final SnowballStemmer stemmer;

    private static final byte SEPARATOR = 0;
    private static final byte LETTER = 1;
    private static final byte MARK = 2;

    /** A letter or digit of a script of {@link #BIGRAM_SCRIPTS}. */
    private static final byte BIGRAM = 3;

    /** {@link #FLAGS} bit: NFKC_Casefold has a boundary before the character. */
    private static final byte BOUNDARY_BEFORE = 1;

    /**
     * {@link #FLAGS} bit: the character has a boundary before it and, when a boundary follows it,
     * normalises to the one (non-surrogate) character {@link #SINGLE}{@code [c]}.
     */
    private static final byte SIMPLE = 2;

    /** Per BMP character (surrogates excluded): {@link #BOUNDARY_BEFORE}, {@link #SIMPLE}. */
    private static final byte[] FLAGS = new byte[0x10000];

    /** Per {@link #SIMPLE} BMP character: its NFKC_Casefold, computed by ICU at class loading. */
    private static final char[] SINGLE = new char[0x10000];

    /**
     * Scripts written without spaces between words, whose letters are bigrammed (rule 3): those of
     * Lucene's CJKBigramFilter (Han, Hiragana, Katakana, Hangul), and Thai, Lao, Khmer and Myanmar.
     */
    private static final int[] BIGRAM_SCRIPTS = {
        UScript.HAN,
        UScript.HIRAGANA,
        UScript.KATAKANA,
        UScript.HANGUL,
        UScript.THAI,
        UScript.LAO,
        UScript.KHMER,
        UScript.MYANMAR
    };

    /** {@link #kindOf} for every BMP code point; surrogates are separators. */
    private static final byte[] BMP_KIND = new byte[0x10000];

    static {
        for (int c = 0; c < 0x10000; c++) {
            if (Character.isSurrogate((char) c)) {
                continue; // a separator, without flags
            }
            BMP_KIND[c] = kindOf(c);
            int flags = 0;
            if (NFKC_CASEFOLD.isInert(c)) {
                // Boundaries before and after it, and normalisation leaves it alone.
                flags = BOUNDARY_BEFORE | SIMPLE;
                SINGLE[c] = (char) c;
            } else if (NFKC_CASEFOLD.hasBoundaryBefore(c)) {
                flags = BOUNDARY_BEFORE;
                String n = NFKC_CASEFOLD.normalize(String.valueOf((char) c));
                if (n.length() == 1 && !Character.isSurrogate(n.charAt(0))) {
                    flags |= SIMPLE;
                    SINGLE[c] = n.charAt(0);
                }
            }
            FLAGS[c] = (byte) flags;
        }
    }

    private final StringBuilder normalized = new StringBuilder();
    private char[] chars = new char[256];
    private char[] tokenChars = new char[32];
    private byte[] buf = new byte[256];
    private int length;
    private int[] starts = new int[64];
    private int[] ends = new int[64];
    private int count;
    private boolean ascii;
    // Token state while tokenizing: tokens closed so far, and 1 inside a token (else 0).
    private int closed;
    private int inToken;

    // The open run of BIGRAM letters (inRun), not yet written as tokens: its UTF-8 and where each
    // of its units (a letter and the marks after it) starts.
    private boolean inRun;

    // A lone high surrogate just read from normalised text, or 0.
    private char pendingHighSurrogate;
    private byte[] runBytes = new byte[64];
    private int runLength;
    private int[] unitStarts = new int[16];
    private int units;

    /**
     * A tokenizer of word tokens, with the script rule (rule 3 of the contract: bigrams).
     *
     * @param removeStopWords drop English stop words
     * @param stemming which stemmer to apply, if any
     */
    public Tokenizer(boolean removeStopWords, Stemming stemming) {
        this(removeStopWords, stemming, true);
    }

    /**
     * @param removeStopWords drop English stop words
     * @param stemming which stemmer to apply, if any
     * @param segmentScripts apply rule 3 of the contract (bigrams of scripts written without
     *     spaces): true for word tokens; false keeps such a run as one token, as character shingles
     *     want it (their k-shingles already see every character)
     */
    public Tokenizer(boolean removeStopWords, Stemming stemming, boolean segmentScripts) {
        this.removeStopWords = removeStopWords;
        this.segmentScripts = segmentScripts;
        this.stemmer =
                switch (stemming) {
                    case PORTER -> new PorterStemmer();
                    case SNOWBALL_ENGLISH -> new EnglishStemmer();
                    case NONE -> null;
                };
    }

    /**
     * Tokenizes {@code text}, replacing the result of the previous call.
     *
     * @return this, to read the tokens from
     */
    public Tokenizer tokenize(CharSequence text) {
        int n = text.length();
        if (chars.length < n) {
            chars = new char[Math.max(n, 2 * chars.length)];
        }
        if (text instanceof String s) {
            s.getChars(0, n, chars, 0);
        } else if (text instanceof StringBuilder b) {
            b.getChars(0, n, chars, 0);
        } else {
            for (int i = 0; i < n; i++) {
                chars[i] = text.charAt(i);
            }
        }
        return tokenizeChars(chars, 0, n);
    }

    /**
     * Tokenizes the {@code length} characters of {@code text} from {@code offset}, with the same
     * result as {@code tokenize(new String(text, offset, length))} but without the copy; the array
     * is only read, and not kept after the call.
     *
     * @return this, to read the tokens from
     */
    public Tokenizer tokenize(char[] text, int offset, int length) {
        java.util.Objects.checkFromIndexSize(offset, length, text.length);
        return tokenizeChars(text, offset, length);
    }

    private Tokenizer tokenizeChars(char[] in, int from, int n) {
        int to = from + n;
        length = 0;
        count = 0;
        closed = 0;
        inToken = 0;
        ascii = true;
        pendingHighSurrogate = 0;
        inRun = false;
        units = 0;
        runLength = 0;
        int i = from;
        while (i < to) {
            // The ASCII run is copied as it is (NFKC_Casefold of ASCII is lower-casing), up to the
            // first non-ASCII character j.
            endPendingHighSurrogate();
            if (inRun) {
                flushRun(); // an ASCII character ends the run, whether letter or separator
            }
            int prevBefore = inToken;
            ensureBuffer(length + (to - i) + 2);
            int j = tokenizeAscii(in, i, to);
            if (j == to) {
                break;
            }
            // Normalisation segments start at a boundary: every ASCII character has one before
            // it, but the character after it may combine with it ("e" + U+0301 is "é"), and then
            // the ASCII character is taken back and normalised with what follows.
            ensureBuffer(length + 4 * (to - j) + 2);
            if (j > i && !hasBoundaryBefore(in, j, to)) {
                undoAscii(j - 1 > i ? in[j - 2] : -1, prevBefore, in[j - 1]);
                j = normalizePiece(in, j - 1, to);
            }
            i = tokenizeNonAscii(in, j, to);
        }
        endPendingHighSurrogate();
        if (inRun) {
            flushRun();
        }
        if (inToken == 1) {
            ends[closed++] = length;
        } else if (length > 0) {
            length--; // the separator written after the last token
        }
        if (removeStopWords || stemmer != null) {
            applyFilters();
        }
        return this;
    }

    /**
     * The branch-free fast path for a run of ASCII characters (docs/design/tokens.md): a closed
     * token is always followed by a separator in the buffer. Stops at the first non-ASCII character
     * and returns its index, or {@code to}. The buffer must have room for {@code to - from + 1}
     * more bytes.
     */
    private int tokenizeAscii(char[] in, int from, int to) {
        final byte[] table = ASCII_TOKEN_BYTE;
        final byte[] out = buf;
        int o = length;
        int tokens = count;
        int done = closed;
        int prev = inToken;
        int[] st = starts;
        int[] en = ends;
        int i = from;
        for (; i < to; i++) {
            char c = in[i];
            if (c >= 0x80) {
                break;
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
            en[done] = o;
            done += prev & ~tok;
            o += tok | prev;
            prev = tok;
        }
        length = o;
        count = tokens;
        closed = done;
        inToken = prev;
        return i;
    }

    /**
     * Takes back the last character {@code c} written by {@link #tokenizeAscii}: {@code before} is
     * the ASCII character before it in the same run ({@code -1} if it was the run's first), and
     * {@code prevBefore} the token state when the run started.
     */
    private void undoAscii(int before, int prevBefore, char c) {
        int p = before < 0 ? prevBefore : (ASCII_TOKEN_BYTE[before] != 0 ? 1 : 0);
        int t = ASCII_TOKEN_BYTE[c] != 0 ? 1 : 0;
        length -= t | p;
        count -= t & ~p;
        closed -= p & ~t;
        inToken = p;
    }

    /**
     * Tokenizes from {@code in[i]}, which is at a normalisation boundary and not ASCII, up to the
     * next ASCII character (which has a boundary before it; its index is returned) or {@code to}. A
     * character that normalises on its own to one character, followed by a boundary, is mapped
     * through {@link #SINGLE}; anything else goes through ICU one boundary-to-boundary piece at a
     * time. The buffer has room for 4 bytes per character.
     */
    private int tokenizeNonAscii(char[] in, int i, int to) {
        while (i < to) {
            char c = in[i];
            if (c < 0x80) {
                return i;
            }
            int next = i + 1;
            if ((FLAGS[c] & SIMPLE) != 0
                    && (next == to || in[next] < 0x80 || hasBoundaryBefore(in, next, to))) {
                feed(SINGLE[c]);
                i = next;
            } else {
                i = normalizePiece(in, i, to);
            }
        }
        return to;
    }

    /**
     * Normalises {@code in[start, q)}, where {@code start} is at a normalisation boundary and
     * {@code q} the next boundary after the code point at {@code start}, feeds the result to the
     * tokens, and returns {@code q}.
     */
    private int normalizePiece(char[] in, int start, int to) {
        int q = start + Character.charCount(Character.codePointAt(in, start, to));
        while (q < to && !hasBoundaryBefore(in, q, to)) {
            q += Character.charCount(Character.codePointAt(in, q, to));
        }
        normalized.setLength(0);
        NFKC_CASEFOLD.normalize(CharBuffer.wrap(in, start, q - start), normalized);
        int m = normalized.length();
        ensureBuffer(length + 4 * m + 4 * (to - q) + 2);
        for (int k = 0; k < m; ) {
            int cp = Character.codePointAt(normalized, k);
            k += Character.charCount(cp);
            feed(cp);
        }
        return q;
    }

    /** Whether the code point at {@code in[k]} has a normalisation boundary before it. */
    private static boolean hasBoundaryBefore(char[] in, int k, int to) {
        char c = in[k];
        if (!Character.isSurrogate(c)) {
            return (FLAGS[c] & BOUNDARY_BEFORE) != 0;
        }
        return NFKC_CASEFOLD.hasBoundaryBefore(Character.codePointAt(in, k, to));
    }

    /**
     * One code point of normalised text into the token state machine; the buffer has room for it
     * and a separator.
     */
    private void feed(int cp) {
        // Code points are read from the concatenated normalised pieces, as if from one string: a
        // lone high surrogate at the end of a piece and a lone low surrogate at the start of the
        // next one (where normalisation removed what was between them, such as a soft hyphen)
        // form a pair.
        if (pendingHighSurrogate != 0) {
            char high = pendingHighSurrogate;
            pendingHighSurrogate = 0;
            if (Character.isLowSurrogate((char) cp) && cp < 0x10000) {
                cp = Character.toCodePoint(high, (char) cp);
            } else {
                separator();
            }
        }
        if (cp < 0x10000 && Character.isHighSurrogate((char) cp)) {
            pendingHighSurrogate = (char) cp;
            return;
        }
        int kind = cp < 0x10000 ? BMP_KIND[cp] : kindOf(cp);
        if (kind == BIGRAM && !segmentScripts) {
            kind = LETTER;
        }
        if (kind == MARK) {
            // A mark belongs to what it follows: a token or a bigram unit.
            if (inRun) {
                appendToUnit(cp);
            } else if (inToken == 1) {
                appendUtf8(cp);
            }
            return;
        }
        if (kind == LETTER) {
            if (inRun) {
                flushRun();
            }
            if (inToken == 0) {
                startToken();
                inToken = 1;
            }
            appendUtf8(cp);
            return;
        }
        if (kind == SEPARATOR) {
            separator();
            return;
        }
        if (inToken == 1) {
            closeToken();
        }
        inRun = true; // BIGRAM
        startUnit();
        appendToUnit(cp);
    }

    /** A lone high surrogate not followed by a low one is a separator. */
    private void endPendingHighSurrogate() {
        if (pendingHighSurrogate != 0) {
            pendingHighSurrogate = 0;
            separator();
        }
    }

    private void separator() {
        if (inToken == 1) {
            closeToken();
        }
        if (inRun) {
            flushRun();
        }
    }

    private void startToken() {
        if (count == starts.length - 1) {
            starts = Arrays.copyOf(starts, 2 * starts.length);
            ends = Arrays.copyOf(ends, 2 * ends.length);
        }
        starts[count++] = length;
    }

    /** Ends the open token and writes the separator after it (dropped at the very end). */
    private void closeToken() {
        ends[closed++] = length;
        buf[length++] = ' ';
        inToken = 0;
    }

    private void startUnit() {
        if (units == unitStarts.length - 1) {
            unitStarts = Arrays.copyOf(unitStarts, 2 * unitStarts.length);
        }
        unitStarts[units++] = runLength;
    }

    private void appendToUnit(int cp) {
        if (runBytes.length < runLength + 4) {
            runBytes = Arrays.copyOf(runBytes, 2 * runBytes.length + 4);
        }
        runLength = encodeUtf8(cp, runBytes, runLength);
    }

    /**
     * Writes the open run as tokens: a run of one unit as that unit, of n &gt; 1 units as its n - 1
     * overlapping pairs of units (Lucene's CJKBigramFilter, without its unigram option).
     */
    private void flushRun() {
        unitStarts[units] = runLength;
        ensureBuffer(length + 2 * runLength + units + 2);
        if (units == 1) {
            writeToken(runBytes, 0, runLength);
        } else {
            for (int u = 0; u + 1 < units; u++) {
                writeToken(runBytes, unitStarts[u], unitStarts[u + 2]);
            }
        }
        units = 0;
        runLength = 0;
        inRun = false;
    }

    /** Writes {@code bytes[from, to)} (not ASCII) as a whole token, followed by its separator. */
    private void writeToken(byte[] bytes, int from, int to) {
        startToken();
        System.arraycopy(bytes, from, buf, length, to - from);
        length += to - from;
        ascii = false;
        closeToken();
    }

    /**
     * What a code point is to the tokenizer: {@link #SEPARATOR}, {@link #LETTER}, {@link #MARK}.
     */
    private static byte kindOf(int cp) {
        if (cp < 0x80) {
            return ASCII_TOKEN_BYTE[cp] != 0 ? LETTER : SEPARATOR;
        }
        if (UCharacter.isLetter(cp) || UCharacter.isDigit(cp)) {
            return scriptKind(cp);
        }
        return isMark(cp) ? MARK : SEPARATOR;
    }

    /**
     * {@link #BIGRAM} for a letter or digit whose Script_Extensions (which for most characters is
     * just its Script) are all in {@link #BIGRAM_SCRIPTS}, else {@link #LETTER}: U+30FC
     * KATAKANA-HIRAGANA PROLONGED SOUND MARK (Hiragana, Katakana) is bigrammed, U+02BC MODIFIER
     * LETTER APOSTROPHE (Latin, Thai and five more) is not.
     */
    private static byte scriptKind(int cp) {
        BitSet scripts = new BitSet();
        UScript.getScriptExtensions(cp, scripts);
        for (int s : BIGRAM_SCRIPTS) {
            scripts.clear(s);
        }
        return scripts.isEmpty() ? BIGRAM : LETTER;
    }

    private void appendUtf8(int cp) {
        if (cp < 0x80) {
            buf[length++] = ASCII_TOKEN_BYTE[cp];
        } else {
            ascii = false;
            length = encodeUtf8(cp, buf, length);
        }
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
            byte[] token = Arrays.copyOfRange(in, starts[i], ends[i]);
            if (stemmer != null) {
                // The stemmer works in place on the array it is given and may replace it.
                stemmer.setCurrent(tokenChars, tokenLength);
                stemmer.stem();
                tokenChars = stemmer.getCurrentBuffer();
                int stemLength = stemmer.getCurrentBufferLength();
                // Porter's step 1a stems "s" (as in "it's") to "": the token is then kept as it
                // is rather than written empty.
                if (stemLength > 0) {
                    token = new String(tokenChars, 0, stemLength).getBytes(StandardCharsets.UTF_8);
                }
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
        String token = new String(in, start, end - start, StandardCharsets.UTF_8);
        if (tokenChars.length < token.length()) {
            tokenChars = new char[2 * token.length()];
        }
        token.getChars(0, token.length(), tokenChars, 0);
        return token.length();
    }

    /** Grows the buffer, keeping its content, to at least {@code capacity} bytes. */
    private void ensureBuffer(int capacity) {
        if (buf.length < capacity) {
            buf = Arrays.copyOf(buf, Math.max(capacity, 2 * buf.length));
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
     * True when the buffer is pure ASCII (one byte per code point), as it is for ASCII text and for
     * text such as "ﬁle" that normalises to ASCII.
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

    /** The normalised text: the tokens joined by single spaces. */
    public String normalizedText() {
        return new String(buf, 0, length, StandardCharsets.UTF_8);
    }

    /** Writes the UTF-8 encoding of {@code cp} at {@code out[o]}; returns the position after it. */
    private static int encodeUtf8(int cp, byte[] out, int o) {
        if (cp < 0x80) {
            out[o++] = (byte) cp;
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
        return o;
    }
}
