package dev.neardup.urlrules;

import java.util.Locale;

/**
 * An absolute URL cut into its parts as written, without decoding or re-encoding: the rules rewrite
 * URLs as the crawler wrote them. Lenient where {@link java.net.URI} is strict (spaces, {@code |}
 * and other characters crawlers meet unescaped). The host is lower-cased for comparison; its place
 * in the string is kept so that an alias replaces it as written.
 *
 * @param scheme the scheme, lower-cased (e.g. {@code https})
 * @param host the host name, lower-cased, without user info or port
 * @param hostStart where the host starts in {@code text}
 * @param hostEnd where it ends
 * @param authorityEnd where the authority ends (the path, query or fragment begins)
 * @param path the path as written, empty when the URL has none
 * @param query the query as written without its {@code ?}, or null when there is no {@code ?}
 * @param fragment the fragment without its {@code #}, or null
 */
record Url(
        String text,
        String scheme,
        String host,
        int hostStart,
        int hostEnd,
        int authorityEnd,
        String path,
        String query,
        String fragment) {

    /** The URL's parts, or null when it is not an absolute URL with a host. */
    static Url parse(String text) {
        if (text == null) {
            return null;
        }
        int colon = text.indexOf("://");
        if (colon <= 0) {
            return null;
        }
        String scheme = text.substring(0, colon);
        for (int i = 0; i < scheme.length(); i++) {
            char c = scheme.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.')) {
                return null;
            }
        }
        int start = colon + 3;
        int end = start;
        while (end < text.length() && "/?#".indexOf(text.charAt(end)) < 0) {
            end++;
        }
        int hostStart = text.lastIndexOf('@', end - 1) + 1;
        if (hostStart < start) {
            hostStart = start;
        }
        int hostEnd = end;
        if (hostStart < end && text.charAt(hostStart) == '[') {
            int close = text.indexOf(']', hostStart);
            hostEnd = close < 0 || close >= end ? end : close + 1;
        } else {
            int port = text.lastIndexOf(':', end - 1);
            if (port >= hostStart) {
                hostEnd = port;
            }
        }
        if (hostEnd <= hostStart) {
            return null;
        }
        int hash = text.indexOf('#', end);
        int stop = hash < 0 ? text.length() : hash;
        int question = text.indexOf('?', end);
        if (question > stop) {
            question = -1;
        }
        String path = text.substring(end, question < 0 ? stop : question);
        String query = question < 0 ? null : text.substring(question + 1, stop);
        String fragment = hash < 0 ? null : text.substring(hash + 1);
        return new Url(
                text,
                scheme.toLowerCase(Locale.ROOT),
                text.substring(hostStart, hostEnd).toLowerCase(Locale.ROOT),
                hostStart,
                hostEnd,
                end,
                path,
                query,
                fragment);
    }

    /** The URL up to the end of its authority, as written: {@code https://www.example.org:8080}. */
    String origin() {
        return text.substring(0, authorityEnd);
    }

    /** The URL from its path on, as written. */
    String rest() {
        return text.substring(authorityEnd);
    }

    /** The name of a query parameter ({@code name=value} or a bare {@code name}). */
    static String parameterName(String part) {
        int eq = part.indexOf('=');
        return eq < 0 ? part : part.substring(0, eq);
    }
}
