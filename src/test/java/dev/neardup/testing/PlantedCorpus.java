package dev.neardup.testing;

import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import dev.neardup.tools.bench.SyntheticText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A generated stream of documents with planted near-duplicates: base documents of synthetic prose,
 * and variants of them with a number of words substituted so that their word 5-shingle sets have a
 * chosen Jaccard similarity to the base. Exact similarities are computed, not assumed.
 */
public final class PlantedCorpus {

    /** One document. */
    public record Doc(String id, String content, long fetchedAt) {}

    /** A planted pair: {@code later} is a variant of {@code earlier}, at exact Jaccard j. */
    public record Pair(String earlier, String later, double jaccard) {}

    public final List<Doc> docs = new ArrayList<>();
    public final List<Pair> planted = new ArrayList<>();
    private final Map<String, ShingleSet> sets = new HashMap<>();
    private final Shingler shingler = new Shingler(ShingleOptions.defaults());
    private final SplittableRandom random;
    private long clock = 1_700_000_000_000L;

    public PlantedCorpus(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** Adds a base document of about {@code bytes} bytes of prose; returns its id. */
    public String addBase(String id, int bytes) {
        return add(id, SyntheticText.prose(random.nextLong(), bytes));
    }

    /**
     * Adds a variant of {@code baseId} whose shingle set has Jaccard similarity close to {@code
     * targetJ} to the base's, and records the planted pair with its exact similarity.
     */
    public Pair addVariant(String baseId, String id, double targetJ) {
        String base = contentOf(baseId);
        String[] words = base.split(" ");
        int n = words.length;
        // Each substituted word removes up to w = 5 shingles from the common part and adds as
        // many new ones: J ~ (n - 5m) / (n + 5m), so m ~ n (1 - J) / (5 (1 + J)).
        int m = (int) Math.round(n * (1 - targetJ) / (5 * (1 + targetJ)));
        String[] copy = words.clone();
        for (int i = 0; i < m; i++) {
            copy[random.nextInt(n)] = "zx" + Long.toString(random.nextLong() & 0xffffffL, 36);
        }
        add(id, String.join(" ", copy));
        Pair pair = new Pair(baseId, id, jaccard(baseId, id));
        planted.add(pair);
        return pair;
    }

    private String add(String id, String content) {
        clock += 1000 + random.nextInt(1000);
        docs.add(new Doc(id, content, clock));
        sets.put(id, ShingleSet.of(shingler.shingleHashes(content)));
        return id;
    }

    /** Exact Jaccard similarity of two documents' word 5-shingle sets. */
    public double jaccard(String a, String b) {
        return Similarity.jaccard(sets.get(a), sets.get(b));
    }

    public ShingleSet shingles(String id) {
        return sets.get(id);
    }

    private String contentOf(String id) {
        for (Doc d : docs) {
            if (d.id().equals(id)) {
                return d.content();
            }
        }
        throw new IllegalArgumentException(id);
    }

    /** Shuffles the documents, then puts each planted variant after its base. */
    public void shuffleKeepingBasesFirst() {
        for (int i = docs.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Doc t = docs.get(i);
            docs.set(i, docs.get(j));
            docs.set(j, t);
        }
        for (Pair p : planted) {
            int e = indexOf(p.earlier());
            int l = indexOf(p.later());
            if (l < e) {
                Doc later = docs.remove(l);
                docs.add(e, later); // after removing l < e, index e now follows the base
            }
        }
        // Fetch times follow the final order.
        long t = 1_700_000_000_000L;
        for (int i = 0; i < docs.size(); i++) {
            Doc d = docs.get(i);
            t += 1000;
            docs.set(i, new Doc(d.id(), d.content(), t));
        }
    }

    private int indexOf(String id) {
        for (int i = 0; i < docs.size(); i++) {
            if (docs.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }
}
