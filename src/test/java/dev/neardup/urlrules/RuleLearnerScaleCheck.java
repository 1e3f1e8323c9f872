package dev.neardup.urlrules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.testing.PlantedRulesCrawl;
import org.junit.jupiter.api.Test;

/**
 * Time of the learning on a large planted crawl (about 45,000 pages on seven hosts, every pair of
 * each cluster). Too slow for every build, so its name keeps it out of the default test run; run it
 * with {@code mvn test -Dtest=RuleLearnerScaleCheck}.
 */
class RuleLearnerScaleCheck {

    @Test
    void fortyFiveThousandPages() {
        PlantedRulesCrawl crawl = PlantedRulesCrawl.generate(3, 2000);
        long start = System.nanoTime();
        RuleLearner.Result r =
                RuleLearnerTest.learnFromTruth(crawl, new RuleLearner.Settings(3, 0.95, 3));
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
                "%d pages, %d pairs: %d rules, %d candidates rejected, in %.1f s%n",
                crawl.pages.size(), r.pairs(), r.rules().size(), r.rejected().size(), seconds);
        assertThat(
                        PlantedRules.unlearned(
                                crawl, r.rules().stream().map(RuleLearner.Learned::rule).toList()))
                .isEmpty();
    }
}
