package dev.neardup.urlrules;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A URL rewrite rule of one host, in the sense of the DUST rules of Bar-Yossef, Keidar and
 * Schonfeld (ACM TWEB 2009): a rewrite that maps a URL to another URL of the same content. Three
 * kinds: a host alias ({@code www.example.org} is {@code example.org}), a substring replacement
 * (the first occurrence of {@code from} in the URL as written, scheme and host included, becomes
 * {@code to}: {@code /print/} to {@code /}, {@code http://example.org} to {@code
 * https://example.org}) and a dropped query parameter (a session id, a tracking parameter). A list
 * of rules applied in order ({@link #normalise}) maps the URLs of one page to one URL.
 *
 * @param kind what the rule does
 * @param host the host whose URLs it rewrites (lower case); for an alias, {@code from}
 * @param parameter the parameter a {@link Kind#DROP_PARAMETER} rule drops, else null
 * @param from what a {@link Kind#REPLACE} rule replaces, or the host a {@link Kind#HOST_ALIAS}
 *     renames; null for a dropped parameter
 * @param to what replaces it; null for a dropped parameter
 */
public record UrlRule(Kind kind, String host, String parameter, String from, String to) {

    /** The kinds of rule, by the name the rules file gives them. */
    public enum Kind {
        HOST_ALIAS("host-alias"),
        REPLACE("replace"),
        DROP_PARAMETER("drop-parameter");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /**
         * The name in the rules file: {@code host-alias}, {@code replace}, {@code drop-parameter}.
         */
        public String label() {
            return label;
        }
    }

    public UrlRule {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(host, "host");
        if (kind == Kind.DROP_PARAMETER ? parameter == null : from == null || to == null) {
            throw new IllegalArgumentException("incomplete " + kind.label() + " rule");
        }
        if (kind != Kind.DROP_PARAMETER && from.isEmpty()) {
            throw new IllegalArgumentException(kind.label() + " rule with an empty 'from'");
        }
    }

    /** URLs of host {@code from} are URLs of host {@code to}: the host is replaced. */
    public static UrlRule hostAlias(String from, String to) {
        return new UrlRule(
                Kind.HOST_ALIAS,
                from.toLowerCase(Locale.ROOT),
                null,
                from.toLowerCase(Locale.ROOT),
                to.toLowerCase(Locale.ROOT));
    }

    /** On {@code host}, the first occurrence of {@code from} in a URL becomes {@code to}. */
    public static UrlRule replace(String host, String from, String to) {
        return new UrlRule(Kind.REPLACE, host.toLowerCase(Locale.ROOT), null, from, to);
    }

    /** On {@code host}, every occurrence of the query parameter {@code name} is dropped. */
    public static UrlRule dropParameter(String host, String name) {
        return new UrlRule(Kind.DROP_PARAMETER, host.toLowerCase(Locale.ROOT), name, null, null);
    }

    /**
     * The URL rewritten by this rule, or {@code url} itself when the rule does not apply: the URL
     * is not absolute, is of another host, or does not contain what the rule rewrites.
     */
    public String apply(String url) {
        Url u = Url.parse(url);
        if (u == null || !u.host().equals(host)) {
            return url;
        }
        switch (kind) {
            case HOST_ALIAS:
                return url.substring(0, u.hostStart()) + to + url.substring(u.hostEnd());
            case REPLACE:
                int at = url.indexOf(from);
                return at < 0 ? url : url.substring(0, at) + to + url.substring(at + from.length());
            default:
                return dropParameter(u);
        }
    }

    private String dropParameter(Url u) {
        if (u.query() == null) {
            return u.text();
        }
        List<String> kept = new ArrayList<>();
        boolean dropped = false;
        for (String part : u.query().split("&", -1)) {
            if (Url.parameterName(part).equals(parameter)) {
                dropped = true;
            } else {
                kept.add(part);
            }
        }
        if (!dropped) {
            return u.text();
        }
        kept.removeIf(String::isEmpty);
        String query = kept.isEmpty() ? "" : "?" + String.join("&", kept);
        return u.origin() + u.path() + query + (u.fragment() == null ? "" : "#" + u.fragment());
    }

    /** The host of an absolute URL, lower case, or null when {@code url} is not absolute. */
    public static String hostOf(String url) {
        Url u = Url.parse(url);
        return u == null ? null : u.host();
    }

    /** {@code url} rewritten by each of {@code rules} in turn. */
    public static String normalise(List<UrlRule> rules, String url) {
        String out = url;
        Url u = Url.parse(out);
        for (UrlRule rule : rules) {
            if (u == null) {
                return out; // no rule applies to a URL that is not absolute
            }
            if (!rule.host.equals(u.host())) {
                continue; // the URL is parsed again only when a rule changed it
            }
            String next = rule.apply(out);
            if (!next.equals(out)) {
                out = next;
                u = Url.parse(out);
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case DROP_PARAMETER -> host + ": drop-parameter " + parameter;
            default -> host + ": " + kind.label() + " '" + from + "' -> '" + to + "'";
        };
    }
}
