package dev.neardup.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The technical terms of the user pages (README.md and docs/*.md; not the generated reference, not
 * the design notes, not the index) are explained before they are used: on each page, the first use
 * of a term in prose (code and headings left out) sits in a paragraph, list item or table row that
 * links to where the term is explained, or comes after the term's own anchor on the page that
 * explains it.
 */
class DocTermsTest {

    private static final String CONCEPTS = "docs/concepts.md";

    /** A term: how it is written, and the places that explain it ("file" or "file#anchor"). */
    record Term(String name, Pattern pattern, List<String> explainedAt) {
        Term(String name, String regex, String... explainedAt) {
            this(name, Pattern.compile(regex, Pattern.CASE_INSENSITIVE), List.of(explainedAt));
        }
    }

    static final List<Term> TERMS =
            List.of(
                    new Term(
                            "shingle",
                            "\\bshingl\\w*",
                            CONCEPTS + "#shingle",
                            CONCEPTS + "#shingles"),
                    new Term(
                            "Jaccard similarity",
                            "\\bJaccard\\b",
                            CONCEPTS + "#jaccard",
                            CONCEPTS + "#shingles"),
                    new Term(
                            "MinHash signature",
                            "\\bMinHash\\b|\\bsignatures?\\b(?! bits)",
                            CONCEPTS + "#signature",
                            CONCEPTS + "#minhash-signatures"),
                    new Term("OPH", "\\bOPH\\b|\\bone-permutation\\b", CONCEPTS + "#oph"),
                    new Term(
                            "band",
                            "(?<!similarity )\\bband(?:s|ing|ings)?\\b",
                            CONCEPTS + "#bands",
                            CONCEPTS + "#bands-and-buckets"),
                    new Term(
                            "bucket",
                            "(?<!similarity )\\bbuckets?\\b",
                            CONCEPTS + "#bands-and-buckets",
                            CONCEPTS + "#bucket-capacity"),
                    new Term(
                            "bucket capacity",
                            "\\bcapacity\\b",
                            CONCEPTS + "#bucket-capacity",
                            CONCEPTS + "#bounds-capacity-exact-copies-retention-re-crawls"),
                    new Term(
                            "signature bits",
                            "\\bsignature bits\\b|\\bb-bit\\b"
                                    + "|\\b\\d+-bit (?:MinHash|signature|verification)\\b"
                                    + "|\\bbits (?:a bucket keeps )?per (?:stored )?value\\b",
                            CONCEPTS + "#signature-bits"),
                    new Term(
                            "exact verification",
                            "\\bexact (?:verification|answer)\\b",
                            CONCEPTS + "#exact-verification",
                            "docs/evaluate.md"),
                    new Term(
                            "watermark",
                            "\\bwatermarks?\\b",
                            CONCEPTS + "#watermark",
                            CONCEPTS + "#order-event-time-and-watermarks"),
                    new Term(
                            "disorder",
                            "\\bdisorder\\b|\\bout of order\\b",
                            CONCEPTS + "#disorder",
                            CONCEPTS + "#order-event-time-and-watermarks"),
                    new Term(
                            "split",
                            "\\bsplits\\b|\\bsplit count\\b|\\b(?:a|one) split\\b",
                            CONCEPTS + "#split"),
                    new Term("SimHash", "\\bSimHash\\b", CONCEPTS + "#simhash", "docs/cosine.md"),
                    new Term(
                            "containment",
                            "\\bcontainment\\b|\\bcontained\\b",
                            CONCEPTS + "#containment",
                            "docs/containment.md"),
                    new Term(
                            "dead letter",
                            "\\bdead[ -]letters?\\b",
                            CONCEPTS + "#dead-letter",
                            "docs/reference/dead-letters-and-exit-codes.md",
                            "docs/reference/outputs.md#neardup-dead-letter"),
                    new Term(
                            "checkpoint",
                            "\\bcheckpoint(?:s|ing|ed)?\\b",
                            CONCEPTS + "#checkpoint",
                            CONCEPTS + "#parallelism-state-and-checkpoints"),
                    new Term(
                            "savepoint",
                            "\\bsavepoints?\\b",
                            CONCEPTS + "#savepoint",
                            "docs/flink-cluster.md#savepoints"),
                    new Term("RocksDB", "\\bRocksDB\\b", CONCEPTS + "#rocksdb"),
                    new Term(
                            "keyed state",
                            "\\bkeyed (?:state|stages?|path)\\b",
                            CONCEPTS + "#keyed-state"),
                    new Term(
                            "parallelism",
                            "\\bparallelism\\b|\\bsubtasks?\\b",
                            CONCEPTS + "#parallelism",
                            CONCEPTS + "#parallelism-state-and-checkpoints"));

    private static final Pattern LINK = Pattern.compile("(?<!!)\\[([^\\]]*)\\]\\(([^)\\s]+)\\)");
    private static final Pattern IMAGE = Pattern.compile("!\\[[^\\]]*\\]\\([^)\\s]+\\)");
    private static final Pattern ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"\\s*>");
    private static final Pattern TAG = Pattern.compile("<[^>\\n]+>");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    /** A table of contents line: a list item of links into the page itself, navigation only. */
    private static final Pattern CONTENTS_LINE =
            Pattern.compile(
                    "^\\s*[-*]\\s+\\[[^\\]]*\\]\\(#[^)]*\\)(?:,?\\s*\\[[^\\]]*\\]\\(#[^)]*\\))*,?\\s*$");

    private static final Pattern BLOCK_START = Pattern.compile("^\\s*(?:[-*]|\\d+\\.)\\s|^\\s*\\|");

    static List<Path> userPages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> files = Files.list(Path.of("docs"))) {
            files.filter(f -> f.toString().endsWith(".md"))
                    .filter(f -> !f.getFileName().toString().equals("README.md")) // the index
                    .sorted()
                    .forEach(pages::add);
        }
        return pages;
    }

    @Test
    void everyTermIsExplainedOrLinkedBeforeItIsUsed() throws IOException {
        List<String> unexplained = new ArrayList<>();
        for (Path page : userPages()) {
            unexplained.addAll(check(page, Files.readString(page, StandardCharsets.UTF_8)));
        }
        assertThat(unexplained).as("terms used before they are explained or linked").isEmpty();
    }

    @Test
    void aPlantedUnlinkedTermIsFound() {
        String page =
                "# A page\n\n"
                        + "The job keeps its state in RocksDB.\n\n"
                        + "See [state](concepts.md#rocksdb).\n";
        assertThat(check(Path.of("docs", "planted.md"), page))
                .containsExactly("docs/planted.md:3: RocksDB (\"RocksDB\")");
        String linked = "# A page\n\nThe job keeps its state in [RocksDB](concepts.md#rocksdb).\n";
        assertThat(check(Path.of("docs", "planted.md"), linked)).isEmpty();
    }

    @Test
    void everyPlaceThatExplainsATermExists() {
        for (Term term : TERMS) {
            for (String at : term.explainedAt()) {
                int hash = at.indexOf('#');
                Path file = Path.of(hash < 0 ? at : at.substring(0, hash));
                assertThat(file).as(at).exists();
                if (hash >= 0) {
                    assertThat(DocLinksTest.anchorsOf(file))
                            .as(at)
                            .contains(at.substring(hash + 1));
                }
            }
        }
    }

    /** The terms of a page whose first use is neither explained before it nor linked. */
    static List<String> check(Path page, String raw) {
        String text = DocLinksTest.withoutCode(raw.replaceAll("(?s)<!--.*?-->", ""));
        String[] lines = text.split("\n", -1);
        // where each block (paragraph, list item, table row) starts and ends, in lines
        int[] blockOf = new int[lines.length];
        List<int[]> blocks = new ArrayList<>();
        int start = -1;
        for (int i = 0; i <= lines.length; i++) {
            boolean end =
                    i == lines.length
                            || lines[i].isBlank()
                            || HEADING.matcher(lines[i]).matches()
                            || BLOCK_START.matcher(lines[i]).find();
            if (end && start >= 0) {
                blocks.add(new int[] {start, i});
                start = -1;
            }
            if (i < lines.length && !lines[i].isBlank()) {
                if (HEADING.matcher(lines[i]).matches()) {
                    blockOf[i] = -1;
                    continue;
                }
                if (start < 0) {
                    start = i;
                }
                blockOf[i] = blocks.size();
            }
        }
        String pageName = page.toString().replace('\\', '/');
        List<String> out = new ArrayList<>();
        for (Term term : TERMS) {
            int[] first = firstUse(lines, blockOf, term.pattern());
            if (first == null) {
                continue;
            }
            int[] block = blocks.get(blockOf[first[0]]);
            boolean explained = false;
            for (int i = block[0]; i < block[1] && !explained; i++) {
                Matcher link = LINK.matcher(lines[i]);
                while (link.find() && !explained) {
                    explained = explains(term, resolve(page, link.group(2)));
                }
            }
            for (String at : term.explainedAt()) {
                int hash = at.indexOf('#');
                String file = hash < 0 ? at : at.substring(0, hash);
                if (!file.equals(pageName)) {
                    continue;
                }
                if (hash < 0) {
                    explained = true; // the page is about the term
                } else {
                    int anchorLine = anchorLine(lines, at.substring(hash + 1));
                    explained |= anchorLine >= 0 && anchorLine <= first[0];
                }
            }
            if (!explained) {
                out.add(
                        pageName
                                + ":"
                                + (first[0] + 1)
                                + ": "
                                + term.name()
                                + " (\""
                                + lines[first[0]].substring(first[1], first[2])
                                + "\")");
            }
        }
        return out;
    }

    /**
     * The line, start and end of the first use of a term outside headings, tags and link targets.
     */
    private static int[] firstUse(String[] lines, int[] blockOf, Pattern term) {
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank() || blockOf[i] < 0 || CONTENTS_LINE.matcher(lines[i]).matches()) {
                continue;
            }
            String prose =
                    blank(blank(blank(lines[i], IMAGE), TAG), Pattern.compile("\\]\\([^)\\s]+\\)"));
            Matcher m = term.matcher(prose);
            if (m.find()) {
                return new int[] {i, m.start(), m.end()};
            }
        }
        return null;
    }

    private static String blank(String line, Pattern p) {
        StringBuilder b = new StringBuilder(line);
        Matcher m = p.matcher(line);
        while (m.find()) {
            for (int i = m.start(); i < m.end(); i++) {
                b.setCharAt(i, ' ');
            }
        }
        return b.toString();
    }

    private static int anchorLine(String[] lines, String anchor) {
        for (int i = 0; i < lines.length; i++) {
            Matcher a = ANCHOR.matcher(lines[i]);
            while (a.find()) {
                if (a.group(1).equals(anchor)) {
                    return i;
                }
            }
            Matcher h = HEADING.matcher(lines[i]);
            if (h.matches() && DocLinksTest.slug(h.group(1)).equals(anchor)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean explains(Term term, String target) {
        if (target == null) {
            return false;
        }
        for (String at : term.explainedAt()) {
            if (at.contains("#") ? target.equals(at) : target.replaceFirst("#.*", "").equals(at)) {
                return true;
            }
        }
        return false;
    }

    /** A link target as "path/from/root.md#anchor", or null for an external link. */
    private static String resolve(Path page, String target) {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") || target.startsWith("//")) {
            return null;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? "" : target.substring(hash);
        Path base = page.getParent() == null ? Path.of("") : page.getParent();
        Path resolved = file.isEmpty() ? page : base.resolve(file).normalize();
        return resolved.toString().replace('\\', '/') + anchor;
    }
}
