package dev.neardup.text;

import java.util.Locale;

/**
 * How a document's content is to be read: as HTML (visible text is extracted first) or as plain
 * text. Markup is stripped before shingling, as in Broder's pre-processing of web pages (1997).
 */
public enum ContentType {
    /** HTML or XHTML: only the visible text takes part in shingling. */
    HTML,
    /** Plain text: used as it is. */
    TEXT;

    /**
     * Decides the content type from a MIME type (as in HTTP {@code Content-Type}, parameters
     * allowed) and, when that is absent or unknown, from the content itself.
     *
     * @param mimeType the declared type, for example {@code "text/html; charset=utf-8"}; may be
     *     null or blank
     * @param content the content, sniffed only when the MIME type says nothing
     */
    public static ContentType detect(String mimeType, CharSequence content) {
        if (mimeType != null && !mimeType.isBlank()) {
            String mime = mimeType.strip().toLowerCase(Locale.ROOT);
            int semicolon = mime.indexOf(';');
            if (semicolon >= 0) {
                mime = mime.substring(0, semicolon).strip();
            }
            if (mime.equals("text/html")
                    || mime.equals("application/xhtml+xml")
                    || mime.equals("html")) {
                return HTML;
            }
            if (mime.startsWith("text/") || mime.equals("text")) {
                return TEXT;
            }
        }
        return looksLikeHtml(content) ? HTML : TEXT;
    }

    /** How many characters, after leading white space and a byte order mark, are sniffed. */
    private static final int SNIFF_LENGTH = 1024;

    /**
     * True when the start of the content (after white space and a byte order mark) is an HTML
     * doctype, an {@code <html>}, {@code <head>} or {@code <body>} tag, or an HTML comment or XML
     * declaration followed later by such a tag. A tag name must end there ({@code <header>} or
     * {@code <bodyguard>} is not {@code <head>} or {@code <body>}).
     */
    public static boolean looksLikeHtml(CharSequence content) {
        if (content == null) {
            return false;
        }
        int start = 0;
        int length = content.length();
        while (start < length
                && (Character.isWhitespace(content.charAt(start))
                        || content.charAt(start) == '\uFEFF')) {
            start++;
        }
        String head =
                content.subSequence(start, Math.min(length, start + SNIFF_LENGTH))
                        .toString()
                        .toLowerCase(Locale.ROOT);
        if (isHtmlMarkerAt(head, 0)) {
            return true;
        }
        if (head.startsWith("<!--") || head.startsWith("<?xml")) {
            for (int i = head.indexOf('<', 1); i >= 0; i = head.indexOf('<', i + 1)) {
                if (isHtmlMarkerAt(head, i)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static final String[] HTML_MARKERS = {"<!doctype html", "<html", "<head", "<body"};

    /** True when {@code lower} has a doctype or html/head/body tag, name complete, at {@code i}. */
    private static boolean isHtmlMarkerAt(String lower, int i) {
        for (String marker : HTML_MARKERS) {
            if (lower.startsWith(marker, i)) {
                int end = i + marker.length();
                if (end == lower.length()) {
                    return true; // cut off by the sniffing window
                }
                char next = lower.charAt(end);
                return next == '>' || next == '/' || Character.isWhitespace(next);
            }
        }
        return false;
    }
}
