package dev.neardup.eval;

import dev.neardup.lsh.BlockParams;
import dev.neardup.lsh.LshParams;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.SimHash;
import dev.neardup.sketch.Similarity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Compares the job's answer with the exact one: doc-level recall, pair recall and precision, and
 * recall by similarity bucket next to what the candidate generation and verification predict. Pure:
 * the inputs are the documents in stream order, the exact pairs, the family's {@link Model} and the
 * job's verdicts. The predictions are the candidate generators' S-curves: the banding curve
 * (Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, 2014, ch. 3) 1 - (1 - s^r)^b, the
 * permuted-block tables of Manku, Jain and Das Sarma (WWW 2007) for SimHash, and the
 * size-partitioned bands of LSH Ensemble (Zhu et al., VLDB 2016) for containment.
 */
public final class Evaluation {

    /**
     * A document, in stream order.
     *
     * @param identity documents with equal identities are one entity for the job's buckets, which
     *     report later pages against the earliest of them only: the fingerprint of the full MinHash
     *     signature ({@link dev.neardup.sketch.BbitMinHash#fingerprint}) for Jaccard, the hash of
     *     the feature multiset ({@link dev.neardup.lsh.SimHashSketcher#identity}) for cosine
     */
    public record Doc(String id, long identity) {}

    /** A pair of documents (indexes, first &lt; second) with its exact similarity. */
    public record Truth(int first, int second, double similarity) {}

    /**
     * Pairs with exact similarity in [low, high): how many, how many the job found, how many pairs
     * the job reported have an exact similarity in the range (where its alerts fall, below the
     * threshold too), predictions.
     */
    public record Bucket(
            double low,
            double high,
            int pairs,
            int found,
            int reported,
            double recall,
            double predictedCandidate,
            double predictedFound) {}

    /** The evaluation's figures. */
    public record Report(
            String similarity,
            int documents,
            int exactPairs,
            double recallSimilarity,
            int documentsWithSimilarEarlier,
            int documentsFound,
            double documentRecall,
            int truePairs,
            int truePairsFound,
            double pairRecall,
            double precisionSimilarity,
            int reportedPairs,
            int reportedPairsAbove,
            double pairPrecision,
            int reportedBelowFloor,
            double candidatesPerDocument,
            List<Bucket> buckets) {}

    /**
     * What differs between the families: exact similarity, buckets, predictions, and the labels of
     * the plot, fixed when the model is made.
     */
    public abstract static class Model {
        private final String name;
        private final String candidateCurve;
        private final String foundCurve;
        private final String settingsLine;

        Model(String name, String candidateCurve, String foundCurve, String settingsLine) {
            this.name = name;
            this.candidateCurve = candidateCurve;
            this.foundCurve = foundCurve;
            this.settingsLine = settingsLine;
        }

        /** "Jaccard", "cosine" or "containment". */
        public String name() {
            return name;
        }

        /** Exact similarity of two documents, by index. */
        public abstract double exact(int a, int b);

        /** The buckets' edges, ascending, from the floor to 1 (one more edge than buckets). */
        public abstract double[] edges(double floor);

        /** Probability that a pair at exact similarity s becomes a candidate. */
        public abstract double predictedCandidate(double s);

        /** Probability that a pair at exact similarity s is reported: candidate and verified. */
        public abstract double predictedFound(double s);

        /**
         * {@link #predictedCandidate(double)} of the pair of documents a and b, for families whose
         * prediction depends on more than the similarity (containment: on the two sizes).
         */
        public double predictedCandidate(int a, int b, double s) {
            return predictedCandidate(s);
        }

        /** {@link #predictedFound(double)} of the pair of documents a and b. */
        public double predictedFound(int a, int b, double s) {
            return predictedFound(s);
        }

        /** Legend of {@link #predictedCandidate} in the plot. */
        public String candidateCurve() {
            return candidateCurve;
        }

        /** Legend of {@link #predictedFound} in the plot. */
        public String foundCurve() {
            return foundCurve;
        }

        /** The settings line under the plot's title. */
        public String settingsLine() {
            return settingsLine;
        }
    }

    private Evaluation() {}

    /**
     * The Jaccard family: exact Jaccard of the shingle sets, buckets of 0.1, the S-curve and the
     * b-bit verification.
     */
    public static Model jaccard(
            List<ShingleSet> sets,
            LshParams banding,
            int numHashes,
            double threshold,
            int signatureBits) {
        return new Model(
                "Jaccard",
                "S-curve: P(candidate) = 1 - (1 - s^" + banding.rows() + ")^" + banding.bands(),
                "predicted P(found): candidate and estimate >= " + threshold,
                String.format(
                        Locale.ROOT,
                        "%d bands x %d rows, K = %d, threshold %.2f",
                        banding.bands(),
                        banding.rows(),
                        numHashes,
                        threshold)) {
            @Override
            public double exact(int a, int b) {
                return Similarity.jaccard(sets.get(a), sets.get(b));
            }

            @Override
            public double[] edges(double floor) {
                return tenths(floor);
            }

            @Override
            public double predictedCandidate(double s) {
                return banding.probability(s);
            }

            @Override
            public double predictedFound(double s) {
                return banding.findProbability(s, numHashes, threshold, signatureBits);
            }
        };
    }

    /** Edges of buckets of 0.1 from the floor (rounded down to a tenth) to 1. */
    private static double[] tenths(double floor) {
        List<Double> edges = new ArrayList<>();
        for (double low = Math.floor(floor * 10 + 1e-9) / 10; low < 1.0 - 1e-9; low += 0.1) {
            edges.add(Math.round(low * 1000) / 1000.0);
        }
        edges.add(1.0);
        return edges.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * The cosine family: exact cosine of the term-frequency vectors; buckets of equal width in the
     * angle, in units of the expected Hamming distance D theta / pi (one bit for k up to 4, about k
     * / 3 bits above), so that the threshold cos(pi k / D) is an edge; P(candidate) of the
     * permuted-block tables and P(found) = P[Binomial(D, theta / pi) &lt;= k] (Charikar 2002: a bit
     * differs with probability theta / pi).
     */
    public static Model cosine(List<TermVector> vectors, BlockParams blocks) {
        return cosine(vectors, blocks, blocks.maxHamming(), 0, blocks.maxHamming());
    }

    /**
     * As {@link #cosine(List, BlockParams)}, at the threshold cos(pi k / D) of {@code maxHamming} k
     * (at most the tables' radius), with candidates judged on {@code verifyBits} further
     * independent bits (0: on the fingerprint, within k) at Hamming distance at most {@code
     * verifyK}: P(found) = P(candidate) P[Binomial(V, theta / pi) &lt;= K].
     */
    public static Model cosine(
            List<TermVector> vectors,
            BlockParams blocks,
            int maxHamming,
            int verifyBits,
            int verifyK) {
        int bits = blocks.bits();
        int k = maxHamming;
        return new Model(
                "cosine",
                "P(candidate): " + blocks.tables() + " block tables share a key",
                verifyBits == 0
                        ? "predicted P(found) = P[Hamming distance <= " + k + "]"
                        : "predicted P(found) = P(candidate) P[Hamming distance <= "
                                + verifyK
                                + " of "
                                + verifyBits
                                + " verification bits]",
                String.format(
                        Locale.ROOT,
                        "%d-bit SimHash, k = %d (threshold cos(pi k / D) = %.4f), %s%d blocks, %d"
                                + " tables",
                        bits,
                        k,
                        SimHash.cosine(k, bits),
                        tableRadius(blocks, k),
                        blocks.blocks(),
                        blocks.tables())) {
            @Override
            public double exact(int a, int b) {
                return TermVector.cosine(vectors.get(a), vectors.get(b));
            }

            @Override
            public double[] edges(double floor) {
                int step = Math.max(1, (int) Math.round(k / 3.0));
                double floorBits = bits * Math.acos(floor) / Math.PI;
                List<Double> edges = new ArrayList<>();
                edges.add(1.0);
                for (int e = step; e < floorBits - 1e-9; e += step) {
                    edges.add(0, SimHash.cosine(e, bits));
                }
                edges.add(0, floor);
                return edges.stream().mapToDouble(Double::doubleValue).toArray();
            }

            @Override
            public double predictedCandidate(double s) {
                return blocks.candidateProbability(angle(s) / Math.PI);
            }

            @Override
            public double predictedFound(double s) {
                return verifyBits == 0
                        ? SimHash.withinProbability(angle(s), bits, k)
                        : predictedCandidate(s)
                                * SimHash.withinProbability(angle(s), verifyBits, verifyK);
            }
        };
    }

    /** "tables within K_T, " when the tables' radius is wider than k, else nothing. */
    private static String tableRadius(BlockParams blocks, int k) {
        return blocks.maxHamming() == k ? "" : "tables within " + blocks.maxHamming() + ", ";
    }

    /**
     * As {@link #cosine(List, BlockParams)}, at the threshold cos(pi k / D) of {@code maxHamming} k
     * (at most the tables' radius), with candidates judged on their exact cosine: P(found) =
     * P(candidate) from the threshold up, 0 below it.
     */
    public static Model cosineExact(List<TermVector> vectors, BlockParams blocks, int maxHamming) {
        Model bits = cosine(vectors, blocks, maxHamming, 0, maxHamming);
        double threshold = SimHash.cosine(maxHamming, blocks.bits());
        return new Model(
                "cosine",
                "P(candidate): " + blocks.tables() + " block tables share a key",
                "predicted P(found) = P(candidate) at an exact cosine of at least the threshold",
                String.format(
                        Locale.ROOT,
                        "%d-bit SimHash, k = %d (threshold cos(pi k / D) = %.4f), %s%d blocks, %d"
                                + " tables, exact verification",
                        blocks.bits(),
                        maxHamming,
                        threshold,
                        tableRadius(blocks, maxHamming),
                        blocks.blocks(),
                        blocks.tables())) {
            @Override
            public double exact(int a, int b) {
                return bits.exact(a, b);
            }

            @Override
            public double[] edges(double floor) {
                return bits.edges(floor);
            }

            @Override
            public double predictedCandidate(double s) {
                return bits.predictedCandidate(s);
            }

            @Override
            public double predictedFound(double s) {
                return s >= threshold ? predictedCandidate(s) : 0;
            }
        };
    }

    /**
     * Containment (Broder's 1997 c(A, B), the larger of the two ways): exact containment of the
     * shingle sets, buckets of 0.1, and per pair the size-partitioned bands' P(candidate) at the
     * pair's sizes times the probability that the bottom-s estimate reaches the threshold (a
     * binomial fraction of about s min(|A|, |B|) / max(|A|, |B|) samples). The curves of the plot
     * are those of a page contained in one twice its size (1,000 and 2,000 shingles).
     */
    public static Model containment(
            List<ShingleSet> sets,
            dev.neardup.lsh.ContainmentBanding banding,
            int sketchSize,
            double threshold) {
        return new Model(
                "containment",
                "P(candidate), a page in one twice its size: size-partitioned bands",
                "predicted P(found): candidate and bottom-"
                        + sketchSize
                        + " estimate >= "
                        + threshold,
                String.format(
                        Locale.ROOT,
                        "containment %.2f, %d keys per document, largest size ratio %s,"
                                + " bottom-%d samples",
                        threshold,
                        banding.keysPerDocument(),
                        java.math.BigDecimal.valueOf(banding.maxRatio())
                                .stripTrailingZeros()
                                .toPlainString(),
                        sketchSize)) {
            @Override
            public double exact(int a, int b) {
                return Math.max(
                        Similarity.containment(sets.get(a), sets.get(b)),
                        Similarity.containment(sets.get(b), sets.get(a)));
            }

            @Override
            public double[] edges(double floor) {
                return tenths(floor);
            }

            @Override
            public double predictedCandidate(double s) {
                return banding.candidateProbability(s, 1000, 2000);
            }

            @Override
            public double predictedFound(double s) {
                return predictedCandidate(s) * verified(s, 1000, 2000);
            }

            @Override
            public double predictedCandidate(int a, int b, double s) {
                long x = sets.get(a).size();
                long y = sets.get(b).size();
                return banding.candidateProbability(s, Math.min(x, y), Math.max(x, y));
            }

            @Override
            public double predictedFound(int a, int b, double s) {
                long x = sets.get(a).size();
                long y = sets.get(b).size();
                return predictedCandidate(a, b, s) * verified(s, Math.min(x, y), Math.max(x, y));
            }

            /** P[Binomial(k, c) >= t k] for the k shingles of the smaller set sampled. */
            private double verified(double c, long smaller, long larger) {
                if (larger < sketchSize) {
                    return c >= threshold ? 1 : 0;
                }
                long sampled = Math.round((double) sketchSize * smaller / larger);
                int k = (int) Math.max(1, Math.min(smaller, sampled));
                int need = (int) Math.ceil(threshold * k - 1e-9);
                double total = 0;
                for (int i = need; i <= k; i++) {
                    double log =
                            logChoose(k, i)
                                    + (i == 0 ? 0 : i * log(c))
                                    + (k == i ? 0 : (k - i) * log(1 - c));
                    total += Math.exp(log);
                }
                return Math.min(1, total);
            }
        };
    }

    private static double log(double x) {
        return x <= 0 ? Double.NEGATIVE_INFINITY : Math.log(x);
    }

    private static double logChoose(int n, int k) {
        double out = 0;
        for (int i = 1; i <= k; i++) {
            out += Math.log(n - k + i) - Math.log(i);
        }
        return out;
    }

    private static double angle(double cosine) {
        return Math.acos(Math.max(-1, Math.min(1, cosine)));
    }

    /** The exact pairs of a Jaccard join. */
    public static List<Truth> fromJaccard(List<ExactSimilarityJoin.Pair> pairs) {
        return pairs.stream().map(p -> new Truth(p.first(), p.second(), p.jaccard())).toList();
    }

    /** The exact pairs of a cosine join. */
    public static List<Truth> fromCosine(List<ExactCosineJoin.Pair> pairs) {
        return pairs.stream().map(p -> new Truth(p.first(), p.second(), p.cosine())).toList();
    }

    /** The exact pairs of a containment join, at the larger of the two containments. */
    public static List<Truth> fromContainment(List<ExactContainmentJoin.Pair> pairs) {
        return pairs.stream().map(p -> new Truth(p.first(), p.second(), p.containment())).toList();
    }

    /**
     * @param docs documents in stream order
     * @param exact all pairs with exact similarity >= the floor (indexes into docs, first < second)
     * @param model the family's exact similarity and predictions
     * @param matches for each document id, the ids of earlier documents the job matched it with
     * @param candidates for each document id, the candidates the job verified
     * @param floor the lowest similarity in {@code exact}
     * @param recallSimilarity doc-level and pair recall count pairs at least this similar
     * @param precisionSimilarity pair precision counts reported pairs at least this similar
     */
    public static Report compute(
            List<Doc> docs,
            List<Truth> exact,
            Model model,
            Map<String, Set<String>> matches,
            Map<String, Integer> candidates,
            double floor,
            double recallSimilarity,
            double precisionSimilarity) {
        // Pair recall counts the pairs at recallSimilarity or more; doc-level recall, the
        // documents with an earlier document in such a pair.
        List<Truth> recalled =
                exact.stream().filter(p -> p.similarity() >= recallSimilarity).toList();
        int[] withSimilar = recalled.stream().mapToInt(Truth::second).distinct().toArray();
        int found = 0;
        for (int i : withSimilar) {
            found += matches.getOrDefault(docs.get(i).id(), Set.of()).isEmpty() ? 0 : 1;
        }
        // Pair precision: reported pairs with exact similarity >= precisionSimilarity.
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < docs.size(); i++) {
            index.put(docs.get(i).id(), i);
        }
        int reported = 0;
        int reportedAbove = 0;
        double[] edges = model.edges(floor);
        int[] reportedIn = new int[edges.length - 1];
        int reportedBelowFloor = 0;
        for (Map.Entry<String, Set<String>> e : matches.entrySet()) {
            Integer a = index.get(e.getKey());
            for (String other : e.getValue()) {
                Integer b = index.get(other);
                if (a == null || b == null) {
                    continue;
                }
                reported++;
                double s = model.exact(a, b);
                if (s >= precisionSimilarity) {
                    reportedAbove++;
                }
                int k = bucketOf(edges, s);
                if (k < 0) {
                    reportedBelowFloor++;
                } else {
                    reportedIn[k]++;
                }
            }
        }
        Found foundPairs = found(docs, matches);
        Predicate<Truth> isFound = p -> foundPairs.test(p.first(), p.second());
        int truePairsFound = (int) recalled.stream().filter(isFound).count();
        List<Bucket> buckets = new ArrayList<>();
        for (int k = 0; k + 1 < edges.length; k++) {
            double low = edges[k];
            double high = edges[k + 1];
            boolean last = k + 2 == edges.length;
            int n = 0;
            int hit = 0;
            double candidate = 0;
            double predicted = 0;
            for (Truth p : exact) {
                double s = p.similarity();
                if (s >= low - 1e-12 && (s < high - 1e-12 || last)) {
                    n++;
                    if (isFound.test(p)) {
                        hit++;
                    }
                    candidate += model.predictedCandidate(p.first(), p.second(), s);
                    predicted += model.predictedFound(p.first(), p.second(), s);
                }
            }
            buckets.add(
                    new Bucket(
                            low,
                            high,
                            n,
                            hit,
                            reportedIn[k],
                            ratio(hit, n),
                            ratio(candidate, n),
                            ratio(predicted, n)));
        }
        double meanCandidates =
                candidates.values().stream().mapToInt(Integer::intValue).average().orElse(0);
        return new Report(
                model.name(),
                docs.size(),
                exact.size(),
                recallSimilarity,
                withSimilar.length,
                found,
                ratio(found, withSimilar.length),
                recalled.size(),
                truePairsFound,
                ratio(truePairsFound, recalled.size()),
                precisionSimilarity,
                reported,
                reportedAbove,
                ratio(reportedAbove, reported),
                reportedBelowFloor,
                meanCandidates,
                buckets);
    }

    /**
     * The bucket of similarity {@code s} among {@code edges} (the last one closed above, as the
     * pairs are counted), or -1 below the first edge.
     */
    static int bucketOf(double[] edges, double s) {
        for (int k = 0; k + 1 < edges.length; k++) {
            boolean last = k + 2 == edges.length;
            if (s >= edges[k] - 1e-12 && (s < edges[k + 1] - 1e-12 || last)) {
                return k;
            }
        }
        return -1;
    }

    /** Which pairs of documents (by index) the job found ({@link #found}). */
    @FunctionalInterface
    public interface Found {
        boolean test(int a, int b);
    }

    /**
     * The pairs the job found, from its {@code matches} (document id to the ids it was reported
     * against). Documents with the same identity stand for each other (the job keeps the earliest
     * of them in its buckets): a pair is found when the job reported a pair between the same two
     * groups.
     */
    public static Found found(List<Doc> docs, Map<String, Set<String>> matches) {
        Map<String, Integer> index = new HashMap<>();
        int[] group = new int[docs.size()];
        Map<Long, Integer> firstWith = new HashMap<>();
        for (int i = 0; i < docs.size(); i++) {
            index.put(docs.get(i).id(), i);
            Integer first = firstWith.putIfAbsent(docs.get(i).identity(), i);
            group[i] = first == null ? i : first;
        }
        Set<Long> reportedGroups = new HashSet<>();
        for (Map.Entry<String, Set<String>> e : matches.entrySet()) {
            Integer a = index.get(e.getKey());
            for (String other : e.getValue()) {
                Integer b = index.get(other);
                if (a != null && b != null) {
                    reportedGroups.add(groupPair(group[a], group[b]));
                }
            }
        }
        return (a, b) -> reportedGroups.contains(groupPair(group[a], group[b]));
    }

    private static double ratio(double part, int whole) {
        return whole == 0 ? Double.NaN : part / whole;
    }

    private static long groupPair(int a, int b) {
        return ((long) Math.min(a, b) << 32) | Math.max(a, b);
    }
}
