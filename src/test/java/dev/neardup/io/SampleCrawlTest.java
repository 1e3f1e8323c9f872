package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import dev.neardup.testing.SampleCrawlGenerator;
import dev.neardup.text.ContentType;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sample crawl bundled in the jar ({@code /sample/crawl.jsonl}) is what its README says: the
 * number of documents and malformed lines with the reason each malformed line is rejected for, the
 * re-crawls, and the exact similarity of every documented pair ({@code sample-pairs.csv}, written
 * by {@link SampleCrawlGenerator}), recomputed here from the bundled file. Also checks that the
 * three files are exactly what the generator produces today, so they cannot go stale.
 */
class SampleCrawlTest {

    static final int LINES = 66;
    static final int DOCUMENTS = 61; // parsed by DocumentParser, including the NO_TEXT page
    static final int DISTINCT_IDS = 55;
    static final int MAX_BYTES = 400 * 1024;

    /** Lines the parser rejects, with the dead-letter reason the README documents. */
    static final Map<Integer, DeadLetter.Reason> REJECTED =
            Map.of(
                    29, DeadLetter.Reason.MALFORMED_JSON,
                    46, DeadLetter.Reason.NOT_AN_OBJECT,
                    56, DeadLetter.Reason.MISSING_ID,
                    58, DeadLetter.Reason.MISSING_CONTENT,
                    62, DeadLetter.Reason.EMPTY_CONTENT);

    /** The line that parses but has no visible word (the job dead-letters it as NO_TEXT). */
    static final int NO_TEXT_LINE = 32;

    static byte[] crawlBytes;
    static List<String> lines;
    static Map<Integer, DocumentParser.Result> results;
    static Map<Integer, ShingleSet> shingles;

    @BeforeAll
    static void load() {
        crawlBytes = resource("/sample/crawl.jsonl");
        String text = new String(crawlBytes, StandardCharsets.UTF_8);
        assertThat(text).endsWith("\n");
        lines = List.of(text.substring(0, text.length() - 1).split("\n", -1));
        DocumentParser parser =
                new DocumentParser(
                        new InputFields("id", "content", "url", "contentType", "fetchedAt"),
                        8 << 20);
        results = new TreeMap<>();
        shingles = new HashMap<>();
        Shingler shingler = new Shingler(ShingleOptions.defaults());
        for (int i = 0; i < lines.size(); i++) {
            int line = i + 1;
            RawRecord raw =
                    new RawRecord(
                            lines.get(i).getBytes(StandardCharsets.UTF_8), "crawl.jsonl:" + line);
            DocumentParser.Result r = parser.parse(raw, 0, 0);
            results.put(line, r);
            if (r.document() != null) {
                Document d = r.document();
                shingles.put(
                        line,
                        ShingleSet.of(
                                shingler.shingleHashes(
                                        d.content, ContentType.detect(d.contentType, d.content))));
            }
        }
    }

    static byte[] resource(String name) {
        try (InputStream in = SampleCrawlTest.class.getResourceAsStream(name)) {
            assertThat(in).as("classpath resource " + name).isNotNull();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Document doc(int line) {
        Document d = results.get(line).document();
        assertThat(d).as("line " + line + " is a document").isNotNull();
        return d;
    }

    @Test
    void hasTheDocumentedNumberOfLinesAndIsSmall() {
        assertThat(lines).hasSize(LINES);
        assertThat(lines).allSatisfy(l -> assertThat(l).isNotBlank());
        assertThat(crawlBytes.length).isLessThan(MAX_BYTES);
    }

    @Test
    void malformedLinesAreRejectedForTheDocumentedReasons() {
        Map<Integer, DeadLetter.Reason> rejected = new TreeMap<>();
        results.forEach(
                (line, r) -> {
                    if (r.deadLetter() != null) {
                        rejected.put(line, DeadLetter.Reason.valueOf(r.deadLetter().reason));
                        assertThat(r.deadLetter().source).isEqualTo("crawl.jsonl:" + line);
                        assertThat(r.deadLetter().payload).isEqualTo(lines.get(line - 1));
                    }
                });
        assertThat(rejected).isEqualTo(new TreeMap<>(REJECTED));
        long documents = results.values().stream().filter(r -> r.document() != null).count();
        assertThat(documents).isEqualTo(DOCUMENTS);
        assertThat(DOCUMENTS + REJECTED.size()).isEqualTo(LINES);
    }

    @Test
    void exactlyOneDocumentHasNoVisibleText() {
        List<Integer> empty =
                shingles.entrySet().stream()
                        .filter(e -> e.getValue().isEmpty())
                        .map(Map.Entry::getKey)
                        .toList();
        assertThat(empty).containsExactly(NO_TEXT_LINE);
        assertThat(doc(NO_TEXT_LINE).content).contains("<div id=\"root\"></div>");
    }

    @Test
    void documentsHaveTheDocumentedFields() {
        Instant from = Instant.parse("2026-03-02T00:00:00Z");
        Instant to = Instant.parse("2026-03-12T00:00:00Z");
        int outOfOrder = 0;
        long previous = Long.MIN_VALUE;
        for (Map.Entry<Integer, DocumentParser.Result> e : results.entrySet()) {
            Document d = e.getValue().document();
            if (d == null) {
                continue;
            }
            assertThat(d.contentType).isIn("text/html", "text/plain");
            assertThat(d.url).isEqualTo("https://" + d.id);
            String host = URI.create(d.url).getHost();
            assertThat(host).matches("([a-z0-9-]+\\.)*example\\.(org|com|net)");
            assertThat(Instant.ofEpochMilli(d.eventTime)).isBetween(from, to);
            if (d.eventTime < previous) {
                outOfOrder++;
            }
            previous = d.eventTime;
        }
        // Mostly in fetch order, with a few late lines (the README lists them).
        assertThat(outOfOrder).isBetween(1, 8);
    }

    @Test
    void onlyRecrawlsRepeatAnIdAndTheyComeLater() {
        Map<String, List<Integer>> byId = new LinkedHashMap<>();
        results.forEach(
                (line, r) -> {
                    if (r.document() != null) {
                        byId.computeIfAbsent(r.document().id, k -> new ArrayList<>()).add(line);
                    }
                });
        assertThat(byId).hasSize(DISTINCT_IDS);
        int recrawls = 0;
        for (List<Integer> same : byId.values()) {
            for (int k = 1; k < same.size(); k++) {
                Document earlier = doc(same.get(k - 1));
                Document later = doc(same.get(k));
                assertThat(later.url).isEqualTo(earlier.url);
                assertThat(later.eventTime).isGreaterThan(earlier.eventTime);
                assertThat(later.content).isNotEqualTo(earlier.content);
                recrawls++;
            }
        }
        assertThat(recrawls).isEqualTo(DOCUMENTS - DISTINCT_IDS);
    }

    /** One row of sample-pairs.csv. */
    record PairRow(
            int lineA,
            int lineB,
            String idA,
            String idB,
            String kind,
            double jaccard,
            double aInB,
            double bInA) {}

    static List<PairRow> pairRows() {
        String csv = new String(resource("/sample-pairs.csv"), StandardCharsets.UTF_8);
        List<PairRow> rows = new ArrayList<>();
        boolean header = true;
        for (String line : csv.split("\n")) {
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (header) {
                assertThat(f)
                        .containsExactly(
                                "lineA",
                                "lineB",
                                "idA",
                                "idB",
                                "kind",
                                "jaccard",
                                "containmentAinB",
                                "containmentBinA");
                header = false;
                continue;
            }
            assertThat(f).hasSize(8);
            rows.add(
                    new PairRow(
                            Integer.parseInt(f[0]),
                            Integer.parseInt(f[1]),
                            f[2],
                            f[3],
                            f[4],
                            Double.parseDouble(f[5]),
                            Double.parseDouble(f[6]),
                            Double.parseDouble(f[7])));
        }
        return rows;
    }

    @Test
    void documentedPairsHaveTheDocumentedExactSimilarity() {
        List<PairRow> rows = pairRows();
        assertThat(rows).hasSizeGreaterThan(40);
        for (PairRow p : rows) {
            String what = p.lineA() + "/" + p.lineB() + " (" + p.kind() + ")";
            assertThat(p.lineA()).as(what).isLessThan(p.lineB());
            assertThat(doc(p.lineA()).id).as(what).isEqualTo(p.idA());
            assertThat(doc(p.lineB()).id).as(what).isEqualTo(p.idB());
            ShingleSet a = shingles.get(p.lineA());
            ShingleSet b = shingles.get(p.lineB());
            assertThat(Similarity.jaccard(a, b)).as(what).isCloseTo(p.jaccard(), within(1e-9));
            assertThat(Similarity.containment(a, b)).as(what).isCloseTo(p.aInB(), within(1e-9));
            assertThat(Similarity.containment(b, a)).as(what).isCloseTo(p.bInA(), within(1e-9));
        }
    }

    @Test
    void pairsCoverEveryKindWithASpreadOfSimilarities() {
        List<PairRow> rows = pairRows();
        Map<String, Long> kinds =
                rows.stream().collect(Collectors.groupingBy(PairRow::kind, Collectors.counting()));
        for (String kind :
                List.of(
                        "mirror",
                        "light-edit",
                        "reordered",
                        "contained",
                        "plain-text",
                        "re-crawl",
                        "boilerplate")) {
            assertThat(kinds.getOrDefault(kind, 0L)).as(kind).isGreaterThanOrEqualTo(3);
        }
        assertThat(kinds.keySet())
                .isSubsetOf(
                        Set.of(
                                "mirror",
                                "light-edit",
                                "reordered",
                                "contained",
                                "plain-text",
                                "re-crawl",
                                "boilerplate",
                                "related",
                                "incidental"));
        List<PairRow> built =
                rows.stream()
                        .filter(p -> !p.kind().equals("related") && !p.kind().equals("incidental"))
                        .toList();
        assertThat(built.stream().filter(p -> p.jaccard() >= 0.9).count())
                .isGreaterThanOrEqualTo(3);
        assertThat(built.stream().filter(p -> p.jaccard() >= 0.8 && p.jaccard() < 0.9).count())
                .isGreaterThanOrEqualTo(3);
        assertThat(built.stream().filter(p -> p.jaccard() >= 0.5 && p.jaccard() < 0.8).count())
                .isGreaterThanOrEqualTo(3);
        // Containment: the smaller page is (almost) wholly inside the digest, with a low Jaccard.
        for (PairRow p : built) {
            if (p.kind().equals("contained")) {
                assertThat(Math.max(p.aInB(), p.bInA())).as(p.toString()).isGreaterThan(0.95);
                assertThat(p.jaccard()).as(p.toString()).isLessThan(0.75);
            }
        }
    }

    @Test
    void readmeTablesAgreeWithThePairsFile() {
        String readme = new String(resource("/sample/README.md"), StandardCharsets.UTF_8);
        for (PairRow p : pairRows()) {
            if (p.kind().equals("related") || p.kind().equals("incidental")) {
                continue;
            }
            String row =
                    String.format(
                            Locale.ROOT,
                            "| %d `%s` | %d `%s` | %s | %.3f | %.3f | %.3f |",
                            p.lineA(),
                            p.idA(),
                            p.lineB(),
                            p.idB(),
                            p.kind(),
                            p.jaccard(),
                            p.aInB(),
                            p.bInA());
            assertThat(readme).contains(row);
        }
        for (Map.Entry<Integer, DeadLetter.Reason> e : REJECTED.entrySet()) {
            assertThat(readme)
                    .containsPattern(
                            "\\| " + e.getKey() + " \\| [^\\n]*`" + e.getValue() + "` \\|");
        }
        assertThat(readme).containsPattern("\\| " + NO_TEXT_LINE + " \\| [^\\n]*`NO_TEXT` \\|");
    }

    @Test
    void bundledFilesAreWhatTheGeneratorWrites() {
        SampleCrawlGenerator.Output out = SampleCrawlGenerator.generate();
        assertThat(new String(crawlBytes, StandardCharsets.UTF_8))
                .as("sample/crawl.jsonl is stale: re-run SampleCrawlGenerator")
                .isEqualTo(out.crawl());
        assertThat(new String(resource("/sample/README.md"), StandardCharsets.UTF_8))
                .as("sample/README.md is stale: re-run SampleCrawlGenerator")
                .isEqualTo(out.readme());
        assertThat(new String(resource("/sample-pairs.csv"), StandardCharsets.UTF_8))
                .as("sample-pairs.csv is stale: re-run SampleCrawlGenerator")
                .isEqualTo(out.pairs());
    }
}
