package dev.neardup.io.warc;

import java.util.Locale;
import java.util.Set;
import org.netpreserve.jwarc.MediaType;

/**
 * Which payloads are text. A MIME type is text when it is {@code text/*} (but {@code text/dns},
 * which is DNS data, {@code text/css}, which is a stylesheet, and the {@code text/} JavaScript
 * types, which are scripts), HTML, XHTML or XML ({@code application/xml} and {@code
 * application/*+xml} such as RSS and Atom feeds). The rest (images, audio, video, PDF, fonts,
 * archives, stylesheets, scripts, JSON, {@code application/octet-stream}) is not.
 */
final class PayloadTypes {

    /** How many first bytes {@link #looksBinary} looks at (as the WHATWG MIME Sniffing does). */
    static final int SNIFF_BYTES = 1024;

    /**
     * The {@code text/} essences of the WHATWG MIME Sniffing standard's JavaScript MIME types
     * ({@code text/javascript} is the one RFC 9239 registers): scripts, not text.
     */
    private static final Set<String> TEXT_SCRIPT_TYPES =
            Set.of(
                    "text/ecmascript",
                    "text/javascript",
                    "text/javascript1.0",
                    "text/javascript1.1",
                    "text/javascript1.2",
                    "text/javascript1.3",
                    "text/javascript1.4",
                    "text/javascript1.5",
                    "text/jscript",
                    "text/livescript",
                    "text/x-ecmascript",
                    "text/x-javascript");

    private PayloadTypes() {}

    /**
     * The {@code type/subtype} of a {@code Content-Type} value, in lower case and without
     * parameters; null when the value is null or names no type.
     */
    static String base(String contentType) {
        MediaType type = parse(contentType);
        if (type == null || type.type().isEmpty() || type.subtype().isEmpty()) {
            return null;
        }
        return (type.type() + "/" + type.subtype()).toLowerCase(Locale.ROOT);
    }

    /** The {@code charset} parameter of a {@code Content-Type} value, or null. */
    static String charset(String contentType) {
        MediaType type = parse(contentType);
        return type == null ? null : type.parameters().get("charset");
    }

    private static MediaType parse(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return null;
        }
        try {
            return MediaType.parseLeniently(contentType.strip());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Whether a payload of this base type ({@link #base}) is text. */
    static boolean isText(String base) {
        if (base == null) {
            return false;
        }
        if (base.startsWith("text/")) {
            return !base.equals("text/dns")
                    && !base.equals("text/css")
                    && !TEXT_SCRIPT_TYPES.contains(base);
        }
        return base.equals("application/xhtml+xml")
                || base.equals("application/xml")
                || (base.startsWith("application/") && base.endsWith("+xml"));
    }

    /** Whether this base type is HTML or XHTML, whose charset a {@code <meta>} tag may name. */
    static boolean isMarkup(String base) {
        return base == null
                || base.equals("text/html")
                || base.equals("application/xhtml+xml")
                || base.equals("text/xml")
                || base.equals("application/xml")
                || base.endsWith("+xml");
    }

    /**
     * The type that the first bytes show, among those whose signature is text (WHATWG MIME
     * Sniffing: {@code %PDF-} and {@code %!PS-Adobe-}), or null: a PDF without a compressed stream
     * in its first bytes has no binary data byte ({@link #looksBinary}) but is no text. For a
     * payload that names no type.
     */
    static String textLikeSignature(byte[] bytes, int length) {
        if (startsWith(bytes, length, "%PDF-")) {
            return "application/pdf";
        }
        if (startsWith(bytes, length, "%!PS-Adobe-")) {
            return "application/postscript";
        }
        return null;
    }

    private static boolean startsWith(byte[] bytes, int length, String signature) {
        if (length < signature.length()) {
            return false;
        }
        for (int i = 0; i < signature.length(); i++) {
            if (bytes[i] != signature.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the first bytes hold a binary data byte (WHATWG MIME Sniffing: 0x00-0x08, 0x0B,
     * 0x0E-0x1A, 0x1C-0x1F), as text never does: for a payload that names no type.
     */
    static boolean looksBinary(byte[] bytes, int length) {
        int n = Math.min(length, SNIFF_BYTES);
        for (int i = 0; i < n; i++) {
            int b = bytes[i] & 0xff;
            if (b <= 0x08 || b == 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) {
                return true;
            }
        }
        return false;
    }
}
