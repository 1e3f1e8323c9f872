package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.config.JaccardSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.lsh.LshParams;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.PlantedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job against exact ground truth: the exact Jaccard similarity of every pair of a 2000-document
 * corpus (through an inverted index over shingles, so only pairs sharing a shingle are compared),
 * then the job's verdicts compared with it: doc-level recall, pair precision, and the detection
 * rate per similarity bucket against what the S-curve and the verification threshold predict.
 */
class NearDupEvaluationITCase {

    @RegisterExtension static final MiniClusterExtension CLUSTER = MiniClusters.twoSlots();

    private static final double THRESHOLD = 0.8;

    @Test
    void matchesTheExactAnswerAsTheSCurvePredicts() throws Exception {
        PlantedCorpus corpus = new PlantedCorpus(7);
        SplittableRandom random = new SplittableRandom(8);
        int docs = 0;
        for (int b = 0; docs < 2000; b++) {
            String base = corpus.addBase("b" + b, 1600);
            docs++;
            int variants = random.nextInt(4);
            for (int v = 0; v < variants && docs < 2000; v++, docs++) {
                corpus.addVariant(base, "b" + b + "v" + v, 0.45 + 0.55 * random.nextDouble());
            }
        }
        corpus.shuffleKeepingBasesFirst();

        Path dir = Files.createTempDirectory(MiniClusters.TMP, "eval");
        Path input = dir.resolve("docs.jsonl");
        JobFiles.writeInput(input, corpus.docs, Map.of());
        Configuration base = new Configuration();
        base.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        base.set(NearDupOptions.THRESHOLD, THRESHOLD);
        NearDupSettings settings = NearDupSettings.from(base);
        EmbeddedJob.run(
                EmbeddedJob.configuration(base, dir, Duration.ofSeconds(1)),
                settings,
                input,
                dir.resolve("alerts.jsonl").toString(),
                dir.resolve("verdicts.jsonl").toString(),
                dir.resolve("dead-letters.jsonl").toString());

        // The job's answer: for each document, the earlier documents it was matched with.
        Map<String, Set<String>> matched = new HashMap<>();
        for (JsonNode v : JobFiles.read(dir.resolve("verdicts.jsonl"))) {
            Set<String> ids = new HashSet<>();
            v.get("matches").forEach(m -> ids.add(m.get("docId").asText()));
            matched.put(v.get("docId").asText(), ids);
        }
        assertThat(matched).hasSize(corpus.docs.size());

        // Exact answer: all pairs (earlier, later) with J >= 0.4.
        List<double[]> pairs = new ArrayList<>(); // {earlierIndex, laterIndex, jaccard}
        Map<Long, List<Integer>> postings = new HashMap<>();
        for (int i = 0; i < corpus.docs.size(); i++) {
            ShingleSet set = corpus.shingles(corpus.docs.get(i).id());
            Map<Integer, Integer> common = new HashMap<>();
            for (long h : set.toArray()) {
                for (int j : postings.getOrDefault(h, List.of())) {
                    common.merge(j, 1, Integer::sum);
                }
                postings.computeIfAbsent(h, k -> new ArrayList<>()).add(i);
            }
            for (Map.Entry<Integer, Integer> e : common.entrySet()) {
                ShingleSet other = corpus.shingles(corpus.docs.get(e.getKey()).id());
                double j = (double) e.getValue() / (set.size() + other.size() - e.getValue());
                assertThat(j).isEqualTo(Similarity.jaccard(set, other)); // index agrees with merge
                if (j >= 0.4) {
                    pairs.add(new double[] {e.getKey(), i, j});
                }
            }
        }

        // Pair precision: every reported match is truly similar.
        int reported = 0;
        int reportedAbove07 = 0;
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < corpus.docs.size(); i++) {
            index.put(corpus.docs.get(i).id(), i);
        }
        for (Map.Entry<String, Set<String>> e : matched.entrySet()) {
            for (String m : e.getValue()) {
                reported++;
                if (corpus.jaccard(e.getKey(), m) >= 0.7) {
                    reportedAbove07++;
                }
            }
        }
        assertThat(reported).isGreaterThan(300);
        assertThat((double) reportedAbove07 / reported)
                .as("pair precision (reported pairs with exact J >= 0.7)")
                .isGreaterThanOrEqualTo(0.99);

        // Doc-level recall: documents with an earlier document at J >= 0.9 are duplicates.
        Set<Integer> shouldBeDuplicates = new HashSet<>();
        Set<Integer> found = new HashSet<>();
        for (double[] p : pairs) {
            if (p[2] >= 0.9) {
                int later = (int) p[1];
                shouldBeDuplicates.add(later);
                if (!matched.get(corpus.docs.get(later).id()).isEmpty()) {
                    found.add(later);
                }
            }
        }
        assertThat(shouldBeDuplicates).hasSizeGreaterThan(100);
        assertThat((double) found.size() / shouldBeDuplicates.size())
                .as("doc-level recall at J >= 0.9")
                .isGreaterThanOrEqualTo(0.99);

        // Detection rate per similarity bucket vs the prediction: a pair is found when it
        // collides in a band (the S-curve) and its estimate reaches the threshold.
        LshParams banding = ((JaccardSettings) settings.similarity()).banding();
        for (double lo = 0.6; lo < 1.0; lo += 0.1) {
            double hi = lo + 0.1;
            int n = 0;
            int detected = 0;
            double predicted = 0;
            for (double[] p : pairs) {
                if (p[2] >= lo && (p[2] < hi || hi > 0.99)) {
                    n++;
                    String earlier = corpus.docs.get((int) p[0]).id();
                    String later = corpus.docs.get((int) p[1]).id();
                    if (matched.get(later).contains(earlier)) {
                        detected++;
                    }
                    predicted +=
                            banding.findProbability(
                                    p[2],
                                    settings.text().numHashes(),
                                    THRESHOLD,
                                    settings.buckets().signatureBits());
                }
            }
            if (n < 20) {
                continue;
            }
            double expectedRate = predicted / n;
            double rate = (double) detected / n;
            double sigma = Math.sqrt(Math.max(expectedRate * (1 - expectedRate), 0.0025) / n);
            assertThat(rate)
                    .as("detection rate for J in [%.1f, %.1f) over %d pairs", lo, hi, n)
                    .isBetween(expectedRate - 4 * sigma - 0.02, expectedRate + 4 * sigma + 0.02);
        }
    }
}
