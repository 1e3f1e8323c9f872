package dev.neardup.text;

import java.util.Locale;

/**
 * How a document's content is to be read: as HTML (visible text is extracted first) or as plain
 * text. Seed 003 ("Estimating similarity of web pages", pre-processing) strips markup before
 * shingling.
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

    /**
     * True when the start of the content (after white space and a byte order mark) is an HTML
     * doctype, an {@code <html>}, {@code <head>} or {@code <body>} tag, or an HTML comment followed
     * later by such a tag.
     */
    public static boolean looksLikeHtml(CharSequence content) {
        if (content == null) {
            return false;
        }
        int n = Math.min(content.length(), 1024);
        String head = content.subSequence(0, n).toString().stripLeading();
        if (head.startsWith("\uFEFF")) {
            head = head.substring(1).stripLeading();
        }
        String lower = head.toLowerCase(Locale.ROOT);
        return lower.startsWith("<!doctype html")
                || lower.startsWith("<html")
                || lower.startsWith("<head")
                || lower.startsWith("<body")
                || (lower.startsWith("<!--") && lower.contains("<html"))
                || (lower.startsWith("<?xml") && lower.contains("<html"));
    }
}
