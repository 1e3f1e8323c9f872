package dev.neardup.urlrules;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link UrlRule} as Java regular expressions over the whole URL, for crawlers that normalise
 * URLs with regular expressions (Apache Nutch's and StormCrawler's regex normalisers, Heritrix's
 * {@code RegexRule}): the DUST rules of Bar-Yossef, Keidar and Schonfeld (ACM TWEB 2009) written as
 * substitutions. Each pattern is anchored at both ends and matches the whole URL, or nothing, so it
 * rewrites the same whether the crawler replaces all matches (Nutch, StormCrawler) or requires a
 * match of the whole URL (Heritrix). The host is matched without regard to case, as the rule
 * compares hosts.
 *
 * <p>A replacement or a host alias is one expression, with the rule's meaning exactly. Dropping a
 * parameter is three: an occurrence followed by another parameter, the only parameter, the last of
 * several; applied once each, in order, they drop up to two occurrences of the parameter, where the
 * rule drops every one (a parameter given three times or more keeps the others).
 */
public final class RuleRegexes {

    /** A Java regular expression and its replacement ({@code $1} names a group). */
    public record Regex(String pattern, String substitution) {
        /** {@code url} with the substitution applied, as a crawler's regex normaliser does. */
        public String apply(String url) {
            return Pattern.compile(pattern).matcher(url).replaceAll(substitution);
        }
    }

    /** The scheme and user info before the host. */
    private static final String ORIGIN = "[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?";

    private RuleRegexes() {}

    /** The expressions of {@code rule}, to apply in order. */
    public static List<Regex> of(UrlRule rule) {
        String host = "(?i:" + Pattern.quote(rule.host()) + ")";
        String port = "(?::[0-9]*)?";
        String to =
                Matcher.quoteReplacement(
                        rule.kind() == UrlRule.Kind.DROP_PARAMETER ? "" : rule.to());
        return switch (rule.kind()) {
            case HOST_ALIAS ->
                    List.of(
                            new Regex(
                                    "^(" + ORIGIN + ")" + host + "(" + port + "(?:[/?#].*)?)$",
                                    "$1" + to + "$2"));
            case REPLACE ->
                    List.of(
                            new Regex(
                                    "^(?="
                                            + ORIGIN
                                            + host
                                            + port
                                            + "(?:[/?#]|$))(.*?)"
                                            + Pattern.quote(rule.from())
                                            + "(.*)$",
                                    "$1" + to + "$2"));
            case DROP_PARAMETER -> {
                // The URL up to its query: scheme, host, port, path.
                String before = ORIGIN + host + port + "(?:/[^?#]*)?";
                String parameter = Pattern.quote(rule.parameter()) + "(?:=[^&#]*)?";
                String fragment = "((?:#.*)?)";
                yield List.of(
                        // Followed by another parameter.
                        new Regex("^(" + before + "\\?(?:[^#]*&)?)" + parameter + "&(.*)$", "$1$2"),
                        // The only parameter.
                        new Regex("^(" + before + ")\\?" + parameter + fragment + "$", "$1$2"),
                        // The last of several.
                        new Regex(
                                "^(" + before + "\\?[^#]*)&" + parameter + fragment + "$", "$1$2"));
            }
        };
    }
}
