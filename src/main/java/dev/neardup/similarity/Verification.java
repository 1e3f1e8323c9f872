package dev.neardup.similarity;

import dev.neardup.io.Verdict;
import dev.neardup.sketch.BbitMinHash;
import dev.neardup.sketch.BottomKContainment;
import dev.neardup.sketch.SimHash;
import java.io.Serializable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.function.IntFunction;

/**
 * How a band bucket keeps and verifies its members, per similarity family: what a member's {@code
 * signature} bytes are ({@link #pack}), the similarity two members' bytes estimate ({@link
 * #estimate}) and whether a pair at that estimate is a match ({@link #accepts}). Each {@link
 * SimilarityMode} has one; the job's operators call it, so their code does not depend on the mode.
 * Immutable and serializable (it travels with the operators).
 */
public interface Verification extends Serializable {

    /**
     * Bytes of a member's packed signature (fixed for given settings: part of the state), or, when
     * its size varies by document ({@link CosineExact}), the most it may have.
     */
    int packedBytes();

    /** The bytes a bucket keeps of a document's sketch (MinHash signature or SimHash words). */
    byte[] pack(long[] sketch);

    /** The estimated similarity of two members from their packed signatures. */
    Estimate estimate(byte[] a, byte[] b);

    /** True when a pair at this estimated similarity is a near-duplicate. */
    boolean accepts(double similarity);

    /** What the packed signature is, for reports: {@code b-bit MinHash signature}. */
    String sketchName();

    /**
     * The Hamming distance behind an estimate of this family, or null when the family has none
     * (Jaccard, containment): reported in alerts and verdicts.
     */
    default Integer hamming(double similarity) {
        return null;
    }

    /**
     * The estimate of exact copies (equal fingerprints), which are not estimated: 1, or for
     * containment 1 both ways.
     */
    default Estimate identical() {
        return Estimate.of(1.0);
    }

    /**
     * The kind of the verdict of a document with {@code n} matches (at least one), whose estimates
     * {@code match} gives: {@link Verdict#DUPLICATE}.
     */
    default String verdict(IntFunction<Estimate> match, int n) {
        return Verdict.DUPLICATE;
    }

    /**
     * Whether a match with estimate {@code e} may be the one a verdict of kind {@code verdict}
     * names as its duplicate (the earliest of those that may): every match.
     */
    default boolean names(String verdict, Estimate e) {
        return true;
    }

    /**
     * Bytes at the end of a packed signature that the buckets keep to screen the candidate pairs
     * they send on to be verified elsewhere ({@link CandidateSite#SAMPLE_STORE}): 0 for none.
     */
    default int screenBytes() {
        return 0;
    }

    /** The screen of a packed signature: its last {@link #screenBytes()} bytes. */
    default byte[] screen(byte[] packed) {
        return java.util.Arrays.copyOfRange(packed, packed.length - screenBytes(), packed.length);
    }

    /**
     * Whether a candidate pair with screens {@code a} and {@code b} may be a match, so that it is
     * sent on to be verified: false only when the pair is, but for a set small chance, below the
     * threshold. Every pair without a screen (empty: from state written before screens) may be.
     */
    default boolean passesScreen(byte[] a, byte[] b) {
        return true;
    }

    /**
     * The threshold cos(pi k / D) of {@code maxHamming} k of {@code bits} D (Charikar 2002), after
     * checking k: from 0 to below D / 2.
     */
    private static double cosineThreshold(int bits, int maxHamming) {
        SimHash.checkBits(bits);
        if (maxHamming < 0 || 2 * maxHamming >= bits) {
            throw new IllegalArgumentException(
                    "maximum Hamming distance must be between 0 and %s for %s bits, got %s"
                            .formatted(bits / 2 - 1, bits, maxHamming));
        }
        return SimHash.cosine(maxHamming, bits);
    }

    /**
     * The Hamming distance of packed little-endian words of {@code a} and {@code b} from {@code
     * from}.
     */
    private static int wordDistance(byte[] a, byte[] b, int from) {
        int h = 0;
        for (int i = from; i < a.length; i += 8) {
            h += Long.bitCount((long) Cosine.LONG_LE.get(a, i) ^ (long) Cosine.LONG_LE.get(b, i));
        }
        return h;
    }

    /**
     * Containment (Broder 1997: c(A, B) = |A ∩ B| / |A|): members keep a bottom-s sample of their
     * shingles ({@link BottomKContainment}, 2 + 4 s bytes) and a pair is a match when the estimated
     * containment of either in the other reaches the threshold. The estimate carries its {@link
     * Estimate.Direction}: MUTUAL (with the smaller of the two) when both reach it, else the larger
     * one's.
     */
    record Containment(int sketchSize, double threshold) implements Verification {
        public Containment {
            BottomKContainment.packedBytes(sketchSize); // checks the size
        }

        @Override
        public int packedBytes() {
            return BottomKContainment.packedBytes(sketchSize);
        }

        @Override
        public byte[] pack(long[] sample) {
            return BottomKContainment.pack(sample, sketchSize);
        }

        @Override
        public Estimate estimate(byte[] a, byte[] b) {
            BottomKContainment.Estimate e = BottomKContainment.containment(a, b);
            boolean aIn = e.aInB() >= threshold;
            boolean bIn = e.bInA() >= threshold;
            if (aIn && bIn) {
                return new Estimate(Math.min(e.aInB(), e.bInA()), Estimate.Direction.MUTUAL);
            }
            if (aIn || (!bIn && e.aInB() >= e.bInA())) {
                return new Estimate(e.aInB(), Estimate.Direction.FIRST_IN_SECOND);
            }
            return new Estimate(e.bInA(), Estimate.Direction.SECOND_IN_FIRST);
        }

        @Override
        public boolean accepts(double similarity) {
            return similarity >= threshold;
        }

        @Override
        public String sketchName() {
            return "bottom-s containment sample";
        }

        @Override
        public Estimate identical() {
            return new Estimate(1.0, Estimate.Direction.MUTUAL);
        }

        /**
         * {@link Verdict#DUPLICATE} when a match is a near-copy (contained both ways), {@link
         * Verdict#CONTAINED} when every match is contained one way only.
         */
        @Override
        public String verdict(IntFunction<Estimate> match, int n) {
            for (int i = 0; i < n; i++) {
                if (match.apply(i).direction() == Estimate.Direction.MUTUAL) {
                    return Verdict.DUPLICATE;
                }
            }
            return Verdict.CONTAINED;
        }

        /**
         * A DUPLICATE names a near-copy, a CONTAINED any match: the verdict's direction agrees with
         * its kind.
         */
        @Override
        public boolean names(String verdict, Estimate e) {
            return !Verdict.DUPLICATE.equals(verdict) || e.direction() == Estimate.Direction.MUTUAL;
        }
    }

    /**
     * Jaccard: members keep the lowest b bits of each of the K MinHash values (b-bit minwise
     * hashing); the estimate (P̂ - 2^-b) / (1 - 2^-b) must reach the threshold.
     */
    record Jaccard(int numHashes, int bits, double threshold) implements Verification {
        public Jaccard {
            BbitMinHash.checkBits(bits);
        }

        @Override
        public int packedBytes() {
            return BbitMinHash.packedBytes(numHashes, bits);
        }

        @Override
        public byte[] pack(long[] signature) {
            return BbitMinHash.pack(signature, bits);
        }

        @Override
        public Estimate estimate(byte[] a, byte[] b) {
            return Estimate.of(BbitMinHash.estimateJaccard(a, b, numHashes, bits));
        }

        @Override
        public boolean accepts(double similarity) {
            return similarity >= threshold;
        }

        @Override
        public String sketchName() {
            return "b-bit MinHash signature";
        }
    }

    /**
     * Cosine: members keep the whole D-bit SimHash fingerprint and, when V &gt; 0, the V Gaussian
     * verification bits after it ((D + V) / 8 bytes, the words as little-endian longs). Without
     * verification bits a pair is a match when the Hamming distance h of the fingerprints is at
     * most k, and its estimated cosine is cos(pi h / D) (Charikar 2002), at least cos(pi k / D).
     * With them, h is the distance of the V bits, the estimate cos(pi h / V), and the threshold the
     * same cos(pi k / D): a match when h is at most the largest K with cos(pi K / V) reaching it (k
     * V / D when D divides k V).
     */
    final class Cosine implements Verification {
        private static final long serialVersionUID = 2L;

        private static final VarHandle LONG_LE =
                MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

        private final int bits;

        private final int verifyBits;

        /** The bits that judge a pair: V, or D without verification bits. */
        private final int judging;

        /** The threshold cos(pi k / D). */
        private final double threshold;

        /** The largest Hamming distance of the judging bits that is a match. */
        private final int maxDistance;

        /** The threshold less a margin far below the gap to the next Hamming distance's cosine. */
        private final double minCosine;

        public Cosine(int bits, int maxHamming) {
            this(bits, maxHamming, 0);
        }

        /**
         * @param bits D, the bits of the table fingerprint
         * @param maxHamming k, which sets the threshold cos(pi k / D)
         * @param verifyBits V, the verification bits after the fingerprint, 0 for none
         */
        public Cosine(int bits, int maxHamming, int verifyBits) {
            this.threshold = cosineThreshold(bits, maxHamming);
            this.bits = bits;
            if (verifyBits != 0) {
                SimHash.checkBits(verifyBits);
            }
            this.verifyBits = verifyBits;
            this.judging = verifyBits == 0 ? bits : verifyBits;
            this.maxDistance =
                    verifyBits == 0 ? maxHamming : SimHash.maxHamming(threshold, verifyBits);
            this.minCosine = threshold - 1e-9;
        }

        /** The largest Hamming distance of the judging bits that is a match. */
        public int maxDistance() {
            return maxDistance;
        }

        /** D, the bits of the table fingerprint. */
        public int bits() {
            return bits;
        }

        /**
         * cos(pi h / judging) for a Hamming distance h of the judging bits; when that equals the
         * threshold cos(pi k / D) but for rounding (k V / D = h), the threshold itself, so that a
         * pair at distance h reaches the threshold in every comparison with it.
         */
        public double cosine(int h) {
            double c = SimHash.cosine(h, judging);
            return Math.abs(c - threshold) < 1e-12 ? threshold : c;
        }

        /** V, the verification bits (0: pairs are judged on the D-bit fingerprint). */
        public int verifyBits() {
            return verifyBits;
        }

        @Override
        public int packedBytes() {
            return (bits + verifyBits) / 8;
        }

        @Override
        public byte[] pack(long[] fingerprint) {
            if (fingerprint.length != (bits + verifyBits) / 64) {
                throw new IllegalArgumentException(
                        "fingerprint has "
                                + fingerprint.length * 64
                                + " bits, expected "
                                + (bits + verifyBits));
            }
            byte[] out = new byte[packedBytes()];
            for (int w = 0; w < fingerprint.length; w++) {
                LONG_LE.set(out, 8 * w, fingerprint[w]);
            }
            return out;
        }

        /** The fingerprint words of packed bytes. */
        public static long[] unpack(byte[] packed) {
            long[] out = new long[packed.length / 8];
            for (int w = 0; w < out.length; w++) {
                out[w] = (long) LONG_LE.get(packed, 8 * w);
            }
            return out;
        }

        /**
         * The Hamming distance of the judging bits of two packed sketches: the V verification bits,
         * or the D-bit fingerprints without them.
         */
        public int distance(byte[] a, byte[] b) {
            if (a.length != packedBytes() || b.length != packedBytes()) {
                throw new IllegalArgumentException(
                        "packed fingerprints must be %s bytes, got %s and %s"
                                .formatted(packedBytes(), a.length, b.length));
            }
            return wordDistance(a, b, verifyBits == 0 ? 0 : bits / 8);
        }

        @Override
        public Estimate estimate(byte[] a, byte[] b) {
            return Estimate.of(cosine(distance(a, b)));
        }

        @Override
        public boolean accepts(double similarity) {
            return similarity >= minCosine;
        }

        @Override
        public String sketchName() {
            return "SimHash fingerprint";
        }

        /** h = judging arccos(s) / pi, exact for s = cos(pi h / judging) (rounded). */
        @Override
        public Integer hamming(double similarity) {
            double c = Math.max(-1, Math.min(1, similarity));
            return (int) Math.round(judging * Math.acos(c) / Math.PI);
        }
    }

    /**
     * Exact cosine: a document's packed signature is its whole term-frequency vector, the
     * sketcher's {@code [f0, n0, f1, n1, ...]} (distinct feature hashes ascending, each with its
     * count), and a pair's estimate is its exact cosine x . y / (|x| |y|), one merge of the two
     * sorted vectors; a match when it reaches the threshold cos(pi k / D). Too large to keep in
     * every bucket of a document: the mode verifies through the sample store, which keeps it once
     * per document.
     *
     * <p>Packed: an int n, the vector's sum of squared counts (a long, of the whole vector), then n
     * features of 12 bytes each (the 8-byte hash and a 4-byte count), little-endian: 12 + 12 n
     * bytes. A document with more than {@link #MAX_FEATURES} distinct features keeps its {@link
     * #MAX_FEATURES} most frequent ones (ties: the lower hashes) with the norm of the whole vector:
     * the cosine of such a document is then a lower bound, short by the dropped features' share of
     * the dot product.
     *
     * <p>With V screen bits, V {@link dev.neardup.sketch.GaussianSimHash} bits of the same vector
     * follow (the sketch's last V / 64 words; packed last, V / 8 bytes): the buckets keep them and
     * send on only the candidates within Hamming distance {@link #screenMaxHamming()} of them,
     * which a pair at the threshold is but for a chance of {@link #SCREEN_MISS} (Charikar 2002);
     * pairs far below the threshold, most candidates of pages that only share common words, stop
     * there.
     */
    final class CosineExact implements Verification {
        private static final long serialVersionUID = 2L;

        /**
         * The chance that the screen stops a pair at the threshold (less above it): small beside
         * the tables' own miss there (about one pair in ten), and with 384 bits it lets through
         * 4.5% of the unrelated pairs at cosine 0.93 (21% with 256).
         */
        public static final double SCREEN_MISS = 1e-4;

        /** The most distinct features a packed vector keeps: 786,444 bytes at most. */
        public static final int MAX_FEATURES = 1 << 16;

        /** Bytes of the header: the count and the sum of squares. */
        static final int HEADER = 12;

        /** Bytes per feature: its hash and its count. */
        public static final int BYTES_PER_FEATURE = 12;

        private static final VarHandle LONG_LE =
                MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

        private static final VarHandle INT_LE =
                MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

        private final double threshold;

        private final int maxFeatures;

        /** V, the screen bits (0: none). */
        private final int screenBits;

        /** The largest Hamming distance of the screen bits that is sent on. */
        private final int screenMaxHamming;

        /**
         * @param bits D, the bits of the table fingerprint
         * @param maxHamming k, which sets the threshold cos(pi k / D)
         */
        public CosineExact(int bits, int maxHamming) {
            this(bits, maxHamming, 0);
        }

        /**
         * @param bits D, the bits of the table fingerprint
         * @param maxHamming k, which sets the threshold cos(pi k / D)
         * @param screenBits V, the Gaussian bits that screen candidates in the buckets (0: none)
         */
        public CosineExact(int bits, int maxHamming, int screenBits) {
            this(bits, maxHamming, screenBits, MAX_FEATURES);
        }

        /** With another limit on the distinct features a packed vector keeps (for tests). */
        CosineExact(int bits, int maxHamming, int screenBits, int maxFeatures) {
            this.threshold = cosineThreshold(bits, maxHamming);
            if (screenBits != 0) {
                SimHash.checkBits(screenBits);
            }
            if (maxFeatures < 1) {
                throw new IllegalArgumentException("maxFeatures must be at least 1");
            }
            this.maxFeatures = maxFeatures;
            this.screenBits = screenBits;
            this.screenMaxHamming = screenMaxHamming(threshold, screenBits);
        }

        /**
         * The largest Hamming distance of {@code screenBits} screen bits at which a pair goes on to
         * be verified, for the threshold {@code threshold}: a pair at the threshold is further
         * apart with probability at most {@link #SCREEN_MISS}. 0 without screen bits.
         */
        public static int screenMaxHamming(double threshold, int screenBits) {
            return screenBits == 0
                    ? 0
                    : SimHash.screenMaxHamming(threshold, screenBits, SCREEN_MISS);
        }

        /** The threshold cos(pi k / D). */
        public double threshold() {
            return threshold;
        }

        /** The largest Hamming distance of the screen bits at which a pair is sent on. */
        public int screenMaxHamming() {
            return screenMaxHamming;
        }

        @Override
        public int packedBytes() {
            return HEADER + BYTES_PER_FEATURE * maxFeatures + screenBytes();
        }

        @Override
        public int screenBytes() {
            return screenBits / 8;
        }

        @Override
        public boolean passesScreen(byte[] a, byte[] b) {
            if (a.length == 0 || b.length == 0) {
                return true;
            }
            return wordDistance(a, b, 0) <= screenMaxHamming;
        }

        /** Bytes of a packed vector of {@code features} distinct features. */
        public static int packedBytes(int features) {
            return HEADER + BYTES_PER_FEATURE * features;
        }

        /** The distinct features of a packed vector. */
        public static int features(byte[] packed) {
            return (int) INT_LE.get(packed, 0);
        }

        /**
         * Packs a term-frequency vector {@code [f0, n0, f1, n1, ...]} (features strictly ascending,
         * counts at least 1), followed by the V / 64 words of the screen bits.
         */
        @Override
        public byte[] pack(long[] sketch) {
            int screenWords = screenBits / 64;
            int vectorLongs = sketch.length - screenWords;
            if (vectorLongs < 0 || vectorLongs % 2 != 0) {
                throw new IllegalArgumentException(
                        ("a term-frequency vector has a count after each feature, followed by %s"
                                        + " words of screen bits; got %s longs")
                                .formatted(screenWords, sketch.length));
            }
            long[] vector = sketch;
            int n = vectorLongs / 2;
            long sumOfSquares = 0;
            for (int i = 0; i < n; i++) {
                long c = vector[2 * i + 1];
                if (c < 1 || c > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("count out of range: " + c);
                }
                if (i > 0 && vector[2 * i] <= vector[2 * i - 2]) {
                    throw new IllegalArgumentException("features must be strictly ascending");
                }
                sumOfSquares += c * c;
            }
            int[] kept = keep(vector, n);
            int m = kept == null ? n : kept.length;
            byte[] out = new byte[packedBytes(m) + screenBytes()];
            INT_LE.set(out, 0, m);
            LONG_LE.set(out, 4, sumOfSquares);
            for (int j = 0; j < m; j++) {
                int i = kept == null ? j : kept[j];
                int at = HEADER + BYTES_PER_FEATURE * j;
                LONG_LE.set(out, at, vector[2 * i]);
                INT_LE.set(out, at + 8, (int) vector[2 * i + 1]);
            }
            for (int w = 0; w < screenWords; w++) {
                LONG_LE.set(out, packedBytes(m) + 8 * w, sketch[vectorLongs + w]);
            }
            return out;
        }

        /**
         * The indexes of the features kept, ascending, when there are more than the limit: the most
         * frequent, ties to the lower hashes; null when all are kept.
         */
        private int[] keep(long[] vector, int n) {
            if (n <= maxFeatures) {
                return null;
            }
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(
                    order,
                    (x, y) -> {
                        int byCount = Long.compare(vector[2 * y + 1], vector[2 * x + 1]);
                        return byCount != 0 ? byCount : Integer.compare(x, y);
                    });
            int[] kept = new int[maxFeatures];
            for (int j = 0; j < maxFeatures; j++) {
                kept[j] = order[j];
            }
            java.util.Arrays.sort(kept);
            return kept;
        }

        /** The term-frequency vector of packed bytes, {@code [f0, n0, ...]} (those kept). */
        public static long[] unpack(byte[] packed) {
            int n = features(packed);
            long[] out = new long[2 * n];
            for (int i = 0; i < n; i++) {
                int at = HEADER + BYTES_PER_FEATURE * i;
                out[2 * i] = (long) LONG_LE.get(packed, at);
                out[2 * i + 1] = (int) INT_LE.get(packed, at + 8);
            }
            return out;
        }

        /**
         * The exact cosine of two packed vectors, at most 1; 0 when either is empty. The dot
         * product is summed in ascending feature order.
         */
        public static double cosine(byte[] a, byte[] b) {
            long sa = (long) LONG_LE.get(a, 4);
            long sb = (long) LONG_LE.get(b, 4);
            if (sa == 0 || sb == 0) {
                return 0;
            }
            int na = HEADER + BYTES_PER_FEATURE * features(a);
            int nb = HEADER + BYTES_PER_FEATURE * features(b);
            double dot = 0;
            int i = HEADER;
            int j = HEADER;
            long fa = i < na ? (long) LONG_LE.get(a, i) : 0;
            long fb = j < nb ? (long) LONG_LE.get(b, j) : 0;
            while (i < na && j < nb) {
                if (fa == fb) {
                    dot += (double) (int) INT_LE.get(a, i + 8) * (int) INT_LE.get(b, j + 8);
                    i += BYTES_PER_FEATURE;
                    j += BYTES_PER_FEATURE;
                    if (i < na) {
                        fa = (long) LONG_LE.get(a, i);
                    }
                    if (j < nb) {
                        fb = (long) LONG_LE.get(b, j);
                    }
                } else if (fa < fb) {
                    i += BYTES_PER_FEATURE;
                    if (i < na) {
                        fa = (long) LONG_LE.get(a, i);
                    }
                } else {
                    j += BYTES_PER_FEATURE;
                    if (j < nb) {
                        fb = (long) LONG_LE.get(b, j);
                    }
                }
            }
            return Math.min(1.0, dot / Math.sqrt((double) sa * (double) sb));
        }

        @Override
        public Estimate estimate(byte[] a, byte[] b) {
            return Estimate.of(cosine(a, b));
        }

        @Override
        public boolean accepts(double similarity) {
            return similarity >= threshold;
        }

        @Override
        public String sketchName() {
            return "term-frequency vector";
        }
    }
}
