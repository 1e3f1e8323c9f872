package dev.neardup.io.warc;

import com.ibm.icu.text.CharsetDetector;
import com.ibm.icu.text.CharsetMatch;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decodes a payload to text with the charset a browser would use, in this order: the HTTP (or
 * record) {@code Content-Type} charset; a byte order mark; a {@code <meta charset>} or {@code <meta
 * http-equiv="Content-Type">} tag, or an XML declaration, in the first {@link #PRESCAN_BYTES} bytes
 * of markup; detection (a payload that is valid UTF-8 is UTF-8, else ICU's {@link CharsetDetector}
 * guesses); UTF-8. Labels are read as the WHATWG Encoding Standard reads them: {@code ISO-8859-1},
 * {@code US-ASCII} and {@code latin1} mean {@code windows-1252}. Bytes that the charset cannot
 * decode become U+FFFD.
 */
final class CharsetSniffer {

    /**
     * How far the {@code <meta>} prescan looks. The HTML standard's prescan stops at 1024 bytes;
     * pages with long heads name their charset later, so this looks further.
     */
    static final int PRESCAN_BYTES = 4096;

    /** How many first bytes ICU's detector reads. */
    static final int DETECT_BYTES = 64 * 1024;

    private static final Charset WINDOWS_1252 = Charset.forName("windows-1252");

    /** Labels whose WHATWG encoding is another Java charset than the label names. */
    private static final Map<String, String> WHATWG_LABELS =
            Map.ofEntries(
                    Map.entry("iso-8859-1", "windows-1252"),
                    Map.entry("iso8859-1", "windows-1252"),
                    Map.entry("iso_8859-1", "windows-1252"),
                    Map.entry("iso88591", "windows-1252"),
                    Map.entry("latin1", "windows-1252"),
                    Map.entry("l1", "windows-1252"),
                    Map.entry("us-ascii", "windows-1252"),
                    Map.entry("ascii", "windows-1252"),
                    Map.entry("ansi_x3.4-1968", "windows-1252"),
                    Map.entry("cp819", "windows-1252"),
                    Map.entry("ibm819", "windows-1252"),
                    Map.entry("iso-ir-100", "windows-1252"),
                    Map.entry("csisolatin1", "windows-1252"),
                    Map.entry("iso-8859-9", "windows-1254"),
                    Map.entry("latin5", "windows-1254"),
                    Map.entry("tis-620", "x-windows-874"),
                    Map.entry("iso-8859-11", "x-windows-874"),
                    Map.entry("gb2312", "GBK"),
                    Map.entry("euc-kr", "x-windows-949"),
                    Map.entry("ks_c_5601-1987", "x-windows-949"));

    /** {@code <meta ... charset=NAME} of both meta forms (the second inside {@code content}). */
    private static final Pattern META_CHARSET =
            Pattern.compile(
                    "<meta\\s[^>]*?charset\\s*=\\s*[\"']?\\s*([a-z0-9._:\\-]+)",
                    Pattern.CASE_INSENSITIVE);

    private static final Pattern XML_ENCODING =
            Pattern.compile(
                    "^\\s*<\\?xml\\s[^>]*?encoding\\s*=\\s*[\"']([a-z0-9._:\\-]+)",
                    Pattern.CASE_INSENSITIVE);

    private CharsetSniffer() {}

    /** Text and the charset it was decoded with. */
    record Decoded(String text, Charset charset) {}

    /**
     * @param bytes the payload
     * @param declared the charset label the {@code Content-Type} names, or null
     * @param markup whether the payload may be HTML or XML (its type says so, or names none)
     */
    static Decoded decode(byte[] bytes, String declared, boolean markup) {
        Charset charset = forLabel(declared);
        Charset bom = bom(bytes);
        if (charset == null) {
            charset = bom;
        }
        if (charset == null && markup) {
            charset = declaredInMarkup(bytes);
        }
        if (charset == null) {
            charset = detect(bytes, markup);
        }
        int skip = bom != null && bom.equals(charset) ? bomLength(bom) : 0;
        String text = new String(bytes, skip, bytes.length - skip, charset);
        return new Decoded(text, charset);
    }

    /**
     * The Java charset of an encoding label (WHATWG names where they differ), or null for none or
     * one the JDK does not know.
     */
    static Charset forLabel(String label) {
        if (label == null) {
            return null;
        }
        String l = label.strip().toLowerCase(Locale.ROOT);
        if (l.length() >= 2 && (l.startsWith("\"") || l.startsWith("'"))) {
            l = l.substring(1, l.length() - (l.endsWith(l.substring(0, 1)) ? 1 : 0)).strip();
        }
        if (l.isEmpty()) {
            return null;
        }
        try {
            return Charset.forName(WHATWG_LABELS.getOrDefault(l, l));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Charset bom(byte[] b) {
        if (b.length >= 3
                && (b[0] & 0xff) == 0xef
                && (b[1] & 0xff) == 0xbb
                && (b[2] & 0xff) == 0xbf) {
            return StandardCharsets.UTF_8;
        }
        if (b.length >= 2 && (b[0] & 0xff) == 0xfe && (b[1] & 0xff) == 0xff) {
            return StandardCharsets.UTF_16BE;
        }
        if (b.length >= 2 && (b[0] & 0xff) == 0xff && (b[1] & 0xff) == 0xfe) {
            return StandardCharsets.UTF_16LE;
        }
        return null;
    }

    private static int bomLength(Charset bom) {
        return bom.equals(StandardCharsets.UTF_8) ? 3 : 2;
    }

    private static Charset declaredInMarkup(byte[] bytes) {
        String head =
                new String(
                        bytes,
                        0,
                        Math.min(bytes.length, PRESCAN_BYTES),
                        StandardCharsets.ISO_8859_1);
        Matcher xml = XML_ENCODING.matcher(head);
        Matcher meta = META_CHARSET.matcher(head);
        Charset charset =
                xml.find() ? forLabel(xml.group(1)) : meta.find() ? forLabel(meta.group(1)) : null;
        // The prescan read ASCII-compatible bytes, so a tag that says UTF-16 is wrong (HTML
        // standard: the encoding is then UTF-8).
        if (charset != null && charset.name().startsWith("UTF-16")) {
            return StandardCharsets.UTF_8;
        }
        return charset;
    }

    private static Charset detect(byte[] bytes, boolean markup) {
        if (isUtf8(bytes)) {
            return StandardCharsets.UTF_8;
        }
        CharsetDetector detector = new CharsetDetector();
        detector.enableInputFilter(markup);
        detector.setText(Arrays.copyOf(bytes, Math.min(bytes.length, DETECT_BYTES)));
        CharsetMatch[] matches = detector.detectAll();
        if (matches != null) {
            for (CharsetMatch match : matches) {
                Charset charset = forLabel(match.getName());
                if (charset != null) {
                    return charset;
                }
            }
        }
        return StandardCharsets.UTF_8;
    }

    /**
     * Whether the bytes are well-formed UTF-8, but for a multi-byte sequence cut off at the end (a
     * truncated payload).
     */
    static boolean isUtf8(byte[] bytes) {
        CharsetDecoder decoder =
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT);
        CoderResult result =
                decoder.decode(ByteBuffer.wrap(bytes), CharBuffer.allocate(bytes.length), false);
        return !result.isError();
    }
}
