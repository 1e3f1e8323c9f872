package dev.neardup.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A generated corpus with known cosine similarities of term-frequency vectors: groups of documents
 * that share a base text whose word counts are perturbed by controlled amounts (m of its tokens
 * replaced by fresh draws), over one Zipf-distributed vocabulary of made-up words, so that
 * unrelated documents share their frequent words too (as real pages share "the", "of", "and").
 * Every document is its words in a shuffled order: only the counts carry meaning. The exact cosine
 * of every pair is computed from the counts ({@link #cosine}), independently of the job's tokenizer
 * (each made-up word is one token of lowercase letters).
 */
public final class CosineCorpus {

    /** One document: id, text and word counts. */
    public record Doc(
            String id, int group, int perturbation, String text, Map<String, Integer> counts) {}

    /** An unordered pair of ids, the smaller first. */
    public record Pair(String a, String b) {
        public static Pair of(String x, String y) {
            return x.compareTo(y) < 0 ? new Pair(x, y) : new Pair(y, x);
        }
    }

    private final List<Doc> docs = new ArrayList<>();

    /**
     * @param seed fixes everything
     * @param groups number of base texts
     * @param tokens tokens per document
     * @param shared the probability that a token is drawn from the shared Zipf distribution (the
     *     "function words" every text uses); otherwise it is drawn from the group's own topic, the
     *     same Zipf law over a permutation of the vocabulary of its own
     * @param perturbations per group, one document per entry: how many of the base's tokens are
     *     replaced (0: an exact copy of the base)
     */
    public CosineCorpus(long seed, int groups, int tokens, double shared, int... perturbations) {
        SplittableRandom random = new SplittableRandom(seed);
        String[] vocabulary = ZipfWords.vocabulary(random, 5000, 4, 6);
        double[] cumulative = ZipfWords.cumulative(vocabulary.length, 1.0);
        for (int g = 0; g < groups; g++) {
            String[] topic = vocabulary.clone();
            for (int i = topic.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                String t = topic[i];
                topic[i] = topic[j];
                topic[j] = t;
            }
            String[] base = new String[tokens];
            for (int i = 0; i < tokens; i++) {
                base[i] =
                        draw(random, random.nextDouble() < shared ? vocabulary : topic, cumulative);
            }
            for (int v = 0; v < perturbations.length; v++) {
                String[] words = base.clone();
                Set<Integer> replaced = new HashSet<>();
                while (replaced.size() < Math.min(perturbations[v], tokens)) {
                    replaced.add(random.nextInt(tokens));
                }
                for (int i : replaced) {
                    words[i] =
                            draw(
                                    random,
                                    random.nextDouble() < shared ? vocabulary : topic,
                                    cumulative);
                }
                Map<String, Integer> counts = new LinkedHashMap<>();
                for (String w : words) {
                    counts.merge(w, 1, Integer::sum);
                }
                for (int i = words.length - 1; i > 0; i--) {
                    int j = random.nextInt(i + 1);
                    String t = words[i];
                    words[i] = words[j];
                    words[j] = t;
                }
                docs.add(
                        new Doc(
                                "g" + g + "-v" + v,
                                g,
                                perturbations[v],
                                String.join(" ", words),
                                counts));
            }
        }
    }

    private static String draw(SplittableRandom random, String[] vocabulary, double[] cumulative) {
        return vocabulary[ZipfWords.draw(random, cumulative)];
    }

    public List<Doc> docs() {
        return docs;
    }

    /** Exact cosine similarity of two documents' term-frequency vectors. */
    public static double cosine(Doc x, Doc y) {
        double dot = 0;
        for (Map.Entry<String, Integer> e : x.counts().entrySet()) {
            Integer other = y.counts().get(e.getKey());
            if (other != null) {
                dot += (double) e.getValue() * other;
            }
        }
        return dot / (norm(x) * norm(y));
    }

    private static double norm(Doc d) {
        double s = 0;
        for (int c : d.counts().values()) {
            s += (double) c * c;
        }
        return Math.sqrt(s);
    }

    /** Every pair of the corpus with its exact cosine. */
    public Map<Pair, Double> allPairs() {
        Map<Pair, Double> out = new HashMap<>();
        for (int i = 0; i < docs.size(); i++) {
            for (int j = i + 1; j < docs.size(); j++) {
                out.put(
                        Pair.of(docs.get(i).id(), docs.get(j).id()),
                        cosine(docs.get(i), docs.get(j)));
            }
        }
        return out;
    }
}
