package dev.neardup.urlrules;

import dev.neardup.testing.PlantedRulesCrawl;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The measures of learned rules on a {@link PlantedRulesCrawl}: what the tests assert. */
final class PlantedRules {

    private PlantedRules() {}

    /** The planted pairs whose two URLs the rules do not normalise to one URL. */
    static List<PlantedRulesCrawl.Planted> unlearned(PlantedRulesCrawl crawl, List<UrlRule> rules) {
        List<PlantedRulesCrawl.Planted> out = new ArrayList<>();
        for (PlantedRulesCrawl.Planted p : crawl.planted) {
            if (!UrlRule.normalise(rules, p.url())
                    .equals(UrlRule.normalise(rules, p.variantUrl()))) {
                out.add(p);
            }
        }
        return out;
    }

    /** The rules that drop a parameter whose values name different content. */
    static List<UrlRule> contentParametersDropped(List<UrlRule> rules) {
        return rules.stream()
                .filter(r -> r.kind() == UrlRule.Kind.DROP_PARAMETER)
                .filter(r -> PlantedRulesCrawl.CONTENT_PARAMETERS.contains(r.parameter()))
                .toList();
    }

    /** The share of the crawl's URLs that the rules give the URL of a page of another cluster. */
    static double wronglyMerged(PlantedRulesCrawl crawl, List<UrlRule> rules) {
        Map<String, Set<String>> clustersByUrl = new HashMap<>();
        Map<String, String> normalised = new HashMap<>();
        for (PlantedRulesCrawl.Page p : crawl.pages) {
            String n = UrlRule.normalise(rules, p.url());
            normalised.put(p.url(), n);
            clustersByUrl.computeIfAbsent(n, k -> new HashSet<>()).add(p.cluster());
        }
        long wrong =
                crawl.pages.stream()
                        .filter(p -> clustersByUrl.get(normalised.get(p.url())).size() > 1)
                        .count();
        return wrong / (double) crawl.pages.size();
    }
}
