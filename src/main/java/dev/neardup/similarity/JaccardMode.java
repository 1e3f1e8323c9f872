package dev.neardup.similarity;

import dev.neardup.config.Format;
import dev.neardup.config.JaccardSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.eval.Evaluation;
import dev.neardup.eval.ExactSimilarityJoin;
import dev.neardup.lsh.BandKeys;
import dev.neardup.lsh.Banding;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import dev.neardup.text.ContentType;
import dev.neardup.text.ShingleOptions;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Resemblance, the Jaccard similarity of shingle sets (Broder 1997): MinHash signatures, LSH
 * banding (Indyk and Motwani 1998), candidates verified in the buckets by the estimate from the
 * members' b-bit signatures (Li and König 2010). The default mode. In the offline dedupe, the bands
 * are chosen for recall and candidates verified exactly by default.
 */
record JaccardMode(NearDupSettings settings, JaccardSettings jaccard)
        implements SimilarityMode, BatchSketches {

    @Override
    public SimilarityFamily family() {
        return SimilarityFamily.JACCARD;
    }

    @Override
    public TextSketcher newSketcher() {
        return new DocumentSketcher(
                settings.text().shingles(),
                settings.text().minHash(),
                new Banding(jaccard.banding()));
    }

    @Override
    public Verification verification() {
        return new Verification.Jaccard(
                settings.text().numHashes(),
                settings.buckets().signatureBits(),
                jaccard.threshold());
    }

    @Override
    public void addStateShape(Map<String, String> m) {
        m.put(NearDupOptions.NUM_HASHES.key(), Integer.toString(settings.text().numHashes()));
        m.put(NearDupOptions.ALGORITHM.key(), settings.text().algorithm().name());
        m.put("minhash-seed", Long.toHexString(MinHash.DEFAULT_SEED));
        m.put(NearDupOptions.BANDS.key(), Integer.toString(jaccard.banding().bands()));
        m.put(NearDupOptions.ROWS.key(), Integer.toString(jaccard.banding().rows()));
        m.put("band-key-seed", Long.toHexString(Banding.DEFAULT_SEED));
        ShapeKeys.putShingles(m, features());
        m.put(
                NearDupOptions.SIGNATURE_BITS.key(),
                Integer.toString(settings.buckets().signatureBits()));
    }

    @Override
    public String describe() {
        LshParams banding = jaccard.banding();
        ShingleOptions sh = features();
        return String.format(
                "threshold=%.2f K=%d %s (effective threshold %.3f) minhash=%s shingles=%s/%d%s"
                        + " bucket-capacity=%d signature-bits=%d retention=%s",
                jaccard.threshold(),
                settings.text().numHashes(),
                banding,
                banding.effectiveThreshold(),
                settings.text().algorithm(),
                sh.kind(),
                sh.size(),
                ShapeKeys.textOptions(sh),
                settings.buckets().capacity(),
                settings.buckets().signatureBits(),
                ShapeKeys.retention(settings.buckets().retentionMillis()));
    }

    @Override
    public String keyUnit() {
        return "band";
    }

    @Override
    public BatchSketches batch() {
        return this;
    }

    @Override
    public String sketchStage() {
        return "shingles, MinHash";
    }

    @Override
    public boolean exactVerification() {
        return true;
    }

    /** The MinHash signature of the shingle hashes, and the distinct ones among them. */
    @Override
    public Exact sketchWithShingles(TextSketcher sketcher, String content, ContentType type) {
        DocumentSketcher minHash = (DocumentSketcher) sketcher;
        long[] hashes = minHash.shingler().shingleHashes(content, type);
        long[] shingles = ShingleSet.distinct(hashes);
        return new Exact(
                new DocumentSketcher.Sketch(
                        hashes.length, minHash.minHash().signature(hashes), new long[0]),
                shingles);
    }

    @Override
    public LshParams candidateBanding(boolean tuned, double recall) {
        return tuned
                ? jaccard.banding()
                : LshParams.forRecall(jaccard.threshold(), settings.text().numHashes(), recall);
    }

    @Override
    public BandKeys bandKeys(LshParams candidateBanding) {
        return new Banding(candidateBanding);
    }

    /**
     * With exact verification, 8-bit slices of the values (the estimate only screens candidates,
     * and a slice agrees wherever the value does); else the full values (the estimate decides).
     */
    @Override
    public MemberSketches memberSketches(LshParams candidateBanding, boolean exact) {
        return MemberSketches.minHash(
                new Banding(candidateBanding), settings.text().numHashes(), exact ? 1 : 8);
    }

    /** The share of agreeing MinHash values. */
    @Override
    public double estimate(long[] a, long[] b) {
        return Similarity.estimateJaccard(a, b);
    }

    @Override
    public String describeDedupe(
            LshParams banding, String verify, String window, String keep, int blockSize) {
        return String.format(
                Locale.ROOT,
                "threshold=%.2f K=%d %s (P(candidate) at the threshold %.3f) minhash=%s verify=%s"
                        + " %s block-size=%d",
                jaccard.threshold(),
                settings.text().numHashes(),
                banding,
                banding.probability(jaccard.threshold()),
                settings.text().algorithm(),
                verify,
                keep,
                blockSize);
    }

    @Override
    public void addSummary(
            Map<String, Object> json,
            LshParams banding,
            boolean window,
            int windowSize,
            int permutations) {
        json.put("bands", banding.bands());
        json.put("rows", banding.rows());
    }

    @Override
    public String thresholdTitle() {
        return "threshold " + Format.plain(jaccard.threshold());
    }

    @Override
    public String[] describeKeys(int keys, String banding) {
        return new String[] {
            "LSH banding", jaccard.banding().bands() + " x " + jaccard.banding().rows(), banding
        };
    }

    @Override
    public String describeEstimate(double estimate) {
        return String.format(
                Locale.ROOT,
                "%d-bit MinHash, b-bit corrected (K = %d), what a bucket keeps",
                settings.buckets().signatureBits(),
                settings.text().numHashes());
    }

    @Override
    public ModeTuning tuning(ReadableConfig conf, Set<String> flags, Integer superShingleKeys) {
        return new JaccardTuning(
                jaccard, settings.text().numHashes(), conf, flags, superShingleKeys);
    }

    @Override
    public ModeEvaluation evaluation() {
        return new ModeEvaluation.OfSets(
                new ModeEvaluation.Terms(
                        0.5,
                        0.9,
                        0.7,
                        "Jaccard",
                        "J",
                        "%.2f",
                        "Jaccard",
                        "candidates verified",
                        "identical signatures",
                        "  exact J        pairs    found reported   recall   S-curve P(candidate)  "
                                + " predicted P(found)"),
                settings.text().minHash()) {
            @Override
            public List<Evaluation.Truth> exactPairs(double floor) {
                return Evaluation.fromJaccard(ExactSimilarityJoin.allPairs(sets, floor));
            }

            @Override
            public Evaluation.Model model() {
                return Evaluation.jaccard(
                        sets,
                        jaccard.banding(),
                        settings.text().numHashes(),
                        jaccard.threshold(),
                        settings.buckets().signatureBits());
            }
        };
    }
}
