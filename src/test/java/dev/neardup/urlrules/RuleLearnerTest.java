package dev.neardup.urlrules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.testing.PlantedRulesCrawl;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuleLearnerTest {

    private static final RuleLearner.Settings DEFAULTS = new RuleLearner.Settings(3, 0.95, 3);

    /** The pages of a planted crawl with their true clusters, and every pair within a cluster. */
    static RuleLearner.Result learnFromTruth(PlantedRulesCrawl crawl, RuleLearner.Settings s) {
        List<RuleLearner.Page> pages = new ArrayList<>();
        Map<String, List<String>> members = new LinkedHashMap<>();
        for (PlantedRulesCrawl.Page p : crawl.pages) {
            pages.add(new RuleLearner.Page(p.url(), p.cluster()));
            members.computeIfAbsent(p.cluster(), k -> new ArrayList<>()).add(p.url());
        }
        List<RuleLearner.Pair> pairs = new ArrayList<>();
        for (List<String> urls : members.values()) {
            for (int i = 1; i < urls.size(); i++) {
                for (int j = 0; j < i; j++) {
                    pairs.add(new RuleLearner.Pair(urls.get(i), urls.get(j)));
                }
            }
        }
        return RuleLearner.learn(pages, pairs, s);
    }

    @Test
    void learnsEveryPlantedRuleAndNoContentParameter() {
        PlantedRulesCrawl crawl = PlantedRulesCrawl.generate(48, 40);
        RuleLearner.Result result = learnFromTruth(crawl, DEFAULTS);
        List<UrlRule> rules = result.rules().stream().map(RuleLearner.Learned::rule).toList();
        assertThat(PlantedRules.unlearned(crawl, rules)).isEmpty();
        assertThat(PlantedRules.contentParametersDropped(rules)).isEmpty();
        assertThat(PlantedRules.wronglyMerged(crawl, rules)).isLessThan(0.01);
        // The listing without its page parameter is page 1: that pair proposes dropping 'page',
        // and the other pages are the evidence against it.
        assertThat(result.rejected())
                .anySatisfy(
                        l -> {
                            assertThat(l.rule())
                                    .isEqualTo(UrlRule.dropParameter("shop.example.com", "page"));
                            assertThat(l.violations()).isGreaterThan(l.support());
                        });
        assertThat(result.explained()).isLessThan(result.pairs()); // the "not found" pages
    }

    @Test
    void orderedSoThatAliasesComeFirstAndChainsEndAtOneHost() {
        List<RuleLearner.Page> pages = new ArrayList<>();
        List<RuleLearner.Pair> pairs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String a = "https://example.org/p" + i + "/";
            pages.add(new RuleLearner.Page(a, "c" + i));
            pages.add(new RuleLearner.Page("https://example.org/p" + i + "/index.html", "c" + i));
            pages.add(new RuleLearner.Page("http://www.example.org/p" + i + "/", "c" + i));
            pairs.add(new RuleLearner.Pair("https://example.org/p" + i + "/index.html", a));
            pairs.add(new RuleLearner.Pair("http://www.example.org/p" + i + "/", a));
            pages.add(new RuleLearner.Page("https://example.org/q" + i, "q" + i));
        }
        RuleLearner.Result result = RuleLearner.learn(pages, pairs, DEFAULTS);
        assertThat(result.rules())
                .extracting(l -> l.rule().kind())
                .containsExactly(
                        UrlRule.Kind.HOST_ALIAS, UrlRule.Kind.REPLACE, UrlRule.Kind.REPLACE);
        assertThat(result.rules().get(0).rule())
                .isEqualTo(UrlRule.hostAlias("www.example.org", "example.org"));
        assertThat(result.explained()).isEqualTo(result.pairs()).isEqualTo(6);
        assertThat(result.rules()).allSatisfy(l -> assertThat(l.precision()).isEqualTo(1.0));
    }

    @Test
    void anAliasOfAnAliasGoesToTheLastHost() {
        List<RuleLearner.Page> pages = new ArrayList<>();
        List<RuleLearner.Pair> pairs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String org = "https://example.org/p" + i;
            pages.add(new RuleLearner.Page(org, "c" + i));
            pages.add(new RuleLearner.Page("https://example.org/only" + i, "o" + i));
            if (i < 4) {
                pages.add(new RuleLearner.Page("https://www.example.org/p" + i, "c" + i));
                pairs.add(new RuleLearner.Pair("https://www.example.org/p" + i, org));
            }
            if (i < 3) {
                // Paired with the www host only: its alias goes through www to example.org.
                pages.add(new RuleLearner.Page("https://example.net/p" + i, "c" + i));
                pairs.add(
                        new RuleLearner.Pair(
                                "https://example.net/p" + i, "https://www.example.org/p" + i));
            }
        }
        RuleLearner.Result result = RuleLearner.learn(pages, pairs, DEFAULTS);
        assertThat(result.rules())
                .extracting(RuleLearner.Learned::rule)
                .containsExactly(
                        UrlRule.hostAlias("www.example.org", "example.org"),
                        UrlRule.hostAlias("example.net", "example.org"));
        assertThat(result.explained()).isEqualTo(result.pairs()).isEqualTo(7);
    }
}
