package dev.neardup.lsh;

import dev.neardup.sketch.Mix64;
import java.util.Objects;

/**
 * Size-partitioned LSH banding for containment search, after LSH Ensemble (Zhu, Nargesian, Pu and
 * Miller, "LSH Ensemble: Internet-Scale Domain Search", VLDB 2016), made symmetric for a stream in
 * which every document is both indexed and queried.
 *
 * <p>Partitions. A document of n distinct shingles is in partition p = floor(log2 n): partition p
 * holds the sizes [2^p, 2^(p+1)). Two documents whose sizes differ by a factor of at most R (the
 * largest size ratio searched) are in partitions at most W = ceil(log2 R) apart.
 *
 * <p>A pair in partitions p and p + d is looked for with a banding of its own offset d, tuned
 * ({@link LshParams#suggest}) for the lowest resemblance that containment t implies there, at size
 * ratio min(2^(d+1), R) ({@link #resemblanceThreshold}). Why powers of two and not equi-depth:
 * docs/design/minhash.md; figures: docs/containment.md.
 *
 * <p>Keys. The keys of offset d are the band keys of that banding ({@link Banding}, band-key seed
 * {@code Banding.DEFAULT_SEED + 1 + d}), each mixed with the lower partition of the pair. A
 * document in partition p emits the keys of the pairs (p, p), (p, p + d) and (p - d, p) for d = 1
 * .. W: always b_0 + 2 (b_1 + ... + b_W) keys, so both documents of a pair emit the keys of their
 * pair whichever comes first, and every document has the same number of keys (which the verdicts
 * count on).
 */
public final class ContainmentBanding {

    /** Keys per document at most (the bucket reports are counted per key). */
    public static final int MAX_KEYS = 4096;

    private final double containment;
    private final double maxRatio;
    private final LshParams[] perOffset;
    private final Banding[] bandings;
    private final int keysPerDocument;

    /**
     * @param containment the containment threshold t, in (0, 1)
     * @param maxRatio R, the largest size ratio of a pair searched, at least 1
     * @param numHashes K, the MinHash signature length
     * @param fpWeight weight of false positives when tuning each banding
     * @param fnWeight weight of false negatives
     */
    public ContainmentBanding(
            double containment, double maxRatio, int numHashes, double fpWeight, double fnWeight) {
        if (!(containment > 0 && containment < 1)) {
            throw new IllegalArgumentException(
                    "containment threshold must be strictly between 0 and 1, got " + containment);
        }
        if (!(maxRatio >= 1 && maxRatio <= 1 << 20)) {
            throw new IllegalArgumentException(
                    "largest size ratio must be between 1 and 2^20, got " + maxRatio);
        }
        this.containment = containment;
        this.maxRatio = maxRatio;
        int w = offsets(maxRatio);
        perOffset = new LshParams[w + 1];
        bandings = new Banding[w + 1];
        int keys = 0;
        for (int d = 0; d <= w; d++) {
            perOffset[d] =
                    LshParams.suggest(resemblanceThreshold(d), numHashes, fpWeight, fnWeight);
            bandings[d] = new Banding(perOffset[d], Banding.DEFAULT_SEED + 1 + d);
            keys += (d == 0 ? 1 : 2) * perOffset[d].bands();
        }
        if (keys > MAX_KEYS) {
            throw new IllegalArgumentException(
                    ("containment banding needs %s keys per document, more than %s: lower the"
                                    + " largest size ratio")
                            .formatted(keys, MAX_KEYS));
        }
        this.keysPerDocument = keys;
    }

    /** W = ceil(log2 R): the largest partition offset searched. */
    static int offsets(double maxRatio) {
        int w = 0;
        while ((double) (1L << w) < maxRatio - 1e-9) {
            w++;
        }
        return w;
    }

    /** The partition of a document of {@code distinctShingles}: floor(log2 n), 0 for n &lt;= 1. */
    public static int partition(long distinctShingles) {
        return distinctShingles <= 1 ? 0 : 63 - Long.numberOfLeadingZeros(distinctShingles);
    }

    /**
     * The resemblance threshold of partition offset d: that of a query at the lower bound of a
     * partition contained at t in a set min(2^(d+1), R) times as large.
     */
    public double resemblanceThreshold(int d) {
        long q = 1 << 20;
        double ratio = Math.min(Math.pow(2, d + 1), maxRatio);
        return SizePartitions.resemblanceThreshold(containment, q, (long) Math.ceil(q * ratio));
    }

    /** W + 1 bandings, by partition offset d = 0 .. W. */
    public LshParams[] bandings() {
        return perOffset.clone();
    }

    /** Keys per document: b_0 + 2 (b_1 + ... + b_W). */
    public int keysPerDocument() {
        return keysPerDocument;
    }

    public double containment() {
        return containment;
    }

    public double maxRatio() {
        return maxRatio;
    }

    /**
     * The keys of a document with this MinHash signature and number of distinct shingles, in a
     * fixed order: offset 0, then for d = 1 .. W the pair above and the pair below.
     */
    public long[] bandKeys(long[] signature, long distinctShingles) {
        Objects.requireNonNull(signature, "signature");
        int p = partition(distinctShingles);
        long[] out = new long[keysPerDocument];
        int at = 0;
        for (int d = 0; d < perOffset.length; d++) {
            long[] raw = bandings[d].bandKeys(signature);
            at = mix(raw, p, d, out, at);
            if (d > 0) {
                at = mix(raw, p - d, d, out, at);
            }
        }
        return out;
    }

    private static int mix(long[] raw, int lowPartition, int d, long[] out, int at) {
        long salt = Mix64.splitMix64(lowPartition, d);
        for (long k : raw) {
            out[at++] = Mix64.fmix64(k ^ salt);
        }
        return at;
    }

    /**
     * The probability that a pair of these sizes with containment c of the smaller in the larger
     * becomes a candidate: the S-curve of its pair of partitions at the resemblance c q / (q + x -
     * c q); 0 beyond W partitions apart.
     */
    public double candidateProbability(double c, long smaller, long larger) {
        int d = Math.abs(partition(larger) - partition(smaller));
        if (d >= perOffset.length) {
            return 0;
        }
        double shared = c * smaller;
        double r = shared / (smaller + larger - shared);
        return perOffset[d].probability(r);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (int d = 0; d < perOffset.length; d++) {
            out.append(d == 0 ? "" : ", ")
                    .append(
                            String.format(
                                    java.util.Locale.ROOT,
                                    "d=%d: %s (r >= %.3f)",
                                    d,
                                    perOffset[d],
                                    resemblanceThreshold(d)));
        }
        return out.toString();
    }
}
