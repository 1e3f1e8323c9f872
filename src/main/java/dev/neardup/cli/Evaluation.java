package dev.neardup.cli;

import dev.neardup.lsh.LshParams;
import dev.neardup.sketch.ExactSimilarityJoin;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares the job's answer with the exact one: doc-level recall, pair precision, and recall by
 * similarity bucket next to what the S-curve and the verification threshold predict. Pure: the
 * inputs are the documents in stream order, the exact pairs, and the job's verdicts.
 */
final class Evaluation {

    /**
     * A document, in stream order.
     *
     * @param fingerprint of its full MinHash signature ({@link
     *     dev.neardup.sketch.BbitMinHash#fingerprint}): documents with equal fingerprints are one
     *     entity for the job, which reports later pages against the earliest of them only
     */
    record Doc(String id, ShingleSet shingles, long fingerprint) {}

    /** Pairs with exact Jaccard in [low, high): how many, how many the job found, predictions. */
    record Bucket(
            double low,
            double high,
            int pairs,
            int found,
            double recall,
            double predictedCandidate,
            double predictedFound) {}

    /** The evaluation's figures. */
    record Report(
            int documents,
            int exactPairs,
            double recallSimilarity,
            int documentsWithSimilarEarlier,
            int documentsFound,
            double documentRecall,
            double precisionSimilarity,
            int reportedPairs,
            int reportedPairsAbove,
            double pairPrecision,
            double candidatesPerDocument,
            List<Bucket> buckets) {}

    private Evaluation() {}

    /**
     * @param docs documents in stream order
     * @param exact all pairs with exact Jaccard >= the floor (indexes into docs, first < second)
     * @param matches for each document id, the ids of earlier documents the job matched it with
     * @param candidates for each document id, the candidates the job verified
     * @param floor the lowest similarity in {@code exact}
     */
    static Report compute(
            List<Doc> docs,
            List<ExactSimilarityJoin.Pair> exact,
            Map<String, Set<String>> matches,
            Map<String, Integer> candidates,
            double floor,
            double recallSimilarity,
            double precisionSimilarity,
            LshParams banding,
            int numHashes,
            double threshold,
            int signatureBits) {
        // Doc-level recall: documents with an earlier document at J >= recallSimilarity.
        boolean[] similarEarlier = new boolean[docs.size()];
        for (ExactSimilarityJoin.Pair p : exact) {
            if (p.jaccard() >= recallSimilarity) {
                similarEarlier[p.second()] = true;
            }
        }
        int withSimilar = 0;
        int found = 0;
        for (int i = 0; i < docs.size(); i++) {
            if (similarEarlier[i]) {
                withSimilar++;
                Set<String> m = matches.get(docs.get(i).id());
                if (m != null && !m.isEmpty()) {
                    found++;
                }
            }
        }
        // Pair precision: reported pairs with exact J >= precisionSimilarity.
        java.util.HashMap<String, Integer> index = new java.util.HashMap<>();
        for (int i = 0; i < docs.size(); i++) {
            index.put(docs.get(i).id(), i);
        }
        int reported = 0;
        int reportedAbove = 0;
        for (Map.Entry<String, Set<String>> e : matches.entrySet()) {
            Integer a = index.get(e.getKey());
            for (String other : e.getValue()) {
                Integer b = index.get(other);
                if (a == null || b == null) {
                    continue;
                }
                reported++;
                if (Similarity.jaccard(docs.get(a).shingles(), docs.get(b).shingles())
                        >= precisionSimilarity) {
                    reportedAbove++;
                }
            }
        }
        // Recall by bucket, with the predictions of the S-curve and of verification. Documents
        // with identical signatures stand for each other (the job keeps the earliest of them in
        // its buckets): a pair is found when the job reported a pair between the same two groups.
        int[] group = new int[docs.size()];
        java.util.HashMap<Long, Integer> firstWith = new java.util.HashMap<>();
        for (int i = 0; i < docs.size(); i++) {
            Integer first = firstWith.putIfAbsent(docs.get(i).fingerprint(), i);
            group[i] = first == null ? i : first;
        }
        Set<Long> reportedGroups = new java.util.HashSet<>();
        for (Map.Entry<String, Set<String>> e : matches.entrySet()) {
            Integer a = index.get(e.getKey());
            for (String other : e.getValue()) {
                Integer b = index.get(other);
                if (a != null && b != null) {
                    reportedGroups.add(groupPair(group[a], group[b]));
                }
            }
        }
        List<Bucket> buckets = new ArrayList<>();
        double step = 0.1;
        for (double low = Math.floor(floor * 10 + 1e-9) / 10; low < 1.0 - 1e-9; low += step) {
            double high = Math.min(1.0, low + step);
            boolean last = high >= 1.0 - 1e-9;
            int n = 0;
            int hit = 0;
            double candidate = 0;
            double predicted = 0;
            for (ExactSimilarityJoin.Pair p : exact) {
                double j = p.jaccard();
                if (j >= low - 1e-12 && (j < high - 1e-12 || last)) {
                    n++;
                    if (reportedGroups.contains(groupPair(group[p.first()], group[p.second()]))) {
                        hit++;
                    }
                    candidate += banding.probability(j);
                    predicted += banding.findProbability(j, numHashes, threshold, signatureBits);
                }
            }
            buckets.add(
                    new Bucket(
                            round(low),
                            round(high),
                            n,
                            hit,
                            n == 0 ? Double.NaN : (double) hit / n,
                            n == 0 ? Double.NaN : candidate / n,
                            n == 0 ? Double.NaN : predicted / n));
        }
        double meanCandidates =
                candidates.values().stream().mapToInt(Integer::intValue).average().orElse(0);
        return new Report(
                docs.size(),
                exact.size(),
                recallSimilarity,
                withSimilar,
                found,
                withSimilar == 0 ? Double.NaN : (double) found / withSimilar,
                precisionSimilarity,
                reported,
                reportedAbove,
                reported == 0 ? Double.NaN : (double) reportedAbove / reported,
                meanCandidates,
                buckets);
    }

    private static long groupPair(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }

    private static double round(double x) {
        return Math.round(x * 1000) / 1000.0;
    }
}
