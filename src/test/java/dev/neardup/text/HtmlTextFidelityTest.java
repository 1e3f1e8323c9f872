package dev.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.jsoup.parser.Parser;
import org.jsoup.parser.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The streaming {@link HtmlText#extract} keeps the text jsoup's DOM keeps ({@link HtmlTextDom}, the
 * previous implementation): the word 5-shingle sets of the two agree to Jaccard &ge; 0.99 per page,
 * on the bundled sample crawl and on generated pages ({@link HtmlPages}); on the sample, and on
 * most generated pages, the tokens are identical.
 */
class HtmlTextFidelityTest {

    private static final long SEED = 20261123L;
    private static final int GENERATED_PAGES = 400;

    private final Shingler shingler = new Shingler(ShingleOptions.defaults());
    private final HtmlText extractor = new HtmlText(); // one instance for all pages: reuse too

    static Stream<Arguments> samplePages() throws IOException {
        List<Arguments> pages = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        try (InputStream in =
                HtmlTextFidelityTest.class.getResourceAsStream("/sample/crawl.jsonl")) {
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (int i = 0; i < lines.length; i++) {
                JsonNode node;
                try {
                    node = json.readTree(lines[i]);
                } catch (IOException malformed) {
                    continue; // the sample has deliberately malformed lines
                }
                if (node == null || !node.isObject() || !node.path("content").isTextual()) {
                    continue;
                }
                String content = node.get("content").asText();
                String mime =
                        node.path("contentType").isTextual()
                                ? node.get("contentType").asText()
                                : null;
                if (ContentType.detect(mime, content) == ContentType.HTML) {
                    pages.add(Arguments.of("crawl.jsonl:" + (i + 1), content));
                }
            }
        }
        assertThat(pages).as("HTML pages in the sample").hasSizeGreaterThan(50);
        return pages.stream();
    }

    /** The sample's pages give the very same tokens, so the same signatures and alerts. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("samplePages")
    void samplePagesGiveTheSameTokensAsTheDom(String name, String html) {
        assertThat(jaccard(html)).isGreaterThanOrEqualTo(0.99);
        assertThat(shingler.normalize(extractor.extract(html)))
                .isEqualTo(shingler.normalize(HtmlTextDom.visibleText(html)));
    }

    @Test
    void generatedPagesAgreeWithTheDom() {
        int identical = 0;
        List<String> below = new ArrayList<>();
        for (int i = 0; i < GENERATED_PAGES; i++) {
            String html = HtmlPages.page(SEED, i);
            double j = jaccard(html);
            if (j < 0.99) {
                below.add(String.format("page %d: Jaccard %.4f%n%s", i, j, html));
            }
            if (shingler.normalize(extractor.extract(html))
                    .equals(shingler.normalize(HtmlTextDom.visibleText(html)))) {
                identical++;
            }
        }
        assertThat(below).as("generated pages with Jaccard < 0.99").isEmpty();
        // Stronger, where it holds: the same tokens on (nearly) every generated page.
        assertThat(identical)
                .as("pages with identical tokens")
                .isGreaterThanOrEqualTo(GENERATED_PAGES);
    }

    @Test
    void generatedPagesExerciseTheMarkupTheyAreMeantTo() {
        String all =
                IntStream.range(0, GENERATED_PAGES)
                        .mapToObj(i -> HtmlPages.page(SEED, i))
                        .reduce("", String::concat);
        assertThat(all)
                .contains(
                        "<![CDATA[",
                        "<!-->",
                        "<!--->",
                        "--!>",
                        "<p<b>",
                        "<pre>",
                        "<!--\nvar s",
                        "</div>",
                        "<noscript>",
                        "<template",
                        "<svg",
                        "<title>",
                        "<TITLE>",
                        "title=\"a > b\"",
                        "<br/>",
                        "<textarea",
                        "&amp",
                        "&#x1F600;",
                        "&copy2",
                        "<!-- unterminated");
    }

    /** The block list is jsoup's, for every HTML element name (and unknown names are inline). */
    @Test
    void blockElementsAreJsoups() {
        String[] names = {
            "a",
            "abbr",
            "acronym",
            "address",
            "applet",
            "area",
            "article",
            "aside",
            "audio",
            "b",
            "base",
            "basefont",
            "bdi",
            "bdo",
            "bgsound",
            "big",
            "blink",
            "blockquote",
            "body",
            "br",
            "button",
            "canvas",
            "caption",
            "center",
            "cite",
            "code",
            "col",
            "colgroup",
            "data",
            "datalist",
            "dd",
            "del",
            "details",
            "dfn",
            "dialog",
            "dir",
            "div",
            "dl",
            "dt",
            "em",
            "embed",
            "fieldset",
            "figcaption",
            "figure",
            "font",
            "footer",
            "form",
            "frame",
            "frameset",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "head",
            "header",
            "hgroup",
            "hr",
            "html",
            "i",
            "iframe",
            "image",
            "img",
            "input",
            "ins",
            "isindex",
            "kbd",
            "keygen",
            "label",
            "legend",
            "li",
            "link",
            "listing",
            "main",
            "map",
            "mark",
            "marquee",
            "math",
            "menu",
            "menuitem",
            "meta",
            "meter",
            "multicol",
            "nav",
            "nextid",
            "nobr",
            "noembed",
            "noframes",
            "noscript",
            "object",
            "ol",
            "optgroup",
            "option",
            "output",
            "p",
            "param",
            "picture",
            "plaintext",
            "pre",
            "progress",
            "q",
            "rb",
            "rp",
            "rt",
            "rtc",
            "ruby",
            "s",
            "samp",
            "script",
            "search",
            "section",
            "select",
            "slot",
            "small",
            "source",
            "spacer",
            "span",
            "strike",
            "strong",
            "style",
            "sub",
            "summary",
            "sup",
            "svg",
            "table",
            "tbody",
            "td",
            "template",
            "textarea",
            "tfoot",
            "th",
            "thead",
            "time",
            "title",
            "tr",
            "track",
            "tt",
            "u",
            "ul",
            "var",
            "video",
            "wbr",
            "xmp",
            "my-widget"
        };
        List<String> jsoupBlocks =
                Arrays.stream(names).filter(n -> Tag.valueOf(n).isBlock()).sorted().toList();
        assertThat(Arrays.stream(HtmlText.BLOCK_TAGS).sorted().toList()).isEqualTo(jsoupBlocks);
    }

    /** Numeric references decoded without jsoup decode as jsoup does, for every code point. */
    @Test
    void numericReferencesDecodeAsJsoupDoes() {
        HtmlText html = new HtmlText();
        for (int cp = 0; cp <= 0x110000; cp += cp < 0x3000 ? 1 : 61) {
            for (String ref : new String[] {"&#" + cp + ";", "&#x" + Integer.toHexString(cp)}) {
                String expected = "a" + Parser.unescapeEntities(ref, false) + " z";
                assertThat(html.extract("a" + ref + " z").toString()).as(ref).isEqualTo(expected);
            }
        }
        for (int cp : new int[] {0xD800, 0xDFFF, 0xFFFF, 0x10FFFF, 0x110000, 0x7FFFFFFF}) {
            String ref = "&#" + cp + ";";
            assertThat(html.extract(ref).toString())
                    .as(ref)
                    .isEqualTo(Parser.unescapeEntities(ref, false));
        }
    }

    /** Named references, cached per instance, decode as jsoup does on every call. */
    @Test
    void namedReferencesDecodeAsJsoupDoesAlsoFromTheCache() {
        String text =
                "&amp;&amp&ampx&copy2&notit;&unknown;&AMP;&Amp;&eacute;&nbsp;&NotEqualTilde;"
                        + "&#;&#x;&#xZZ;&#65x&#00065;&";
        for (int round = 0; round < 3; round++) {
            assertThat(extractor.extract(text).toString())
                    .isEqualTo(Parser.unescapeEntities(text, false));
        }
    }

    private double jaccard(String html) {
        long[] a = set(shingler.shingleHashes(extractor.extract(html)));
        long[] b = set(shingler.shingleHashes(HtmlTextDom.visibleText(html)));
        if (a.length == 0 && b.length == 0) {
            return 1;
        }
        int i = 0;
        int k = 0;
        int common = 0;
        while (i < a.length && k < b.length) {
            if (a[i] == b[k]) {
                common++;
                i++;
                k++;
            } else if (a[i] < b[k]) {
                i++;
            } else {
                k++;
            }
        }
        return common / (double) (a.length + b.length - common);
    }

    private static long[] set(long[] hashes) {
        return Arrays.stream(hashes).sorted().distinct().toArray();
    }
}
