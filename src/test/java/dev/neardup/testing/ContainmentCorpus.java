package dev.neardup.testing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A generated corpus of articles and the pages that contain them, for containment (seed 003's c(A,
 * B) = |A ∩ B| / |A|): articles of 300 to 500 words over a Zipf vocabulary of made-up words, and
 * per article, in random event-time order (a digest may come before the article it quotes):
 *
 * <ul>
 *   <li>the article;
 *   <li>for half of the articles, a near-copy (1 to 3 words changed: contained both ways);
 *   <li>digests of 2 or 3 articles and a short introduction (2 to 4 times an article's size): each
 *       article in a digest whole, or with 2 words changed (containment about 0.97), or with 10
 *       changed (about 0.85), so that contained pairs stand a margin above the threshold 0.8;
 *   <li>for a third of the articles, a page quoting 40% to 60% of it in a text of its own (about as
 *       large as the article): containment of the article in it 0.4 to 0.6, a margin below.
 * </ul>
 *
 * <p>Unrelated texts share no 5-shingle in practice. The exact containments are left to the exact
 * join of {@code neardup evaluate} (the job's shingles); {@link #kinds} says what each pair was
 * made as.
 */
public final class ContainmentCorpus {

    /** One document: id, text, event time. */
    public record Doc(String id, String text, Instant fetchedAt) {}

    private final List<Doc> docs = new ArrayList<>();
    private final Map<String, String> kinds = new LinkedHashMap<>();
    private final String[] vocabulary;
    private final double[] cumulative;

    /**
     * @param seed fixes everything
     * @param articles number of articles
     * @param digests number of digests
     */
    public ContainmentCorpus(long seed, int articles, int digests) {
        SplittableRandom random = new SplittableRandom(seed);
        vocabulary = ZipfWords.vocabulary(random, 20_000, 3, 7);
        cumulative = ZipfWords.cumulative(vocabulary.length, 0.8);
        List<String[]> texts = new ArrayList<>();
        List<Doc> out = new ArrayList<>();
        for (int a = 0; a < articles; a++) {
            String[] words = words(random, 300 + random.nextInt(201));
            texts.add(words);
            out.add(doc("article-" + a, words, random));
            if (a % 2 == 0) {
                out.add(doc("copy-" + a, edited(random, words, 1 + random.nextInt(3)), random));
            }
            if (a % 3 == 0) {
                int from = random.nextInt(words.length / 3);
                int length = (int) (words.length * (0.4 + 0.2 * random.nextDouble()));
                List<String> quote = new ArrayList<>(List.of(words(random, words.length / 2)));
                quote.addAll(List.of(Arrays.copyOfRange(words, from, from + length)));
                quote.addAll(List.of(words(random, words.length / 2)));
                out.add(doc("quote-" + a, quote.toArray(new String[0]), random));
            }
        }
        for (int d = 0; d < digests; d++) {
            int n = 2 + random.nextInt(2);
            Set<Integer> picked = new HashSet<>();
            while (picked.size() < n) {
                picked.add(random.nextInt(articles));
            }
            List<String> words = new ArrayList<>(List.of(words(random, 20 + random.nextInt(40))));
            for (int a : picked) {
                int kind = random.nextInt(3);
                int changes = kind == 0 ? 0 : kind == 1 ? 2 : 10;
                words.addAll(List.of(edited(random, texts.get(a), changes)));
                words.addAll(List.of(words(random, 5 + random.nextInt(10))));
                kinds.put("article-" + a + " in digest-" + d, changes + " words changed");
            }
            out.add(doc("digest-" + d, words.toArray(new String[0]), random));
        }
        out.sort(java.util.Comparator.comparing(Doc::fetchedAt));
        docs.addAll(out);
    }

    public List<Doc> docs() {
        return docs;
    }

    /** How each (article, digest) pair was made. */
    public Map<String, String> kinds() {
        return kinds;
    }

    private Doc doc(String id, String[] words, SplittableRandom random) {
        Instant at = Instant.parse("2026-03-01T00:00:00Z").plusSeconds(random.nextInt(864_000));
        return new Doc(id, String.join(" ", words), at);
    }

    private String[] words(SplittableRandom random, int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = draw(random);
        }
        return out;
    }

    private String[] edited(SplittableRandom random, String[] base, int changes) {
        String[] out = base.clone();
        Set<Integer> at = new HashSet<>();
        while (at.size() < changes) {
            at.add(random.nextInt(out.length));
        }
        for (int i : at) {
            out[i] = draw(random);
        }
        return out;
    }

    private String draw(SplittableRandom random) {
        return vocabulary[ZipfWords.draw(random, cumulative)];
    }
}
