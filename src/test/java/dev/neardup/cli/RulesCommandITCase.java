package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import dev.neardup.io.OutputSchemas;
import dev.neardup.testing.PlantedRulesCrawl;
import dev.neardup.urlrules.UrlRule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code neardup rules} on the outputs of the real job ({@code run}) over a generated crawl with
 * planted URL rules and content-changing parameters: every planted rule is learned (its pairs
 * normalise to one URL), no content-changing parameter is dropped, and fewer than 1% of the URLs
 * get the URL of a page of other content.
 */
class RulesCommandITCase {

    @TempDir static Path dir;

    private static PlantedRulesCrawl crawl;
    private static Path alerts;
    private static Path verdicts;

    @BeforeAll
    static void runTheJob() throws IOException {
        crawl = PlantedRulesCrawl.generate(48, 60);
        Path input = dir.resolve("crawl.jsonl");
        crawl.writeJsonl(input);
        alerts = dir.resolve("alerts.jsonl");
        verdicts = dir.resolve("verdicts.jsonl");
        CliRun run =
                CliRun.run(
                        "run",
                        "--input",
                        input.toString(),
                        "--alerts",
                        alerts.toString(),
                        "--verdicts",
                        verdicts.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
    }

    /** The rules of a rules file, in file order. */
    static List<UrlRule> read(Path rules) throws IOException {
        List<UrlRule> out = new ArrayList<>();
        for (String line : Files.readAllLines(rules, StandardCharsets.UTF_8)) {
            JsonNode r = Json.MAPPER.readTree(line);
            String host = r.get("host").asText();
            out.add(
                    switch (r.get("kind").asText()) {
                        case "host-alias" ->
                                UrlRule.hostAlias(r.get("from").asText(), r.get("to").asText());
                        case "replace" ->
                                UrlRule.replace(host, r.get("from").asText(), r.get("to").asText());
                        case "drop-parameter" ->
                                UrlRule.dropParameter(host, r.get("parameter").asText());
                        default -> throw new AssertionError(line);
                    });
        }
        return out;
    }

    @Test
    void learnsThePlantedRulesFromTheJobsOutputs() throws IOException {
        Path rules = dir.resolve("rules.jsonl");
        CliRun learned =
                CliRun.run(
                        "rules",
                        "--alerts",
                        alerts.toString(),
                        "--verdicts",
                        verdicts.toString(),
                        "--output",
                        rules.toString());
        assertThat(learned.exitCode()).as(learned.err()).isZero();
        assertThat(learned.err()).contains("rules (support >= ");
        List<UrlRule> found = read(rules);
        assertThat(crawl.pages).hasSizeGreaterThan(1000);
        assertThePlantedCriteria(crawl, found);
        // Every line is a rule with its evidence.
        List<JsonNode> records = new ArrayList<>();
        for (String line : Files.readAllLines(rules)) {
            records.add(Json.MAPPER.readTree(line));
        }
        OutputSchemas.assertAllValid("rule.schema.json", records);
        for (String line : Files.readAllLines(rules)) {
            JsonNode r = Json.MAPPER.readTree(line);
            assertThat(r.get("support").asLong()).isGreaterThanOrEqualTo(3);
            assertThat(r.get("precision").asDouble()).isGreaterThanOrEqualTo(0.95);
            assertThat(r.get("examples")).isNotEmpty();
        }
    }

    /**
     * Every planted rule is learned, no content-changing parameter (nor the noisy one) is dropped,
     * and fewer than 1% of the URLs are merged with a URL of other content.
     */
    static void assertThePlantedCriteria(PlantedRulesCrawl crawl, List<UrlRule> found) {
        List<String> unlearned = new ArrayList<>();
        for (PlantedRulesCrawl.Planted p : crawl.planted) {
            if (!UrlRule.normalise(found, p.url())
                    .equals(UrlRule.normalise(found, p.variantUrl()))) {
                unlearned.add(p.rule() + ": " + p.url() + " " + p.variantUrl());
            }
        }
        assertThat(unlearned).as("planted pairs the rules do not normalise together").isEmpty();
        assertThat(found)
                .filteredOn(r -> r.kind() == UrlRule.Kind.DROP_PARAMETER)
                .extracting(UrlRule::parameter)
                .doesNotContainAnyElementsOf(PlantedRulesCrawl.CONTENT_PARAMETERS);
        // Four times in five the same page, the fifth another: below the precision bound.
        assertThat(found).doesNotContain(UrlRule.dropParameter("store.example.org", "variant"));

        Map<String, Set<String>> clusters = new HashMap<>();
        for (PlantedRulesCrawl.Page p : crawl.pages) {
            clusters.computeIfAbsent(UrlRule.normalise(found, p.url()), k -> new HashSet<>())
                    .add(p.cluster());
        }
        long merged =
                crawl.pages.stream()
                        .filter(p -> clusters.get(UrlRule.normalise(found, p.url())).size() > 1)
                        .count();
        assertThat(merged / (double) crawl.pages.size())
                .as("share of URLs merged with a URL of other content")
                .isLessThan(0.01);
    }

    /** The outputs of 'dedupe' give rules that meet the same criteria, with and without pairs. */
    @Test
    void learnsThePlantedRulesFromADedupe() throws IOException {
        Path clusters = dir.resolve("clusters.jsonl");
        Path pairs = dir.resolve("pairs.jsonl");
        CliRun dedupe =
                CliRun.run(
                        "dedupe",
                        "--input",
                        dir.resolve("crawl.jsonl").toString(),
                        "--clusters",
                        clusters.toString(),
                        "--pairs",
                        pairs.toString(),
                        "-q");
        assertThat(dedupe.exitCode()).as(dedupe.err()).isZero();
        Path withPairs = dir.resolve("dedupe-rules.jsonl");
        Path withoutPairs = dir.resolve("dedupe-star-rules.jsonl");
        CliRun run =
                CliRun.run(
                        "rules",
                        "--clusters",
                        clusters.toString(),
                        "--pairs",
                        pairs.toString(),
                        "-o",
                        withPairs.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThePlantedCriteria(crawl, read(withPairs));
        run = CliRun.run("rules", "--clusters", clusters.toString(), "-o", withoutPairs.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThePlantedCriteria(crawl, read(withoutPairs));
    }

    @Test
    void aRunsAndADedupesOutputsDoNotMix() {
        CliRun.run("rules").usageError("neardup rules", "--verdicts");
        CliRun.run("rules", "--verdicts", verdicts.toString(), "--pairs", verdicts.toString())
                .usageError("neardup rules", "--pairs with --clusters");
    }

    @Test
    void theVerdictsAloneGiveTheSameRules() throws IOException {
        Path both = dir.resolve("both.jsonl");
        Path alone = dir.resolve("alone.jsonl");
        CliRun.run(
                "rules",
                "--alerts",
                alerts.toString(),
                "--verdicts",
                verdicts.toString(),
                "-o",
                both.toString());
        CliRun run = CliRun.run("rules", "--verdicts", verdicts.toString(), "-o", alone.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(read(alone)).containsExactlyElementsOf(read(both));
    }

    /**
     * The regex-normalize.xml and Heritrix formats hold regular expressions that normalise every
     * URL of the crawl as the rules file does, applied as Nutch applies them (each pattern's
     * replaceAll, in order) and as Heritrix does (each whole-URL match, in order).
     */
    @Test
    void theCrawlerFormatsNormaliseAsTheRules() throws Exception {
        Path jsonl = dir.resolve("formats.jsonl");
        Path nutch = dir.resolve("regex-normalize.xml");
        Path heritrix = dir.resolve("heritrix.xml");
        String v = verdicts.toString();
        assertThat(CliRun.run("rules", "--verdicts", v, "-o", jsonl.toString()).exitCode())
                .isZero();
        assertThat(
                        CliRun.run(
                                        "rules",
                                        "--verdicts",
                                        v,
                                        "--output-format",
                                        "regex-normalize",
                                        "-o",
                                        nutch.toString())
                                .exitCode())
                .isZero();
        assertThat(
                        CliRun.run(
                                        "rules",
                                        "--verdicts",
                                        v,
                                        "--output-format",
                                        "heritrix",
                                        "-o",
                                        heritrix.toString())
                                .exitCode())
                .isZero();
        List<UrlRule> rules = read(jsonl);
        javax.xml.parsers.DocumentBuilder xml =
                javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder();
        org.w3c.dom.Document n = xml.parse(nutch.toFile());
        List<String[]> nutchRules = new ArrayList<>();
        org.w3c.dom.NodeList regexes = n.getElementsByTagName("regex");
        for (int i = 0; i < regexes.getLength(); i++) {
            org.w3c.dom.Element e = (org.w3c.dom.Element) regexes.item(i);
            nutchRules.add(
                    new String[] {
                        e.getElementsByTagName("pattern").item(0).getTextContent(),
                        e.getElementsByTagName("substitution").item(0).getTextContent()
                    });
        }
        // Heritrix's beans are a fragment: wrapped in one element, they parse.
        org.w3c.dom.Document h =
                xml.parse(
                        new org.xml.sax.InputSource(
                                new java.io.StringReader(
                                        "<list>" + Files.readString(heritrix) + "</list>")));
        List<String[]> heritrixRules = new ArrayList<>();
        org.w3c.dom.NodeList beans = h.getElementsByTagName("bean");
        for (int i = 0; i < beans.getLength(); i++) {
            org.w3c.dom.Element bean = (org.w3c.dom.Element) beans.item(i);
            assertThat(bean.getAttribute("class"))
                    .isEqualTo("org.archive.modules.canonicalize.RegexRule");
            org.w3c.dom.NodeList props = bean.getElementsByTagName("property");
            heritrixRules.add(
                    new String[] {
                        ((org.w3c.dom.Element) props.item(0)).getAttribute("value"),
                        ((org.w3c.dom.Element) props.item(1)).getAttribute("value")
                    });
        }
        assertThat(nutchRules).hasSizeGreaterThanOrEqualTo(rules.size());
        for (PlantedRulesCrawl.Page page : crawl.pages) {
            String expected = UrlRule.normalise(rules, page.url());
            String viaNutch = page.url();
            for (String[] r : nutchRules) {
                viaNutch = java.util.regex.Pattern.compile(r[0]).matcher(viaNutch).replaceAll(r[1]);
            }
            String viaHeritrix = page.url();
            for (String[] r : heritrixRules) {
                java.util.regex.Matcher m =
                        java.util.regex.Pattern.compile(r[0]).matcher(viaHeritrix);
                if (m.matches()) {
                    StringBuffer b = new StringBuffer();
                    m.appendReplacement(b, r[1]);
                    viaHeritrix = b.toString();
                }
            }
            assertThat(viaNutch).as(page.url()).isEqualTo(expected);
            assertThat(viaHeritrix).as(page.url()).isEqualTo(expected);
        }
    }

    /**
     * On the sample crawl every rule its README's pairs suggest has one pair: the defaults write
     * none, and at a minimum support of 1 they are all there (print views, the old /en/ path, the
     * plain-text copies, the colour parameter).
     */
    @Test
    void theSampleCrawlsRulesAreWhatItsPairsSuggest() throws IOException {
        Path sampleAlerts = dir.resolve("sample-alerts.jsonl");
        Path sampleVerdicts = dir.resolve("sample-verdicts.jsonl");
        CliRun run =
                CliRun.run(
                        "run",
                        "--sample",
                        "--alerts",
                        sampleAlerts.toString(),
                        "--verdicts",
                        sampleVerdicts.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        Path defaults = dir.resolve("sample-rules.jsonl");
        Path all = dir.resolve("sample-rules-1.jsonl");
        String a = sampleAlerts.toString();
        String v = sampleVerdicts.toString();
        assertThat(
                        CliRun.run(
                                        "rules",
                                        "--alerts",
                                        a,
                                        "--verdicts",
                                        v,
                                        "-o",
                                        defaults.toString())
                                .err())
                .contains("0 rules (support >= 3, precision >= 0.95) explain 0 of 26");
        CliRun.run(
                "rules",
                "--alerts",
                a,
                "--verdicts",
                v,
                "--min-support",
                "1",
                "-o",
                all.toString());
        assertThat(read(defaults)).isEmpty();
        assertThat(read(all))
                .hasSize(14)
                .contains(
                        UrlRule.replace("news.example.org", "/print/", "/"),
                        UrlRule.replace("kitchen.example.com", "/print", ""),
                        UrlRule.replace("museum.example.org", "/en/", "/"),
                        UrlRule.replace("crumb.example.net", ".txt", ""),
                        UrlRule.replace("trails.example.org", "/printable.txt", ""),
                        UrlRule.dropParameter("shop.example.com", "colour"));
    }

    @Test
    void anUnknownFormatIsAUsageError() {
        CliRun.run("rules", "--verdicts", verdicts.toString(), "--output-format", "nutch")
                .usageError(
                        "neardup rules",
                        "--output-format: expected jsonl, regex-normalize or heritrix");
    }

    @Test
    void aMissingFileIsAUsageError() {
        CliRun.run("rules", "--verdicts", dir.resolve("missing.jsonl").toString())
                .usageError("neardup rules", "file not found");
    }

    @Test
    void linesOverALimitOrNotJsonAreSkippedWithTheirReason() throws IOException {
        Path bad = dir.resolve("bad-verdicts.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(verdicts));
        lines.add(2, "{not json");
        lines.add(3, "[1, 2]");
        lines.add(
                4, "{\"docId\": \"x\", \"url\": \"https://a.example/" + "a".repeat(70_000) + "\"}");
        Files.write(bad, lines);
        CliRun run = CliRun.run("rules", "--verdicts", bad.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err())
                .contains("bad-verdicts.jsonl:3: not JSON")
                .contains("bad-verdicts.jsonl:4: not a JSON object")
                .contains("bad-verdicts.jsonl:5: a URL longer than 65536 bytes")
                .contains("lines skipped:");
        assertThat(run.out()).isNotEmpty();
    }
}
