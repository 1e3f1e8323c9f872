package dev.neardup.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A generated crawl whose duplicates come from URL rules planted in it, and whose other pages are
 * told apart by parameters that change the content. Each host has one rule: a session id ({@code
 * sid}), a print view ({@code /print/}), index pages ({@code index.html}), a host alias ({@code
 * www.}), the scheme ({@code http} beside {@code https}), tracking parameters ({@code utm_*}), a
 * second path scheme ({@code /view/} beside {@code /wiki/}). Content-changing parameters: {@code
 * page} (listing pages, page 1 also without the parameter) and {@code id} (item pages, some also
 * with a session id). A noisy parameter, {@code variant}, names the same page four times in five
 * and another page the fifth (a rule to drop it has a precision of about 0.8). Noise: distinct
 * pages on every host, and identical "not found" pages at unrelated paths (near-duplicates that no
 * rule explains). Deterministic for a seed.
 */
public final class PlantedRulesCrawl {

    /** A page with its ground-truth cluster (pages of one cluster have nearly the same text). */
    public record Page(String id, String url, String cluster, String content) {}

    /** A pair of URLs that a planted rule makes one, and the rule's name. */
    public record Planted(String rule, String url, String variantUrl) {}

    /** The parameters whose values name different content. */
    public static final Set<String> CONTENT_PARAMETERS = Set.of("page", "id");

    public final List<Page> pages = new ArrayList<>();
    public final List<Planted> planted = new ArrayList<>();

    private final Random random;
    private final String[] vocabulary;

    private PlantedRulesCrawl(long seed) {
        random = new Random(seed);
        vocabulary = new String[4000];
        for (int i = 0; i < vocabulary.length; i++) {
            StringBuilder w = new StringBuilder();
            int syllables = 1 + random.nextInt(3);
            for (int s = 0; s < syllables; s++) {
                w.append("bcdfghklmnprstvz".charAt(random.nextInt(16)))
                        .append("aeiou".charAt(random.nextInt(5)));
            }
            vocabulary[i] = w.toString() + i;
        }
    }

    /** A crawl with {@code perRule} pages of each planted rule (and their variants), shuffled. */
    public static PlantedRulesCrawl generate(long seed, int perRule) {
        PlantedRulesCrawl c = new PlantedRulesCrawl(seed);
        c.build(perRule);
        Collections.shuffle(c.pages, c.random);
        return c;
    }

    private void build(int n) {
        for (int i = 1; i <= n; i++) {
            String product = "https://shop.example.com/p/product-" + i;
            family("session id", product, product + "?sid=" + hex(16), product + "?sid=" + hex(16));
            String story = "https://news.example.org/2026/03/story-" + i;
            family("print view", story, "https://news.example.org/print/2026/03/story-" + i);
            String topic = "https://docs.example.net/guide/topic-" + i + "/";
            family("index page", topic, topic + "index.html");
            family(
                    "host alias",
                    "https://blog.example.com/posts/post-" + i,
                    "https://www.blog.example.com/posts/post-" + i);
            family(
                    "scheme",
                    "https://forum.example.net/thread/" + i,
                    "http://forum.example.net/thread/" + i);
            String goods = "https://store.example.org/goods/item-" + i;
            family(
                    "tracking parameters",
                    goods,
                    goods + "?utm_source=news&utm_medium=email&utm_campaign=spring" + i);
            // A parameter that mostly names the same page, but one time in five another one:
            // its precision is about 0.8, and a bound above that must keep it.
            if (i % 5 == 0) {
                page(goods + "?variant=b", text(), goods + "?variant=b");
            } else {
                page(goods + "?variant=b", edit(pageText(goods)), goods);
            }
            family(
                    "second path scheme",
                    "https://wiki.example.org/wiki/Topic_" + i,
                    "https://wiki.example.org/view/Topic_" + i);
        }
        // Content-changing parameters: every value is another page.
        for (int k = 1; k <= n / 2; k++) {
            page("https://shop.example.com/catalog?page=" + k, text(), "catalog-" + k);
            page(
                    "https://news.example.org/archive?page=" + k + "&sort=new",
                    text(),
                    "archive-" + k);
            String item = "https://shop.example.com/item?id=" + k;
            if (k % 3 == 0) {
                family("session id", item, item + "&sid=" + hex(16));
            } else {
                page(item, text(), item);
            }
        }
        // Page 1 is also the listing without its parameter: a pair that proposes dropping 'page'.
        Page first = find("https://shop.example.com/catalog?page=1");
        page("https://shop.example.com/catalog", edit(first.content()), first.cluster());
        // Distinct pages, and "not found" pages that are near-duplicates at unrelated URLs.
        String[] hosts = {
            "shop.example.com",
            "news.example.org",
            "docs.example.net",
            "blog.example.com",
            "forum.example.net",
            "store.example.org",
            "wiki.example.org"
        };
        String notFound = text();
        for (String host : hosts) {
            for (int k = 1; k <= n / 4; k++) {
                page("https://" + host + "/misc/page-" + k, text(), host + "/misc/" + k);
            }
            for (int k = 1; k <= 3; k++) {
                page("https://" + host + "/gone/" + hex(6), edit(notFound), "not-found");
            }
        }
    }

    private String pageText(String url) {
        return find(url).content();
    }

    private Page find(String url) {
        return pages.stream().filter(p -> p.url().equals(url)).findFirst().orElseThrow();
    }

    /** A page and its variants: near-copies of one text. */
    private void family(String rule, String url, String... variants) {
        String text = text();
        page(url, text, url);
        for (String v : variants) {
            page(v, edit(text), url);
            planted.add(new Planted(rule, url, v));
        }
    }

    private void page(String url, String content, String cluster) {
        pages.add(new Page("page-" + (pages.size() + 1), url, cluster, content));
    }

    /** 300 words drawn at random. */
    private String text() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            b.append(i == 0 ? "" : i % 12 == 0 ? ". " : " ")
                    .append(vocabulary[random.nextInt(vocabulary.length)]);
        }
        return b.append('.').toString();
    }

    /** The text with one word changed: a near-copy (Jaccard of 5-shingles about 0.97). */
    private String edit(String text) {
        String[] words = text.split(" ");
        words[random.nextInt(words.length)] = vocabulary[random.nextInt(vocabulary.length)];
        return String.join(" ", words);
    }

    private String hex(int digits) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < digits; i++) {
            b.append("0123456789abcdef".charAt(random.nextInt(16)));
        }
        return b.toString();
    }

    /** Writes the crawl as job input ({@link #lines}). */
    public void writeJsonl(Path file) {
        try {
            Files.write(file, lines(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The crawl as input records, one minute between fetches, in the shuffled order. */
    public List<String> lines() {
        ObjectMapper json = new ObjectMapper();
        List<String> lines = new ArrayList<>();
        Instant t = Instant.parse("2026-03-01T00:00:00Z");
        for (Page p : pages) {
            ObjectNode node = json.createObjectNode();
            node.put("id", p.id());
            node.put("url", p.url());
            node.put("fetchedAt", t.toString());
            node.put("contentType", "text/plain");
            node.put("content", p.content());
            lines.add(node.toString());
            t = t.plusSeconds(60);
        }
        return lines;
    }
}
