package dev.neardup.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in README.md, CHANGELOG.md and docs/**.md resolves: the file exists and the
 * {@code #anchor}, if any, is a heading of it (GitHub's anchor rules) or an explicit {@code <a
 * id>}. User documents name no issue or seed numbers and no test classes.
 */
class DocLinksTest {

    private static final Pattern LINK = Pattern.compile("(?<!!)\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern IMAGE = Pattern.compile("!\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern EXPLICIT_ANCHOR =
            Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");

    static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(Path.of("README.md"), Path.of("CHANGELOG.md")));
        try (Stream<Path> files = Files.walk(Path.of("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    @Test
    void everyRelativeLinkResolves() throws IOException {
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path doc : documents()) {
            String text = withoutCode(Files.readString(doc, StandardCharsets.UTF_8));
            for (Pattern p : List.of(LINK, IMAGE)) {
                Matcher m = p.matcher(text);
                while (m.find()) {
                    String target = m.group(1);
                    if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*") || target.startsWith("//")) {
                        continue; // http:, https:, mailto:
                    }
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    String anchor = hash < 0 ? null : target.substring(hash + 1);
                    Path resolved =
                            file.isEmpty()
                                    ? doc
                                    : doc.toAbsolutePath()
                                            .getParent()
                                            .resolve(
                                                    URLDecoder.decode(file, StandardCharsets.UTF_8))
                                            .normalize();
                    if (!Files.exists(resolved)) {
                        broken.add(doc + ": " + target + " (no such file)");
                        continue;
                    }
                    if (anchor != null && !anchor.isEmpty()) {
                        if (!resolved.toString().endsWith(".md")) {
                            continue; // line anchors into code: not checked
                        }
                        Set<String> known =
                                anchors.computeIfAbsent(
                                        resolved.normalize(), DocLinksTest::anchorsOf);
                        if (!known.contains(anchor)) {
                            broken.add(doc + ": " + target + " (no such heading)");
                        }
                    }
                }
            }
        }
        assertThat(broken).as("broken relative links").isEmpty();
    }

    @Test
    void noIssueOrSeedNumbersNorTestClassesInUserDocuments() throws IOException {
        Pattern numbers = Pattern.compile("\\b([Ii]ssue|[Ss]eed) ?#?[0-9]{1,3}\\b");
        Pattern testClass = Pattern.compile("\\b[A-Z]\\w*(Test|ITCase|TestCase)\\b");
        List<String> found = new ArrayList<>();
        for (Path doc : documents()) {
            if (doc.toString().equals("CHANGELOG.md")
                    || doc.startsWith(Path.of("docs", "design", "architecture.md"))) {
                continue; // the changelog and the developers' page may name them
            }
            String text =
                    Files.readString(doc, StandardCharsets.UTF_8).replaceAll("(?s)<!--.*?-->", "");
            for (Pattern p : List.of(numbers, testClass)) {
                Matcher m = p.matcher(text);
                while (m.find()) {
                    found.add(doc + ": " + m.group());
                }
            }
        }
        assertThat(found).isEmpty();
    }

    /** The text without fenced code blocks and inline code, where links are not links. */
    static String withoutCode(String text) {
        StringBuilder out = new StringBuilder();
        boolean inFence = false;
        for (String line : text.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                out.append('\n');
                continue;
            }
            out.append(inFence ? "" : line.replaceAll("`[^`]*`", "``")).append('\n');
        }
        return out.toString();
    }

    /** The anchors of a Markdown file: its headings by GitHub's rules, and explicit ids. */
    static Set<String> anchorsOf(Path file) {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        boolean inFence = false;
        for (String line : text.split("\n")) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String slug = slug(h.group(1));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                out.add(n == 0 ? slug : slug + "-" + n);
            }
            Matcher a = EXPLICIT_ANCHOR.matcher(line);
            while (a.find()) {
                out.add(a.group(1));
            }
        }
        return out;
    }

    /**
     * GitHub's slug of a heading: the rendered text (links and inline markup reduced to their
     * text), lower case, characters other than letters, digits, spaces, hyphens and underscores
     * dropped, spaces to hyphens.
     */
    static String slug(String heading) {
        String text =
                heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
                        .replaceAll("<[^>]+>", "")
                        .replace("`", "")
                        .replace("*", "");
        return text.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}\\p{Mn}\\p{Pc} -]", "")
                .replace(' ', '-');
    }
}
