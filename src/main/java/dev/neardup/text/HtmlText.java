package dev.neardup.text;

import java.nio.CharBuffer;
import java.util.Arrays;
import java.util.Set;
import org.jsoup.parser.Parser;

/**
 * Extracts the visible text of an HTML page, as the pre-processing of Broder 1997 asks (strip HTML,
 * JavaScript, comments), with a streaming scanner over the page's characters: no DOM is built.
 *
 * <p>Contract:
 *
 * <ul>
 *   <li>{@code script}, {@code style}, {@code noscript}, {@code template}, {@code svg}, {@code
 *       math}, {@code iframe}, {@code object}, {@code head} content other than {@code title}, and
 *       comments (including {@code <![CDATA[...]]>} sections, which HTML5 reads as comments outside
 *       svg and math) are dropped; so is the content of the other raw-text elements ({@code xmp},
 *       {@code noembed}, {@code noframes}), which jsoup keeps as data, not text;
 *   <li>character references ({@code &amp;amp;}, {@code &amp;eacute;}, {@code &amp;#233;}, also the
 *       legacy ones without a semicolon such as {@code &amp;amp}) are decoded, in text and in
 *       {@code title} and {@code textarea};
 *   <li>block-level elements and {@code <br>} separate words: {@code <p>a</p><p>b</p>} gives {@code
 *       "a b"}, while inline elements do not: {@code <b>a</b>b} gives {@code "ab"};
 *   <li>the {@code title} is kept (mirrors of a page usually keep it too) and attribute values
 *       (including {@code alt}) are not.
 * </ul>
 *
 * White space is not normalised here beyond what separates blocks (a {@code '\n'}); {@link
 * Tokenizer} does that.
 *
 * <p>Markup is found as the WHATWG HTML tokenizer finds it, without rebuilding the tree; block
 * elements and named references are jsoup's. Design: docs/design/html-text.md.
 *
 * <p>Not thread-safe (an instance reuses its buffers): one instance per thread. The static methods
 * are thread-safe.
 */
public final class HtmlText {

    // Tag flags.
    private static final int BLOCK = 1; // jsoup's Tag.isBlock(): separates words
    // Never separates: the DOM walk's hidden elements, and html and body, whose tags HTML5 reads
    // only once (text after "</body>" still goes into the body).
    private static final int QUIET = 1 << 1;
    private static final int RAWTEXT = 1 << 2; // content ends at the matching end tag, dropped
    private static final int SCRIPT = 1 << 3; // script data, with its escape states, dropped
    private static final int RCDATA = 1 << 4; // text with character references, no tags
    private static final int PLAINTEXT = 1 << 5; // the rest of the page is text
    private static final int CONTAINER = 1 << 6; // hidden subtree, skipped to its balancing end
    private static final int FOREIGN = 1 << 7; // svg, math: self-closing start tags are empty

    /** Tag names of jsoup 1.21's block elements ({@code Tag.isBlock()}). */
    static final String[] BLOCK_TAGS = {
        "address",
        "applet",
        "article",
        "aside",
        "audio",
        "blockquote",
        "body",
        "br",
        "button",
        "canvas",
        "caption",
        "center",
        "col",
        "colgroup",
        "dd",
        "del",
        "details",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hgroup",
        "hr",
        "html",
        "ins",
        "li",
        "link",
        "listing",
        "main",
        "marquee",
        "menu",
        "meta",
        "nav",
        "noframes",
        "noscript",
        "ol",
        "p",
        "plaintext",
        "pre",
        "script",
        "section",
        "style",
        "table",
        "tbody",
        "td",
        "template",
        "tfoot",
        "th",
        "thead",
        "title",
        "tr",
        "ul",
        "video"
    };

    private static final int TABLE_SIZE = 256; // power of two, > 2x the names below
    private static final String[] TABLE_NAMES = new String[TABLE_SIZE];
    private static final int[] TABLE_FLAGS = new int[TABLE_SIZE];
    private static final int MAX_NAME = 10; // longest name in the table ("blockquote")

    /** Elements whose content is not visible (the DOM walk skips them). */
    static final Set<String> HIDDEN =
            Set.of(
                    "script",
                    "style",
                    "noscript",
                    "template",
                    "svg",
                    "math",
                    "iframe",
                    "object",
                    "head");

    static {
        addFlags(BLOCK, BLOCK_TAGS);
        addFlags(QUIET, HIDDEN.toArray(new String[0]));
        addFlags(QUIET, "html", "body");
        addFlags(RAWTEXT, "style", "iframe", "xmp", "noembed", "noframes");
        addFlags(SCRIPT, "script");
        addFlags(RCDATA, "title", "textarea");
        addFlags(PLAINTEXT, "plaintext");
        addFlags(CONTAINER, "noscript", "template", "object", "svg", "math");
        addFlags(FOREIGN, "svg", "math");
    }

    private static void addFlags(int flags, String... names) {
        for (String name : names) {
            int i = slot(name);
            TABLE_NAMES[i] = name;
            TABLE_FLAGS[i] |= flags;
        }
    }

    /** The table slot of {@code name}: its own, or the empty one where it would go. */
    private static int slot(String name) {
        int h = 0;
        for (int k = 0; k < name.length(); k++) {
            h = 31 * h + name.charAt(k);
        }
        int i = mix(h);
        while (TABLE_NAMES[i] != null && !TABLE_NAMES[i].equals(name)) {
            i = (i + 1) & (TABLE_SIZE - 1);
        }
        return i;
    }

    private static int mix(int h) {
        return (h ^ (h >>> 7) ^ (h >>> 13)) & (TABLE_SIZE - 1);
    }

    private static final int CACHE_SIZE = 1024; // power of two
    private static final int MAX_CACHED_REFERENCE = 40;
    private static final int RETAINED_CHARS = 1 << 20; // 2 MB per buffer at most between pages

    private char[] in = new char[1024];
    private char[] out = new char[1024];
    private int outLength;

    // Character references already decoded by jsoup, direct-mapped by hash.
    private final char[][] cacheKeys = new char[CACHE_SIZE][];
    private final String[] cacheValues = new String[CACHE_SIZE];

    // The state of the tag scanned last.
    private int tagSlot; // table slot, or -1 for a name not in the table
    private boolean selfClosing;

    // Inside a hidden container: its table slot and how many of it are open.
    private int hiddenSlot = -1;
    private int hiddenDepth;

    /** The visible text of {@code html}; never null, empty for a page with no visible text. */
    public static String visibleText(String html) {
        return new HtmlText().extract(html).toString();
    }

    /**
     * The visible text of {@code html}, as a view of this instance's buffer that stays valid only
     * until the next call. Never null, empty for a page with no visible text.
     */
    public CharSequence extract(String html) {
        int n = html.length();
        in = sized(in, n);
        out = sized(out, n + 16);
        html.getChars(0, n, in, 0);
        outLength = 0;
        hiddenSlot = -1;
        hiddenDepth = 0;
        scan(in, n);
        return CharBuffer.wrap(out, 0, outLength).asReadOnlyBuffer();
    }

    /**
     * The buffer holding the text of the last {@link #extract} call, valid up to {@link
     * #extractedLength()} and until the next call: for callers that read characters without the
     * copy a {@code String} would make.
     */
    public char[] extractedChars() {
        return out;
    }

    /** Length of the text of the last {@link #extract} call in {@link #extractedChars()}. */
    public int extractedLength() {
        return outLength;
    }

    /**
     * {@code buffer}, or a new one if it is shorter than {@code needed}, or if it is over {@link
     * #RETAINED_CHARS} and over 4 times {@code needed} (one huge page does not pin its buffers).
     */
    private static char[] sized(char[] buffer, int needed) {
        if (buffer.length < needed) {
            return new char[Math.max(needed, buffer.length + (buffer.length >> 1))];
        }
        if (buffer.length > RETAINED_CHARS && buffer.length / 4 > needed) {
            return new char[Math.max(needed, 1024)];
        }
        return buffer;
    }

    private void scan(char[] c, int n) {
        int p = 0;
        while (p < n) {
            if (hiddenDepth > 0) {
                while (p < n && c[p] != '<') {
                    p++;
                }
            } else {
                int start = p;
                char ch;
                while (p < n && (ch = c[p]) != '<' && ch != '&') {
                    p++;
                }
                append(c, start, p - start);
                if (p < n && c[p] == '&') {
                    p = reference(c, p, n);
                    continue;
                }
            }
            if (p < n) {
                p = markup(c, p, n);
            }
        }
    }

    /** Handles what starts with the {@code '<'} at {@code p}; returns where text resumes. */
    private int markup(char[] c, int p, int n) {
        if (p + 1 >= n) {
            appendVisible('<');
            return n;
        }
        char d = c[p + 1];
        if (isAsciiLetter(d)) {
            return startTag(c, p + 1, n);
        }
        if (d == '/') {
            if (p + 2 >= n) {
                appendVisible('<');
                appendVisible('/');
                return n;
            }
            char e = c[p + 2];
            if (isAsciiLetter(e)) {
                return endTag(c, p + 2, n);
            }
            return e == '>' ? p + 3 : after(c, '>', p + 2, n); // "</>" or a bogus comment
        }
        if (d == '!') {
            if (p + 3 < n && c[p + 2] == '-' && c[p + 3] == '-') {
                return comment(c, p + 4, n);
            }
            if (regionMatches(c, p + 2, n, "[CDATA[")) {
                return afterCdata(c, p + 9, n);
            }
            return after(c, '>', p + 2, n); // doctype or bogus comment
        }
        if (d == '?') {
            return after(c, '>', p + 2, n); // bogus comment
        }
        appendVisible('<');
        return p + 1;
    }

    private int startTag(char[] c, int p, int n) {
        int nameEnd = tagName(c, p, n);
        int r = attributes(c, nameEnd, n);
        if (r < 0) {
            return n; // EOF in a tag: the tag and the rest are dropped
        }
        int flags = tagSlot < 0 ? 0 : TABLE_FLAGS[tagSlot];
        if (hiddenDepth > 0) {
            if (tagSlot == hiddenSlot && !(selfClosing && (flags & FOREIGN) != 0)) {
                hiddenDepth++;
            }
            boolean foreign = (TABLE_FLAGS[hiddenSlot] & FOREIGN) != 0;
            if ((flags & SCRIPT) != 0) {
                return scriptEnd(c, r, n);
            }
            if ((flags & RAWTEXT) != 0 || ((flags & RCDATA) != 0 && !foreign)) {
                return rawEnd(c, r, n, tagSlot);
            }
            return (flags & PLAINTEXT) != 0 ? n : r;
        }
        if ((flags & CONTAINER) != 0) {
            if (!(selfClosing && (flags & FOREIGN) != 0)) {
                hiddenSlot = tagSlot;
                hiddenDepth = 1;
            }
            return r;
        }
        if ((flags & (BLOCK | QUIET)) == BLOCK) {
            separate();
        }
        if ((flags & SCRIPT) != 0) {
            return scriptEnd(c, r, n);
        }
        if ((flags & RAWTEXT) != 0) {
            return rawEnd(c, r, n, tagSlot);
        }
        if ((flags & RCDATA) != 0) {
            int end = rawEnd(c, r, n, tagSlot);
            text(c, r, end);
            return end;
        }
        if ((flags & PLAINTEXT) != 0) {
            append(c, r, n - r);
            return n;
        }
        return r;
    }

    private int endTag(char[] c, int p, int n) {
        int nameEnd = tagName(c, p, n);
        int r = attributes(c, nameEnd, n);
        if (r < 0) {
            return n;
        }
        if (hiddenDepth > 0) {
            if (tagSlot == hiddenSlot && --hiddenDepth == 0) {
                hiddenSlot = -1;
            }
            return r;
        }
        if (tagSlot >= 0 && (TABLE_FLAGS[tagSlot] & (BLOCK | QUIET)) == BLOCK) {
            separate(); // also "</br>", which HTML5 reads as "<br>"
        }
        return r;
    }

    /** Reads the tag name starting at {@code p}, sets {@link #tagSlot}; returns its end. */
    private int tagName(char[] c, int p, int n) {
        int q = p;
        int h = 0;
        char ch;
        while (q < n && (ch = c[q]) != '>' && ch != '/' && !isSpace(ch)) {
            h = 31 * h + lower(ch);
            q++;
        }
        tagSlot = -1;
        if (q - p <= MAX_NAME) {
            int i = mix(h);
            String name;
            while ((name = TABLE_NAMES[i]) != null) {
                if (equalsLowered(c, p, q, name)) {
                    tagSlot = i;
                    break;
                }
                i = (i + 1) & (TABLE_SIZE - 1);
            }
        }
        return q;
    }

    /**
     * Skips a tag's attributes from {@code p} (after the name) as the WHATWG tokenizer does; sets
     * {@link #selfClosing}. Returns the index after the closing {@code '>'}, or -1 at EOF.
     */
    private int attributes(char[] c, int p, int n) {
        selfClosing = false;
        while (p < n) {
            char ch = c[p];
            if (ch == '>') {
                return p + 1;
            }
            if (isSpace(ch)) {
                p++;
                continue;
            }
            if (ch == '/') {
                if (p + 1 < n && c[p + 1] == '>') {
                    selfClosing = true;
                    return p + 2;
                }
                p++;
                continue;
            }
            // An attribute name (its first character may be '=').
            p++;
            while (p < n && (ch = c[p]) != '>' && ch != '/' && ch != '=' && !isSpace(ch)) {
                p++;
            }
            while (p < n && isSpace(c[p])) {
                p++;
            }
            if (p < n && c[p] == '=') {
                p++;
                while (p < n && isSpace(c[p])) {
                    p++;
                }
                if (p >= n) {
                    return -1;
                }
                char quote = c[p];
                if (quote == '"' || quote == '\'') {
                    int close = indexOf(c, quote, p + 1, n);
                    if (close < 0) {
                        return -1;
                    }
                    p = close + 1;
                } else {
                    while (p < n && (ch = c[p]) != '>' && !isSpace(ch)) {
                        p++;
                    }
                }
            }
        }
        return -1;
    }

    /** After {@code <!--}: returns the index after the comment's end, or {@code n}. */
    private static int comment(char[] c, int p, int n) {
        if (p < n && c[p] == '>') {
            return p + 1; // "<!-->"
        }
        if (p + 1 < n && c[p] == '-' && c[p + 1] == '>') {
            return p + 2; // "<!--->"
        }
        for (int i = p; i < n; i++) {
            if (c[i] == '>'
                    && (i - 2 >= p && regionMatches(c, i - 2, i, "--")
                            || i - 3 >= p && regionMatches(c, i - 3, i, "--!"))) {
                return i + 1;
            }
        }
        return n;
    }

    /** After {@code <![CDATA[}: returns the index after {@code ]]>}, or {@code n}. */
    private static int afterCdata(char[] c, int p, int n) {
        for (int i = p + 2; i < n; i++) {
            if (c[i] == '>' && c[i - 1] == ']' && c[i - 2] == ']') {
                return i + 1;
            }
        }
        return n;
    }

    /**
     * The index of the {@code '<'} of the end tag that closes the raw-text or RCDATA element in
     * table slot {@code slot} (its name followed by white space, '/' or '>'), or {@code n}.
     */
    private static int rawEnd(char[] c, int p, int n, int slot) {
        String name = TABLE_NAMES[slot];
        for (int i = p; i < n; i++) {
            if (c[i] == '<' && isEndTag(c, i, n, name)) {
                return i;
            }
        }
        return n;
    }

    /**
     * The index of the {@code '<'} of the {@code </script>} that ends script data starting at
     * {@code p}, or {@code n}. Follows the tokenizer's script data states: after {@code <!--}
     * (escaped), a {@code <script>} starts a double-escaped part in which {@code </script>} does
     * not end the script; {@code -->} goes back to plain script data.
     */
    private static int scriptEnd(char[] c, int p, int n) {
        final int plain = 0;
        final int escaped = 1;
        final int doubleEscaped = 2;
        int state = plain;
        for (int i = p; i < n; i++) {
            char ch = c[i];
            if (ch == '<') {
                if (state == plain) {
                    if (isEndTag(c, i, n, "script")) {
                        return i;
                    }
                    if (i + 3 < n && c[i + 1] == '!' && c[i + 2] == '-' && c[i + 3] == '-') {
                        state = escaped;
                        i += 1; // the "--" can also close it: "<!-->"
                    }
                } else if (state == escaped) {
                    if (isEndTag(c, i, n, "script")) {
                        return i;
                    }
                    if (matchesTagName(c, i + 1, n, "script")) {
                        state = doubleEscaped;
                    }
                } else if (isEndTag(c, i, n, "script")) {
                    state = escaped;
                }
            } else if (ch == '>' && state != plain && c[i - 1] == '-' && c[i - 2] == '-') {
                state = plain;
            }
        }
        return n;
    }

    /** True when {@code c[i..]} is {@code "</" + name} followed by white space, '/' or '>'. */
    private static boolean isEndTag(char[] c, int i, int n, String name) {
        return i + 1 < n && c[i + 1] == '/' && matchesTagName(c, i + 2, n, name);
    }

    /** True when {@code c[i..]} is {@code name} (any case) followed by white space, '/' or '>'. */
    private static boolean matchesTagName(char[] c, int i, int n, String name) {
        int end = i + name.length();
        if (end >= n || !equalsLowered(c, i, end, name)) {
            return false;
        }
        char next = c[end];
        return next == '>' || next == '/' || isSpace(next);
    }

    /** Appends RCDATA text {@code c[from, to)}, decoding character references. */
    private void text(char[] c, int from, int to) {
        int p = from;
        while (p < to) {
            int start = p;
            while (p < to && c[p] != '&') {
                p++;
            }
            append(c, start, p - start);
            if (p < to) {
                p = reference(c, p, to);
            }
        }
    }

    /** Decodes the character reference at the {@code '&'} at {@code p}; returns its end. */
    private int reference(char[] c, int p, int n) {
        int q = p + 1;
        boolean numeric = q < n && c[q] == '#';
        boolean hex = false;
        if (numeric) {
            q++;
            if (q < n && (c[q] == 'x' || c[q] == 'X')) {
                hex = true;
                q++;
            }
        }
        int digitsStart = q;
        int value = 0;
        boolean digitsOnly = true;
        while (q < n && isAsciiLetterOrDigit(c[q])) {
            int digit = Character.digit(c[q], hex ? 16 : 10);
            if (digit < 0) {
                digitsOnly = false;
            } else if (value <= 0x10FFFF) {
                value = value * (hex ? 16 : 10) + digit;
            }
            q++;
        }
        if (q == digitsStart) {
            appendVisible('&'); // not a reference; what follows is text
            return p + 1;
        }
        if (q < n && c[q] == ';') {
            q++;
        }
        if (numeric && digitsOnly && Character.isValidCodePoint(value)) {
            // Valid code points are themselves, except surrogates and the C1 range that HTML
            // maps through windows-1252: those (and NUL, overflow) are left to jsoup.
            if (value > 0 && (value < 0x80 || value > 0x9F) && (value < 0xD800 || value > 0xDFFF)) {
                if (value < Character.MIN_SUPPLEMENTARY_CODE_POINT) {
                    appendVisible((char) value);
                } else {
                    appendVisible(Character.highSurrogate(value));
                    appendVisible(Character.lowSurrogate(value));
                }
                return q;
            }
        }
        String decoded = decoded(c, p, q - p);
        ensureCapacity(decoded.length());
        decoded.getChars(0, decoded.length(), out, outLength);
        outLength += decoded.length();
        return q;
    }

    /** jsoup's decoding of the reference {@code c[p, p+length)}, through the cache. */
    private String decoded(char[] c, int p, int length) {
        if (length > MAX_CACHED_REFERENCE) {
            return Parser.unescapeEntities(new String(c, p, length), false);
        }
        int h = 0;
        for (int k = 0; k < length; k++) {
            h = 31 * h + c[p + k];
        }
        int i = (h ^ (h >>> 11)) & (CACHE_SIZE - 1);
        char[] key = cacheKeys[i];
        if (key != null
                && key.length == length
                && Arrays.equals(c, p, p + length, key, 0, length)) {
            return cacheValues[i];
        }
        String reference = new String(c, p, length);
        String value = Parser.unescapeEntities(reference, false);
        cacheKeys[i] = reference.toCharArray();
        cacheValues[i] = value;
        return value;
    }

    /** The index after the first {@code ch} at or after {@code p}, or {@code n}. */
    private static int after(char[] c, char ch, int p, int n) {
        int i = indexOf(c, ch, p, n);
        return i < 0 ? n : i + 1;
    }

    private static int indexOf(char[] c, char ch, int p, int n) {
        for (int i = p; i < n; i++) {
            if (c[i] == ch) {
                return i;
            }
        }
        return -1;
    }

    private static boolean regionMatches(char[] c, int p, int n, String s) {
        if (p + s.length() > n) {
            return false;
        }
        for (int k = 0; k < s.length(); k++) {
            if (c[p + k] != s.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static boolean equalsLowered(char[] c, int from, int to, String name) {
        if (to - from != name.length()) {
            return false;
        }
        for (int k = 0; k < name.length(); k++) {
            if (lower(c[from + k]) != name.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static char lower(char ch) {
        return ch >= 'A' && ch <= 'Z' ? (char) (ch + ('a' - 'A')) : ch;
    }

    private static boolean isSpace(char ch) {
        return ch == ' ' || ch == '\n' || ch == '\t' || ch == '\f' || ch == '\r';
    }

    private static boolean isAsciiLetter(char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
    }

    private static boolean isAsciiLetterOrDigit(char ch) {
        return isAsciiLetter(ch) || (ch >= '0' && ch <= '9');
    }

    private void append(char[] c, int from, int length) {
        if (length > 0) {
            ensureCapacity(length);
            System.arraycopy(c, from, out, outLength, length);
            outLength += length;
        }
    }

    /** Appends {@code ch} unless inside a hidden container. */
    private void appendVisible(char ch) {
        if (hiddenDepth == 0) {
            ensureCapacity(1);
            out[outLength++] = ch;
        }
    }

    private void separate() {
        if (outLength > 0 && out[outLength - 1] != '\n') {
            ensureCapacity(1);
            out[outLength++] = '\n';
        }
    }

    private void ensureCapacity(int more) {
        if (outLength + more > out.length) {
            out = Arrays.copyOf(out, Math.max(outLength + more, 2 * out.length));
        }
    }
}
