package dev.neardup.similarity;

import dev.neardup.config.CosineSettings;
import dev.neardup.config.Format;
import dev.neardup.eval.TermVector;
import dev.neardup.lsh.BlockParams;
import dev.neardup.lsh.PermutedBlocks;
import dev.neardup.lsh.SimHashSketcher;
import dev.neardup.sketch.GaussianSimHash;
import dev.neardup.sketch.SimHash;
import dev.neardup.text.ContentType;
import dev.neardup.text.Shingler;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code neardup compare --similarity cosine} adds: the exact cosine of the two documents'
 * term-frequency vectors (the job's features, counted exactly), the SimHash estimate cos(pi h / D)
 * from their fingerprints' Hamming distance h, whether they share a permuted-block table key (a
 * candidate pair of the job), and whether h is within k (a near-duplicate).
 */
final class CosineComparison implements ModeReport {

    final CosineSettings settings;
    final double exact;
    final int hamming;
    final double estimate;
    final int firstAgreeingTable;
    final int featuresA;
    final int featuresB;

    /** Hamming distance of the verification bits, or -1 without them. */
    final int verifyHamming;

    final double verifyEstimate;

    CosineComparison(CosineMode mode, String a, ContentType typeA, String b, ContentType typeB) {
        this.settings = mode.cosine();
        Shingler features = new Shingler(mode.features());
        long[] fa = features.shingleHashes(a, typeA);
        long[] fb = features.shingleHashes(b, typeB);
        this.featuresA = fa.length;
        this.featuresB = fb.length;
        this.exact =
                TermVector.cosine(TermVector.termFrequencies(fa), TermVector.termFrequencies(fb));
        SimHash simHash = new SimHash(settings.blocks().bits(), SimHash.DEFAULT_SEED);
        long[] pa = simHash.fingerprint(fa);
        long[] pb = simHash.fingerprint(fb);
        this.hamming = SimHash.hamming(pa, pb);
        this.estimate = SimHash.cosine(hamming, settings.blocks().bits());
        this.firstAgreeingTable = new PermutedBlocks(settings.blocks()).firstAgreeingBand(pa, pb);
        int verify = settings.verifyBits();
        if (verify > 0) {
            GaussianSimHash gaussian = new GaussianSimHash(verify, GaussianSimHash.DEFAULT_SEED);
            this.verifyHamming =
                    SimHash.hamming(gaussian.fingerprint(fa), gaussian.fingerprint(fb));
            this.verifyEstimate = mode.bitsVerification().cosine(verifyHamming);
        } else {
            this.verifyHamming = -1;
            this.verifyEstimate = estimate;
        }
    }

    @Override
    public void printText(PrintWriter out) {
        BlockParams layout = settings.blocks();
        int bits = layout.bits();
        out.println();
        out.printf(
                Locale.ROOT,
                "Cosine (SimHash): %s, %d-bit fingerprints, k = %d (threshold %.4f)%s%n",
                settings.features() == SimHashSketcher.Features.WORDS
                        ? "word term frequencies"
                        : "shingle frequencies",
                bits,
                settings.maxHamming(),
                settings.threshold(),
                layout.maxHamming() == settings.maxHamming()
                        ? ""
                        : ", tables within " + layout.maxHamming());
        ModeReport.line(
                out,
                "exact cosine",
                Format.fixed(exact),
                "of the term-frequency vectors (" + featuresA + " and " + featuresB + " tokens)");
        ModeReport.line(
                out,
                "Hamming distance",
                Integer.toString(hamming),
                String.format(
                        Locale.ROOT,
                        "of %d bits; expected %.1f +/- %.1f at the exact cosine",
                        bits,
                        bits * Math.acos(exact) / Math.PI,
                        bits * SimHash.standardError(Math.acos(exact), bits)));
        ModeReport.line(out, "SimHash estimate", Format.fixed(estimate), "cos(pi h / D)");
        if (verifyHamming >= 0) {
            int v = settings.verifyBits();
            double theta = Math.acos(Math.max(-1, Math.min(1, verifyEstimate)));
            ModeReport.line(
                    out,
                    settings.exact() ? "screen bits" : "verification bits",
                    Integer.toString(verifyHamming),
                    String.format(
                            Locale.ROOT,
                            "of %d Gaussian bits differ (at most %d %s): cosine %.4f +/- %.4f",
                            v,
                            settings.exact()
                                    ? Verification.CosineExact.screenMaxHamming(
                                            settings.threshold(), v)
                                    : settings.verifyMaxHamming(),
                            settings.exact() ? "to be verified" : "for a match",
                            verifyEstimate,
                            Math.sin(theta) * Math.PI * SimHash.standardError(theta, v)));
        }
    }

    /** What the job decides: a candidate whose judging bits are within the largest distance. */
    boolean nearDuplicate() {
        if (settings.exact()) {
            return firstAgreeingTable >= 0
                    && (settings.verifyBits() == 0
                            || verifyHamming
                                    <= Verification.CosineExact.screenMaxHamming(
                                            settings.threshold(), settings.verifyBits()))
                    && exact >= settings.threshold();
        }
        return settings.verifyBits() == 0
                ? hamming <= settings.maxHamming()
                : firstAgreeingTable >= 0 && verifyHamming <= settings.verifyMaxHamming();
    }

    @Override
    public Map<String, Object> toJson() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("bits", settings.blocks().bits());
        o.put("maxHamming", settings.maxHamming());
        o.put("tableHamming", settings.tableHamming());
        o.put("threshold", settings.threshold());
        o.put("blocks", settings.blocks().blocks());
        o.put("tables", settings.blocks().tables());
        o.put("exactCosine", exact);
        o.put("hamming", hamming);
        o.put("estimate", estimate);
        o.put("candidate", firstAgreeingTable >= 0);
        o.put("firstAgreeingTable", firstAgreeingTable >= 0 ? firstAgreeingTable : null);
        o.put("verifyBits", settings.verifyBits());
        o.put("verifyHamming", verifyHamming >= 0 ? verifyHamming : null);
        o.put("verifyEstimate", verifyHamming >= 0 ? verifyEstimate : null);
        o.put("nearDuplicate", nearDuplicate());
        return o;
    }
}
