package dev.neardup.similarity;

import dev.neardup.config.ContainmentSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.eval.Evaluation;
import dev.neardup.eval.ExactContainmentJoin;
import dev.neardup.lsh.Banding;
import dev.neardup.lsh.ContainmentBanding;
import dev.neardup.lsh.ContainmentSketcher;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.sketch.BottomKContainment;
import dev.neardup.sketch.MinHash;
import dev.neardup.text.ShingleOptions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Containment of one shingle set in another, |A ∩ B| / |A| (Broder 1997): MinHash signatures cut
 * into size-partitioned bands (Zhu et al. 2016, LSH Ensemble), candidates verified by a sample
 * store after the buckets against one bottom-s sample per document; a match says which document is
 * contained in which.
 */
record ContainmentMode(NearDupSettings settings, ContainmentSettings containment)
        implements SimilarityMode {

    @Override
    public SimilarityFamily family() {
        return SimilarityFamily.CONTAINMENT;
    }

    @Override
    public TextSketcher newSketcher() {
        return new ContainmentSketcher(
                features(),
                settings.text().minHash(),
                containment.banding(),
                containment.sketchSize());
    }

    @Override
    public Verification verification() {
        return new Verification.Containment(containment.sketchSize(), containment.threshold());
    }

    /** A bottom-s sample (2 + 4 s bytes) is too large to keep in each of ~257 buckets. */
    @Override
    public CandidateSite candidateSite() {
        return CandidateSite.SAMPLE_STORE;
    }

    @Override
    public void addStateShape(Map<String, String> m) {
        m.put(NearDupOptions.NUM_HASHES.key(), Integer.toString(settings.text().numHashes()));
        m.put(NearDupOptions.ALGORITHM.key(), settings.text().algorithm().name());
        m.put("minhash-seed", Long.toHexString(MinHash.DEFAULT_SEED));
        StringBuilder bandings = new StringBuilder();
        for (LshParams p : containment.banding().bandings()) {
            bandings.append(bandings.length() == 0 ? "" : ",")
                    .append(p.bands())
                    .append('x')
                    .append(p.rows());
        }
        m.put("containment.bandings", bandings.toString());
        m.put(NearDupOptions.CONTAINMENT_MAX_RATIO.key(), Double.toString(containment.maxRatio()));
        m.put("band-key-seed", Long.toHexString(Banding.DEFAULT_SEED));
        m.put(
                NearDupOptions.CONTAINMENT_SKETCH_SIZE.key(),
                Integer.toString(containment.sketchSize()));
        m.put("sample-seed", Long.toHexString(BottomKContainment.DEFAULT_SEED));
        m.put(ShapeKeys.CONTAINMENT_SAMPLES, "intake");
        ShapeKeys.putShingles(m, features());
    }

    @Override
    public String describe() {
        double ratio = containment.maxRatio();
        ContainmentBanding banding = containment.banding();
        ShingleOptions sh = features();
        return String.format(
                java.util.Locale.ROOT,
                "containment=%.2f K=%d size-partitioned bands (max size ratio %s, %d keys per"
                        + " document: %s) sketch=bottom-%d minhash=%s shingles=%s/%d%s"
                        + " bucket-capacity=%d retention=%s",
                containment.threshold(),
                settings.text().numHashes(),
                ratio == Math.rint(ratio) ? Long.toString((long) ratio) : Double.toString(ratio),
                banding.keysPerDocument(),
                banding,
                containment.sketchSize(),
                settings.text().algorithm(),
                sh.kind(),
                sh.size(),
                ShapeKeys.textOptions(sh),
                settings.buckets().capacity(),
                ShapeKeys.retention(settings.buckets().retentionMillis()));
    }

    @Override
    public String keyUnit() {
        return "band key";
    }

    /** Containment is not a clustering relation: a digest contains many articles. */
    @Override
    public BatchSketches batch() {
        throw new IllegalArgumentException(
                "invalid option "
                        + NearDupOptions.SIMILARITY.key()
                        + ": dedupe clusters near-duplicates by resemblance or cosine; containment"
                        + " is not a clustering relation (a digest contains many articles): use"
                        + " 'neardup run --containment T' or 'neardup evaluate --containment T'");
    }

    @Override
    public String[] describeKeys(int keys, String banding) {
        return new String[] {"band keys", Integer.toString(keys), "size-partitioned, per document"};
    }

    @Override
    public String describeEstimate(double estimate) {
        return "containment of one in the other, from bottom-"
                + containment.sketchSize()
                + " samples";
    }

    @Override
    public ModeTuning tuning(ReadableConfig conf, Set<String> flags, Integer superShingleKeys) {
        return new ContainmentTuning(containment, flags, superShingleKeys);
    }

    @Override
    public ModeEvaluation evaluation() {
        return new ModeEvaluation.OfSets(
                new ModeEvaluation.Terms(
                        0.5,
                        containment.threshold(),
                        containment.threshold(),
                        "containment",
                        "c",
                        "%.2f",
                        "containment (either way)",
                        // The buckets only compare; the store verifies a pair once per subtask.
                        "bucket comparisons",
                        "identical signatures",
                        "  exact c        pairs    found reported   recall   P(candidate) at the"
                                + " pairs' sizes   predicted P(found)"),
                settings.text().minHash()) {
            @Override
            public List<Evaluation.Truth> exactPairs(double floor) {
                return Evaluation.fromContainment(ExactContainmentJoin.allPairs(sets, floor));
            }

            @Override
            public Evaluation.Model model() {
                return Evaluation.containment(
                        sets,
                        containment.banding(),
                        containment.sketchSize(),
                        containment.threshold());
            }
        };
    }
}
