package dev.neardup.similarity;

import dev.neardup.config.CosineSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.eval.Evaluation;
import dev.neardup.eval.ExactCosineJoin;
import dev.neardup.eval.TermVector;
import dev.neardup.lsh.BandKeys;
import dev.neardup.lsh.BlockParams;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.PermutedBlocks;
import dev.neardup.lsh.SimHashSketcher;
import dev.neardup.lsh.SortedWindow;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.sketch.GaussianSimHash;
import dev.neardup.sketch.SimHash;
import dev.neardup.text.ContentType;
import dev.neardup.text.ShingleOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Cosine similarity of term-frequency vectors: SimHash fingerprints (Charikar 2002), permuted-block
 * tables that find every pair within Hamming distance k (Manku, Jain and Das Sarma 2007), verified
 * in the buckets on the members' Gaussian verification bits ({@link GaussianSimHash}, kept after
 * the fingerprint in the same sketch), or on the fingerprints when there are none; or, with exact
 * verification, on the exact cosine of the two term-frequency vectors, kept once per document by
 * the sample store after the buckets, the buckets sending on only the candidates whose Gaussian
 * bits say they may reach the threshold ({@link Verification.CosineExact}). The offline dedupe
 * finds candidates in the same tables, verified the same way, or a sliding window over sorted
 * fingerprints, verified by the fingerprints only.
 */
record CosineMode(NearDupSettings settings, CosineSettings cosine)
        implements SimilarityMode, BatchSketches {

    @Override
    public SimilarityFamily family() {
        return SimilarityFamily.COSINE;
    }

    @Override
    public TextSketcher newSketcher() {
        return new SimHashSketcher(
                features(),
                new SimHash(cosine.blocks().bits(), SimHash.DEFAULT_SEED),
                new PermutedBlocks(cosine.blocks()),
                cosine.verifyBits() == 0
                        ? null
                        : new GaussianSimHash(cosine.verifyBits(), GaussianSimHash.DEFAULT_SEED),
                cosine.exact());
    }

    @Override
    public Verification verification() {
        return cosine.exact() ? cosineExact() : bitsVerification();
    }

    /** The exact verification, screened on the verification bits. */
    Verification.CosineExact cosineExact() {
        return new Verification.CosineExact(
                cosine.blocks().bits(), cosine.maxHamming(), cosine.verifyBits());
    }

    /** The verification on bits (also what the offline dedupe uses). */
    Verification.Cosine bitsVerification() {
        return new Verification.Cosine(
                cosine.blocks().bits(), cosine.maxHamming(), cosine.verifyBits());
    }

    /**
     * Exact verification needs the term-frequency vectors, too large for every bucket member: kept
     * once per document by the sample store.
     */
    @Override
    public CandidateSite candidateSite() {
        return cosine.exact() ? CandidateSite.SAMPLE_STORE : CandidateSite.BUCKETS;
    }

    /** The words (shingles of one token) or the configured shingles, counted. */
    @Override
    public ShingleOptions features() {
        return SimHashSketcher.featureOptions(cosine.features(), settings.text().shingles());
    }

    @Override
    public void addStateShape(Map<String, String> m) {
        BlockParams layout = cosine.blocks();
        m.put(NearDupOptions.SIMHASH_BITS.key(), Integer.toString(layout.bits()));
        m.put("simhash-seed", Long.toHexString(SimHash.DEFAULT_SEED));
        m.put(NearDupOptions.MAX_HAMMING.key(), Integer.toString(cosine.maxHamming()));
        // State from before the tables' own radius had tables of radius k (StateCompatibility).
        m.put(NearDupOptions.SIMHASH_TABLE_HAMMING.key(), Integer.toString(layout.maxHamming()));
        m.put(NearDupOptions.SIMHASH_BLOCKS.key(), Integer.toString(layout.blocks()));
        m.put("block-key-seed", Long.toHexString(PermutedBlocks.DEFAULT_SEED));
        m.put(NearDupOptions.SIMHASH_FEATURES.key(), cosine.features().name());
        // BITS is what state from before exact verification had (StateCompatibility.LATER_KEYS).
        m.put(NearDupOptions.SIMHASH_VERIFY.key(), cosine.verify().name());
        if (cosine.verifyBits() > 0) {
            // Not recorded at 0, so that state from before the verification bits restores.
            m.put(NearDupOptions.SIMHASH_VERIFY_BITS.key(), Integer.toString(cosine.verifyBits()));
            m.put("verify-seed", Long.toHexString(GaussianSimHash.DEFAULT_SEED));
        }
        ShapeKeys.putShingles(m, features());
    }

    @Override
    public String describe() {
        BlockParams layout = cosine.blocks();
        ShingleOptions sh = settings.text().shingles();
        return String.format(
                Locale.ROOT,
                "similarity=cosine simhash-bits=%d max-hamming=%d (cosine >= %.3f) %s%d blocks,"
                        + " %d tables (keys of %s bits) features=%s%s %s bucket-capacity=%d"
                        + " retention=%s",
                cosine.blocks().bits(),
                cosine.maxHamming(),
                cosine.threshold(),
                describeTableHamming(),
                layout.blocks(),
                layout.tables(),
                CosineTuning.keyBits(layout),
                cosine.features() == SimHashSketcher.Features.WORDS
                        ? "words"
                        : "shingles/" + sh.kind() + "/" + sh.size(),
                ShapeKeys.textOptions(sh),
                describeVerification(),
                settings.buckets().capacity(),
                ShapeKeys.retention(settings.buckets().retentionMillis()));
    }

    /** "table-hamming=K_T " when the tables' radius is wider than k, else nothing. */
    String describeTableHamming() {
        return cosine.tableHamming() == cosine.maxHamming()
                ? ""
                : "table-hamming=" + cosine.tableHamming() + " ";
    }

    @Override
    public String keyUnit() {
        return "table";
    }

    @Override
    public BatchSketches batch() {
        if (cosine.exact()) {
            throw new IllegalArgumentException(
                    "invalid option "
                            + NearDupOptions.SIMHASH_VERIFY.key()
                            + ": dedupe --similarity cosine judges pairs on the verification bits"
                            + " or the fingerprints; EXACT is for the streaming job ('neardup run',"
                            + " 'neardup evaluate'): remove it, or set "
                            + NearDupOptions.SIMHASH_VERIFY.key()
                            + "=BITS");
        }
        return this;
    }

    @Override
    public String sketchStage() {
        return "words, SimHash";
    }

    @Override
    public boolean slidingWindow() {
        return true;
    }

    @Override
    public SortedWindow sortedWindow(int permutations, int window) {
        BlockParams b = cosine.blocks();
        return new SortedWindow(
                b.bits(), permutations, window, cosine.maxHamming(), SortedWindow.DEFAULT_SEED);
    }

    @Override
    public LshParams candidateBanding(boolean tuned, double recall) {
        return new LshParams(cosine.bandKeys(), 1);
    }

    /** The streaming job's permuted-block tables. */
    @Override
    public BandKeys bandKeys(LshParams candidateBanding) {
        return new PermutedBlocks(cosine.blocks());
    }

    @Override
    public MemberSketches memberSketches(LshParams candidateBanding, boolean exact) {
        return MemberSketches.simHash(bandKeys(candidateBanding), bitsVerification());
    }

    /**
     * cos(pi h / V) of the Hamming distance h of the verification bits, or without them cos(pi h /
     * D) of the fingerprints' (Charikar 2002); a pair reaches the threshold cos(pi k / D) exactly
     * when h is at most {@link Verification.Cosine#maxDistance}.
     */
    @Override
    public double estimate(long[] a, long[] b) {
        Verification.Cosine v = bitsVerification();
        int from = cosine.verifyBits() == 0 ? 0 : cosine.blocks().bits() / 64;
        int h = 0;
        for (int w = from; w < a.length; w++) {
            h += Long.bitCount(a[w] ^ b[w]);
        }
        return v.cosine(h);
    }

    /**
     * "verify-bits=V (h <= K, cosine +/- e at the threshold)": what judges a pair and the standard
     * error of its estimated cosine at the threshold, sin(theta) pi sqrt(p (1 - p) / n) with p =
     * theta / pi at theta = arccos(threshold) (binomial, Charikar 2002).
     */
    String describeVerification() {
        if (cosine.exact()) {
            return cosine.verifyBits() == 0
                    ? "verify=exact (the cosine of the term-frequency vectors, in the sample store;"
                            + " every candidate)"
                    : String.format(
                            Locale.ROOT,
                            "verify=exact (the cosine of the term-frequency vectors, in the sample"
                                    + " store; candidates screened on %d Gaussian bits, h <= %d)",
                            cosine.verifyBits(),
                            cosineExact().screenMaxHamming());
        }
        return String.format(
                Locale.ROOT,
                "verify-bits=%d (%s h <= %d, cosine +/- %.4f at the threshold)",
                cosine.verifyBits(),
                cosine.verifyBits() == 0 ? "fingerprint" : "Gaussian",
                cosine.verifyMaxHamming(),
                thresholdError());
    }

    /** The standard error of the estimated cosine of a pair at the threshold. */
    double thresholdError() {
        double theta = Math.acos(cosine.threshold());
        return Math.sin(theta) * Math.PI * SimHash.standardError(theta, cosine.judgingBits());
    }

    @Override
    public String describeDedupe(
            LshParams banding, String verify, String window, String keep, int blockSize) {
        return String.format(
                Locale.ROOT,
                "similarity=cosine simhash-bits=%d max-hamming=%d (cosine >= %.3f) %s%s"
                        + " candidates=%s %s",
                cosine.blocks().bits(),
                cosine.maxHamming(),
                cosine.threshold(),
                window != null ? "" : describeTableHamming(),
                window != null ? "verify-bits=0 (window)" : describeVerification(),
                window != null ? window : "blocks (" + cosine.blocks() + ")",
                keep);
    }

    @Override
    public void addSummary(
            Map<String, Object> json,
            LshParams banding,
            boolean window,
            int windowSize,
            int permutations) {
        json.put("simhashBits", cosine.blocks().bits());
        json.put("maxHamming", cosine.maxHamming());
        json.put("tableHamming", window ? null : cosine.tableHamming());
        json.put("verifyBits", window ? 0 : cosine.verifyBits());
        json.put("verifyMaxHamming", window ? cosine.maxHamming() : cosine.verifyMaxHamming());
        json.put("thresholdStandardError", window ? null : thresholdError());
        json.put("candidates", window ? "window" : "blocks");
        json.put("tables", window ? null : cosine.blocks().tables());
        json.put("window", window ? windowSize : null);
        json.put("permutations", window ? permutations : null);
    }

    @Override
    public String thresholdTitle() {
        return "cosine, Hamming distance <= %s of %s bits"
                .formatted(cosine.verifyMaxHamming(), cosine.judgingBits());
    }

    @Override
    public String[] describeKeys(int keys, String banding) {
        return new String[] {
            "block tables",
            Integer.toString(keys),
            "tables of " + cosine.blocks().blocks() + " blocks"
        };
    }

    @Override
    public String describeEstimate(double estimate) {
        if (cosine.exact()) {
            return String.format(
                    Locale.ROOT,
                    "the exact cosine of the term-frequency vectors (a match from %.4f)",
                    cosine.threshold());
        }
        return "cos(pi h / n), h = Hamming distance %s of n = %s bits, at most %s"
                .formatted(
                        verification().hamming(estimate),
                        cosine.judgingBits(),
                        cosine.verifyMaxHamming());
    }

    @Override
    public ModeTuning tuning(ReadableConfig conf, Set<String> flags, Integer superShingleKeys) {
        return new CosineTuning(cosine, conf, flags, superShingleKeys);
    }

    @Override
    public ModeReport comparison(String a, ContentType typeA, String b, ContentType typeB) {
        return new CosineComparison(this, a, typeA, b, typeB);
    }

    /**
     * Term-frequency vectors of the features; the default floor is the cosine at a Hamming distance
     * of 2 (k + 1) bits (at most half the bits), and not below 0.5.
     */
    @Override
    public ModeEvaluation evaluation() {
        int bits = cosine.blocks().bits();
        double floor =
                Math.max(
                        0.5,
                        SimHash.cosine(Math.min(2 * (cosine.maxHamming() + 1), bits / 2), bits));
        List<TermVector> vectors = new ArrayList<>();
        return new ModeEvaluation(
                new ModeEvaluation.Terms(
                        floor,
                        cosine.threshold(),
                        cosine.threshold(),
                        "cosine",
                        "cos",
                        "%.4f",
                        "cosine",
                        "candidates verified",
                        "the same word counts",
                        "  exact cosine      expected h     pairs    found reported   recall  "
                                + " P(candidate)   predicted P(found)")) {
            @Override
            public Evaluation.Doc add(String id, long[] hashes) {
                vectors.add(TermVector.termFrequencies(hashes));
                return new Evaluation.Doc(id, SimHashSketcher.identity(hashes));
            }

            @Override
            public List<Evaluation.Truth> exactPairs(double floor) {
                return Evaluation.fromCosine(ExactCosineJoin.allPairs(vectors, floor));
            }

            @Override
            public Evaluation.Model model() {
                return cosine.exact()
                        ? Evaluation.cosineExact(vectors, cosine.blocks(), cosine.maxHamming())
                        : Evaluation.cosine(
                                vectors,
                                cosine.blocks(),
                                cosine.maxHamming(),
                                cosine.verifyBits(),
                                cosine.verifyMaxHamming());
            }

            /** With the range of Hamming distances expected at the range of cosines. */
            @Override
            public String row(Evaluation.Bucket b) {
                return String.format(
                        Locale.ROOT,
                        "  %.4f-%.4f  %5.2f-%5.2f  %8d %8d %8d   %6s   %12s   %18s",
                        b.low(),
                        b.high(),
                        bits * Math.acos(Math.min(1, b.high())) / Math.PI,
                        bits * Math.acos(Math.min(1, b.low())) / Math.PI,
                        b.pairs(),
                        b.found(),
                        b.reported(),
                        ModeEvaluation.ratio(b.recall()),
                        ModeEvaluation.ratio(b.predictedCandidate()),
                        ModeEvaluation.ratio(b.predictedFound()));
            }
        };
    }
}
