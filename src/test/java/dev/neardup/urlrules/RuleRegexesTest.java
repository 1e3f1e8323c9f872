package dev.neardup.urlrules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.testing.PlantedRulesCrawl;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The regular expressions of a rule rewrite every URL as the rule does. */
class RuleRegexesTest {

    private static String applyRegexes(UrlRule rule, String url) {
        String out = url;
        for (RuleRegexes.Regex r : RuleRegexes.of(rule)) {
            out = r.apply(out);
        }
        return out;
    }

    private static final List<String> URLS =
            List.of(
                    "https://shop.example.com/p/1?sid=9",
                    "https://shop.example.com/p/1?sid=9&a=1",
                    "https://shop.example.com/p/1?a=1&sid=9",
                    "https://shop.example.com/p/1?a=1&sid=9&b=2#top",
                    "https://shop.example.com/p/1?sid&b=2",
                    "https://shop.example.com/p/1?sid=1&sid=2",
                    "https://shop.example.com/p/1?sidebar=1&xsid=2",
                    "https://shop.example.com?sid=1",
                    "https://SHOP.example.com:8443/p/1?sid=9#x",
                    "https://user@shop.example.com/print/a/print/b?q=/print/",
                    "http://shop.example.com/index.html",
                    "https://shop.example.com.evil.org/p/1?sid=9",
                    "https://evil.org/shop.example.com/p/1?sid=9",
                    "https://www.shop.example.com/p?x=1",
                    "https://www.shop.example.com:80",
                    "https://other.example.com/print/x?sid=1",
                    "https://shop.example.com/$1/print/\\\\x");

    private static final List<UrlRule> RULES =
            List.of(
                    UrlRule.dropParameter("shop.example.com", "sid"),
                    UrlRule.replace("shop.example.com", "/print/", "/"),
                    UrlRule.replace(
                            "shop.example.com",
                            "http://shop.example.com",
                            "https://shop.example.com"),
                    UrlRule.replace("shop.example.com", "/index.html", "/$1\\\\"),
                    UrlRule.replace("shop.example.com", ".html", ""),
                    UrlRule.hostAlias("www.shop.example.com", "shop.example.com"),
                    UrlRule.dropParameter("shop.example.com", "a.b"));

    @Test
    void rewriteAsTheRuleDoes() {
        for (UrlRule rule : RULES) {
            for (String url : URLS) {
                assertThat(applyRegexes(rule, url))
                        .as(rule + " on " + url)
                        .isEqualTo(rule.apply(url));
            }
        }
    }

    @Test
    void rewriteThePlantedCrawlAsTheLearnedRulesDo() {
        PlantedRulesCrawl crawl = PlantedRulesCrawl.generate(7, 20);
        List<UrlRule> rules =
                RuleLearnerTest.learnFromTruth(crawl, new RuleLearner.Settings(3, 0.95, 3))
                        .rules()
                        .stream()
                        .map(RuleLearner.Learned::rule)
                        .toList();
        assertThat(rules).hasSizeGreaterThanOrEqualTo(9);
        List<String> differ = new ArrayList<>();
        for (PlantedRulesCrawl.Page page : crawl.pages) {
            String viaRegexes = page.url();
            for (UrlRule rule : rules) {
                viaRegexes = applyRegexes(rule, viaRegexes);
            }
            if (!viaRegexes.equals(UrlRule.normalise(rules, page.url()))) {
                differ.add(page.url());
            }
        }
        assertThat(differ).isEmpty();
    }
}
