package dev.neardup.urlrules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class UrlRuleTest {

    @Test
    void dropsEveryOccurrenceOfTheParameterAndKeepsTheOthersInOrder() {
        UrlRule sid = UrlRule.dropParameter("Shop.Example.com", "sid");
        assertThat(sid.apply("https://shop.example.com/p/1?a=1&sid=9&b=2&sid=8#top"))
                .isEqualTo("https://shop.example.com/p/1?a=1&b=2#top");
        assertThat(sid.apply("https://shop.example.com/p/1?sid=9"))
                .isEqualTo("https://shop.example.com/p/1");
        assertThat(sid.apply("https://shop.example.com/p/1?sid"))
                .isEqualTo("https://shop.example.com/p/1");
        // Not a prefix match, and not on another host.
        assertThat(sid.apply("https://shop.example.com/p/1?sidebar=1"))
                .isEqualTo("https://shop.example.com/p/1?sidebar=1");
        assertThat(sid.apply("https://other.example.com/p/1?sid=9"))
                .isEqualTo("https://other.example.com/p/1?sid=9");
    }

    @Test
    void replacesTheFirstOccurrenceOnItsHostOnly() {
        UrlRule print = UrlRule.replace("news.example.org", "/print/", "/");
        assertThat(print.apply("https://news.example.org/print/2026/print/x"))
                .isEqualTo("https://news.example.org/2026/print/x");
        assertThat(print.apply("https://NEWS.example.org:8443/print/x"))
                .isEqualTo("https://NEWS.example.org:8443/x");
        assertThat(print.apply("https://blog.example.org/print/x"))
                .isEqualTo("https://blog.example.org/print/x");
        assertThat(print.apply("not a url /print/")).isEqualTo("not a url /print/");
    }

    @Test
    void aHostAliasReplacesTheHostAsWrittenKeepingPortAndUserInfo() {
        UrlRule www = UrlRule.hostAlias("www.example.org", "example.org");
        assertThat(www.apply("http://user@WWW.Example.org:8080/www.example.org/?q=1"))
                .isEqualTo("http://user@example.org:8080/www.example.org/?q=1");
        assertThat(www.apply("https://example.org/")).isEqualTo("https://example.org/");
    }

    @Test
    void rulesAppliedInOrderNormaliseAUrl() {
        List<UrlRule> rules =
                List.of(
                        UrlRule.hostAlias("www.example.org", "example.org"),
                        UrlRule.replace("example.org", "http://example.org", "https://example.org"),
                        UrlRule.dropParameter("example.org", "utm_source"),
                        UrlRule.replace("example.org", "/index.html", "/"));
        assertThat(UrlRule.normalise(rules, "http://www.example.org/docs/index.html?utm_source=x"))
                .isEqualTo("https://example.org/docs/");
    }

    @Test
    void refusesAnIncompleteRule() {
        assertThatThrownBy(() -> UrlRule.replace("h", "", "x"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UrlRule(UrlRule.Kind.DROP_PARAMETER, "h", null, null, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pathHunksStayOnSegmentOrTokenBoundaries() {
        assertThat(options("/2026/03/x", "/print/2026/03/x")).containsExactly("/|/print/");
        assertThat(options("/dir/", "/dir/index.html")).containsExactly("/|/index.html");
        assertThat(options("/r/soup", "/r/soup/print")).containsExactly("|/print");
        assertThat(options("/r/soup", "/r/soup.txt")).containsExactly("|.txt");
        assertThat(options("/a/index.html", "/a/index.php")).containsExactly(".html|.php");
        assertThat(options("/wiki/Topic_1", "/view/Topic_1")).containsExactly("/wiki/|/view/");
        // Two places at once: two hunks.
        assertThat(options("/a/b/c", "/x/a/b/c/print")).containsExactly("/|/x/", "|/print");
    }

    /** The narrowest option of each hunk, as "a|b". */
    private static List<String> options(String a, String b) {
        return PathDiff.hunks(a, b).stream().map(o -> o.get(0).a() + "|" + o.get(0).b()).toList();
    }
}
