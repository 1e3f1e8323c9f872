package dev.neardup.batch;

import dev.neardup.config.SimilarityFamily;
import dev.neardup.eval.ExactCosineJoin;
import dev.neardup.eval.ExactSimilarityJoin;
import dev.neardup.eval.TermVector;
import dev.neardup.io.Document;
import dev.neardup.io.DocumentParser;
import dev.neardup.io.ParsedRecord;
import dev.neardup.io.RawRecord;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.text.ContentType;
import dev.neardup.text.Shingler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The exact answer dedupe is checked against: the connected components of the exact similarity
 * graph (every pair with exact Jaccard >= threshold, {@link ExactSimilarityJoin}, or with cosine
 * settings every pair with exact term-frequency cosine >= cos(pi k / D), {@link ExactCosineJoin})
 * over the same documents (the same parser, the latest version per id, the same shingles or words),
 * and the agreement of two clusterings.
 */
final class ExactComponents {

    private ExactComponents() {}

    /** Document id to the id of its exact component's earliest document. */
    static Map<String, String> of(Path input, DedupeSettings settings) throws IOException {
        DocumentParser parser = settings.job().input().parser();
        Map<String, Document> latest = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(input, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            RawRecord raw = new RawRecord(lines.get(i).getBytes(StandardCharsets.UTF_8), "x:" + i);
            // An undated line's event time is its line number, as the job's reader gives it.
            DocumentParser.Result r = parser.parse(raw, i + 1, System.currentTimeMillis());
            ParsedRecord p = new ParsedRecord(r.document(), r.deadLetter(), r.deletion());
            if (p.document == null) {
                continue;
            }
            Document old = latest.get(p.document.id);
            if (old == null || p.document.eventTime >= old.eventTime) {
                latest.put(p.document.id, p.document);
            }
        }
        boolean cosine = settings.mode().family() == SimilarityFamily.COSINE;
        Shingler shingler = new Shingler(settings.mode().features());
        List<Document> docs = new ArrayList<>();
        List<ShingleSet> sets = new ArrayList<>();
        List<TermVector> vectors = new ArrayList<>();
        for (Document d : latest.values()) {
            long[] hashes =
                    shingler.shingleHashes(d.content, ContentType.detect(d.contentType, d.content));
            if (hashes.length > 0) {
                docs.add(d);
                sets.add(cosine ? null : ShingleSet.of(hashes));
                vectors.add(cosine ? TermVector.termFrequencies(hashes) : null);
            }
        }
        int[] parent = new int[docs.size()];
        for (int i = 0; i < parent.length; i++) {
            parent[i] = i;
        }
        double threshold = settings.job().similarity().threshold();
        List<int[]> edges = new ArrayList<>();
        if (cosine) {
            ExactCosineJoin.allPairs(vectors, threshold)
                    .forEach(p -> edges.add(new int[] {p.first(), p.second()}));
        } else {
            ExactSimilarityJoin.allPairs(sets, threshold)
                    .forEach(p -> edges.add(new int[] {p.first(), p.second()}));
        }
        for (int[] p : edges) {
            int a = find(parent, p[0]);
            int b = find(parent, p[1]);
            parent[a] = b;
        }
        Map<Integer, String> earliest = new HashMap<>();
        for (int i = 0; i < docs.size(); i++) {
            String key = VertexKeys.key(docs.get(i).eventTime, docs.get(i).id);
            earliest.merge(find(parent, i), key, (x, y) -> x.compareTo(y) <= 0 ? x : y);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < docs.size(); i++) {
            out.put(docs.get(i).id, VertexKeys.id(earliest.get(find(parent, i))));
        }
        return out;
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    /** How two clusterings of the same documents agree. */
    record Agreement(
            long pairsFound,
            long pairsExact,
            long pairsBoth,
            long clustersFound,
            long clustersExact,
            long clustersIdentical) {

        /** Co-clustered pairs of the found clustering that the exact one co-clusters too. */
        double precision() {
            return pairsFound == 0 ? 1 : (double) pairsBoth / pairsFound;
        }

        /** Co-clustered pairs of the exact clustering that the found one co-clusters too. */
        double recall() {
            return pairsExact == 0 ? 1 : (double) pairsBoth / pairsExact;
        }

        double identicalClusters() {
            return (double) clustersIdentical / clustersExact;
        }

        @Override
        public String toString() {
            return String.format(
                    java.util.Locale.ROOT,
                    "co-clustered pairs: precision %.4f (%d of %d), recall %.4f (%d of %d);"
                            + " clusters: %d found, %d exact, %d identical (%.4f)",
                    precision(),
                    pairsBoth,
                    pairsFound,
                    recall(),
                    pairsBoth,
                    pairsExact,
                    clustersFound,
                    clustersExact,
                    clustersIdentical,
                    identicalClusters());
        }
    }

    static Agreement compare(Map<String, String> found, Map<String, String> exact) {
        if (!found.keySet().equals(exact.keySet())) {
            throw new AssertionError(
                    "different documents: " + found.keySet().size() + " vs " + exact.size());
        }
        Set<String> pf = coClustered(found);
        Set<String> pe = coClustered(exact);
        Set<String> both = new HashSet<>(pf);
        both.retainAll(pe);
        Set<Set<String>> cf = clusters(found);
        Set<Set<String>> ce = clusters(exact);
        Set<Set<String>> same = new HashSet<>(cf);
        same.retainAll(ce);
        return new Agreement(pf.size(), pe.size(), both.size(), cf.size(), ce.size(), same.size());
    }

    private static Set<Set<String>> clusters(Map<String, String> labels) {
        Map<String, Set<String>> groups = new HashMap<>();
        labels.forEach((doc, c) -> groups.computeIfAbsent(c, k -> new HashSet<>()).add(doc));
        return new HashSet<>(groups.values());
    }

    private static Set<String> coClustered(Map<String, String> labels) {
        Set<String> pairs = new HashSet<>();
        for (Set<String> cluster : clusters(labels)) {
            List<String> members = new ArrayList<>(cluster);
            java.util.Collections.sort(members);
            for (int i = 0; i < members.size(); i++) {
                for (int j = i + 1; j < members.size(); j++) {
                    pairs.add(members.get(i) + "\u0000" + members.get(j));
                }
            }
        }
        return pairs;
    }
}
