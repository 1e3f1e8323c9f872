package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.dynatrace.hash4j.hashing.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link BbitMinHash}: the packed layout (stored state), the agreement count against a naive
 * per-position count, the estimator against sets of known Jaccard similarity (Li and König 2010),
 * and the fingerprint (XXH3-64 of the little-endian values).
 */
class BbitMinHashTest {

    private static final int[] BITS = {1, 2, 4, 8, 16};

    private static final int[] LENGTHS = {
        1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200, 257
    };

    /** Five values with different low bits and noisy high bits. */
    private static final long[] FIVE = {
        0x0123_4567_89AB_CDEFL, -1L, 0L, 0x8000_0000_0000_0005L, 0x0000_0000_DEAD_BEEFL
    };

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    // ---- pack: the bit layout ----

    @Test
    void packGoldenOneBit() {
        // Low bits 1 1 0 1 1: bits 0,1,3,4 of the first byte; bits 5..7 are padding.
        assertThat(BbitMinHash.pack(FIVE, 1)).containsExactly(bytes(0b0001_1011));
        // Eleven values: low bits 1,0,1,1,0,0,1,0 | 1,1,1 -> 0x4D, 0x07 (5 padding bits of 0).
        long[] eleven = {
            3L,
            2L,
            -1L,
            Long.MAX_VALUE,
            Long.MIN_VALUE,
            0x10L,
            0x1234_567F_FFFF_FFFFL,
            6L,
            5L,
            0xABCDL,
            0x8000_0000_0000_0001L
        };
        assertThat(BbitMinHash.pack(eleven, 1)).containsExactly(bytes(0x4D, 0x07));
    }

    @Test
    void packGoldenTwoBits() {
        // Low 2 bits 3,3,0,1 | 3: 3 | 3<<2 | 0<<4 | 1<<6 = 0x4F, then 0x03 (6 padding bits).
        assertThat(BbitMinHash.pack(FIVE, 2)).containsExactly(bytes(0x4F, 0x03));
    }

    @Test
    void packGoldenFourBits() {
        // Nibbles F,F | 0,5 | F: the first value in the low nibble.
        assertThat(BbitMinHash.pack(FIVE, 4)).containsExactly(bytes(0xFF, 0x50, 0x0F));
    }

    @Test
    void packGoldenEightBits() {
        assertThat(BbitMinHash.pack(FIVE, 8)).containsExactly(bytes(0xEF, 0xFF, 0x00, 0x05, 0xEF));
    }

    @Test
    void packGoldenSixteenBits() {
        // Each value's low 16 bits, little-endian.
        assertThat(BbitMinHash.pack(FIVE, 16))
                .containsExactly(bytes(0xEF, 0xCD, 0xFF, 0xFF, 0x00, 0x00, 0x05, 0x00, 0xEF, 0xBE));
    }

    @Test
    void packOfNothingIsEmpty() {
        for (int b : BITS) {
            assertThat(BbitMinHash.pack(new long[0], b)).isEmpty();
        }
    }

    @Test
    void packMatchesTheBitStringDefinitionOnRandomSignatures() {
        SplittableRandom random = new SplittableRandom(20_100_401L);
        for (int b : BITS) {
            for (int k : LENGTHS) {
                long[] sig = randomSignature(random, k);
                byte[] packed = BbitMinHash.pack(sig, b);
                assertThat(packed).hasSize((k * b + 7) / 8);
                for (int bit = 0; bit < packed.length * 8; bit++) {
                    int actual = (packed[bit >>> 3] >>> (bit & 7)) & 1;
                    int expected =
                            bit < k * b ? (int) ((sig[bit / b] >>> (bit % b)) & 1) : 0; // padding
                    assertThat(actual).as("b=%d K=%d bit %d", b, k, bit).isEqualTo(expected);
                }
            }
        }
    }

    @Property(tries = 200, seed = "4242")
    void packIgnoresEverythingAboveTheLowBits(
            @ForAll @Size(min = 1, max = 70) long[] signature,
            @ForAll @IntRange(min = 0, max = 4) int bitsIndex,
            @ForAll long noise) {
        int b = BITS[bitsIndex];
        long[] noisy = signature.clone();
        for (int i = 0; i < noisy.length; i++) {
            noisy[i] ^= (noise + i * 0x9E37_79B9_7F4A_7C15L) << b; // only bits >= b change
        }
        assertThat(BbitMinHash.pack(noisy, b)).isEqualTo(BbitMinHash.pack(signature, b));
    }

    @ParameterizedTest
    @CsvSource({
        "128, 2, 32",
        "5, 1, 1",
        "3, 16, 6",
        "128, 1, 16",
        "128, 4, 64",
        "128, 8, 128",
        "128, 16, 256",
        "0, 2, 0",
        "1, 1, 1",
        "8, 1, 1",
        "9, 1, 2",
        "7, 2, 2",
        "3, 4, 2",
        "100, 2, 25",
        "65, 4, 33"
    })
    void packedBytes(int k, int b, int expected) {
        assertThat(BbitMinHash.packedBytes(k, b)).isEqualTo(expected);
        assertThat(BbitMinHash.pack(new long[k], b)).hasSize(expected);
    }

    // ---- checkBits ----

    @Test
    void checkBitsAcceptsTheSupportedWidths() {
        for (int b : BITS) {
            assertThat(BbitMinHash.checkBits(b)).isEqualTo(b);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 0, -1, 5, 32, 64})
    void checkBitsRejectsOtherWidthsNamingTheAllowedOnes(int bits) {
        assertThatThrownBy(() -> BbitMinHash.checkBits(bits))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1, 2, 4, 8 or 16")
                .hasMessageContaining("got " + bits);
        assertThatThrownBy(() -> BbitMinHash.packedBytes(128, bits))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BbitMinHash.pack(new long[8], bits))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BbitMinHash.chanceAgreement(bits))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // ---- agreements ----

    @Test
    void agreementsEqualTheNaiveCountForEveryWidthAndLength() {
        SplittableRandom random = new SplittableRandom(7_2010L);
        for (int b : BITS) {
            long mask = (1L << b) - 1;
            for (int k : LENGTHS) {
                for (int trial = 0; trial < 40; trial++) {
                    long[] x = randomSignature(random, k);
                    long[] y = perturb(random, x, b);
                    int naive = 0;
                    for (int i = 0; i < k; i++) {
                        if ((x[i] & mask) == (y[i] & mask)) {
                            naive++;
                        }
                    }
                    byte[] px = BbitMinHash.pack(x, b);
                    byte[] py = BbitMinHash.pack(y, b);
                    assertThat(BbitMinHash.agreements(px, py, k, b))
                            .as("b=%d K=%d trial %d", b, k, trial)
                            .isEqualTo(naive);
                    assertThat(BbitMinHash.agreements(py, px, k, b)).isEqualTo(naive);
                    assertThat(BbitMinHash.agreements(px, px, k, b)).isEqualTo(k);
                }
            }
        }
    }

    @Test
    void agreementsOfTwoValuesDifferingInEverySingleLowBit() {
        // One differing position at a time, one differing bit at a time: each bit of a group
        // counts.
        for (int b : BITS) {
            for (int k : new int[] {1, 3, 9, 64, 65}) {
                long[] x = new long[k];
                for (int i = 0; i < k; i++) {
                    for (int bit = 0; bit < b; bit++) {
                        long[] y = x.clone();
                        y[i] ^= 1L << bit;
                        assertThat(
                                        BbitMinHash.agreements(
                                                BbitMinHash.pack(x, b),
                                                BbitMinHash.pack(y, b),
                                                k,
                                                b))
                                .as("b=%d K=%d position %d bit %d", b, k, i, bit)
                                .isEqualTo(k - 1);
                    }
                }
            }
        }
    }

    @Test
    void agreementsOfSignaturesDifferingInAllLowBitsEverywhere() {
        for (int b : BITS) {
            long mask = (1L << b) - 1;
            for (int k : LENGTHS) {
                long[] x = new long[k];
                long[] y = new long[k];
                java.util.Arrays.fill(y, mask); // every low bit differs
                assertThat(
                                BbitMinHash.agreements(
                                        BbitMinHash.pack(x, b), BbitMinHash.pack(y, b), k, b))
                        .as("b=%d K=%d", b, k)
                        .isZero();
            }
        }
    }

    @Test
    void agreementsRejectPackedSignaturesOfTheWrongLength() {
        byte[] ok = new byte[32]; // K = 128, b = 2
        assertThatThrownBy(() -> BbitMinHash.agreements(ok, new byte[31], 128, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("32 and 31 bytes")
                .hasMessageContaining("expected 32")
                .hasMessageContaining("K = 128");
        assertThatThrownBy(() -> BbitMinHash.agreements(new byte[33], ok, 128, 2))
                .isInstanceOf(IllegalArgumentException.class);
        // Equal lengths, but not those of K values at b bits.
        assertThatThrownBy(() -> BbitMinHash.agreements(ok, ok.clone(), 128, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 64");
        assertThatThrownBy(() -> BbitMinHash.agreements(ok, ok.clone(), 100, 2))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BbitMinHash.agreements(ok, ok.clone(), 128, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1, 2, 4, 8 or 16");
    }

    // ---- estimateJaccard and standardError ----

    @Test
    void identicalSignaturesEstimateExactlyOne() {
        SplittableRandom random = new SplittableRandom(11L);
        for (int b : BITS) {
            for (int k : LENGTHS) {
                byte[] p = BbitMinHash.pack(randomSignature(random, k), b);
                assertThat(BbitMinHash.estimateJaccard(p, p.clone(), k, b))
                        .as("b=%d K=%d", b, k)
                        .isEqualTo(1.0);
            }
        }
    }

    @Test
    void theEstimateCorrectsForChanceAndIsClampedToTheUnitInterval() {
        // b = 2, C = 1/4: 80 of 128 agree -> P = 0.625 -> (0.625 - 0.25) / 0.75 = 0.5.
        assertThat(BbitMinHash.estimateJaccard(80, 128, 2)).isEqualTo(0.5);
        // b = 1, C = 1/2: 96 of 128 -> (0.75 - 0.5) / 0.5 = 0.5.
        assertThat(BbitMinHash.estimateJaccard(96, 128, 1)).isEqualTo(0.5);
        // b = 16: C = 2^-16.
        double c16 = Math.scalb(1.0, -16);
        assertThat(BbitMinHash.estimateJaccard(64, 128, 16))
                .isCloseTo((0.5 - c16) / (1 - c16), within(1e-15));
        // Fewer agreements than chance: clamped to 0, never negative.
        for (int b : BITS) {
            assertThat(BbitMinHash.estimateJaccard(0, 128, b)).isZero();
        }
        assertThat(BbitMinHash.estimateJaccard(20, 128, 2)).isZero(); // 0.156 < C
        assertThat(BbitMinHash.estimateJaccard(32, 128, 2)).isZero(); // exactly C
        assertThat(BbitMinHash.estimateJaccard(33, 128, 2)).isGreaterThan(0.0);
        // More agreements than positions cannot happen, but would still give at most 1.
        assertThat(BbitMinHash.estimateJaccard(130, 128, 2)).isEqualTo(1.0);
        assertThat(BbitMinHash.estimateJaccard(128, 128, 2)).isEqualTo(1.0);
        // Unrelated signatures (J = 0): the clamped estimate stays in [0, 1] and is small.
        SplittableRandom random = new SplittableRandom(99L);
        for (int b : BITS) {
            double sum = 0;
            for (int t = 0; t < 200; t++) {
                double e =
                        BbitMinHash.estimateJaccard(
                                BbitMinHash.pack(randomSignature(random, 128), b),
                                BbitMinHash.pack(randomSignature(random, 128), b),
                                128,
                                b);
                assertThat(e).isBetween(0.0, 1.0);
                sum += e;
            }
            assertThat(sum / 200).as("b=%d", b).isLessThan(0.1);
        }
    }

    @Test
    void chanceAgreementIsTwoToTheMinusB() {
        assertThat(BbitMinHash.chanceAgreement(1)).isEqualTo(0.5);
        assertThat(BbitMinHash.chanceAgreement(2)).isEqualTo(0.25);
        assertThat(BbitMinHash.chanceAgreement(4)).isEqualTo(0.0625);
        assertThat(BbitMinHash.chanceAgreement(8)).isEqualTo(1.0 / 256);
        assertThat(BbitMinHash.chanceAgreement(16)).isEqualTo(1.0 / 65536);
    }

    @Test
    void standardErrorMatchesTheNumbersOfTheJavadoc() {
        // K = 128, J = 0.9: 0.031 at b = 2, 0.027 at b = 4 (and 0.0265 for full values).
        assertThat(BbitMinHash.standardError(0.9, 128, 2)).isCloseTo(0.031, within(0.0005));
        assertThat(BbitMinHash.standardError(0.9, 128, 4)).isCloseTo(0.0275, within(0.0005));
        assertThat(Math.sqrt(0.9 * 0.1 / 128)).isCloseTo(0.0265, within(0.0001));
        // sqrt(P (1 - P) / K) / (1 - C) with P = C + (1 - C) J.
        assertThat(BbitMinHash.standardError(0.5, 100, 1))
                .isCloseTo(Math.sqrt(0.75 * 0.25 / 100) / 0.5, within(1e-15));
        for (int b : BITS) {
            assertThat(BbitMinHash.standardError(1.0, 128, b)).isZero();
            // Fewer bits, more noise; more bits tend to the full-value error.
            assertThat(BbitMinHash.standardError(0.8, 128, b))
                    .isGreaterThan(Math.sqrt(0.8 * 0.2 / 128));
        }
        assertThat(BbitMinHash.standardError(0.8, 128, 16))
                .isCloseTo(Math.sqrt(0.8 * 0.2 / 128), within(1e-5));
        assertThat(BbitMinHash.standardError(0.8, 128, 1))
                .isGreaterThan(BbitMinHash.standardError(0.8, 128, 2));
        assertThat(BbitMinHash.standardError(0.8, 128, 2))
                .isGreaterThan(BbitMinHash.standardError(0.8, 128, 4));
    }

    /**
     * The estimator on real signatures: pairs of random shingle sets of exactly known Jaccard
     * similarity, a new pair and a new MinHash seed per trial, OPH signatures at K = 128. The mean
     * error is within 3 standard errors of the mean of 0, and the root-mean-square error within a
     * factor 1.3 of {@link BbitMinHash#standardError}.
     */
    @ParameterizedTest
    @ValueSource(doubles = {0.5, 0.8, 0.9})
    void theEstimateIsUnbiasedWithThePredictedErrorOnSetsOfKnownSimilarity(double jaccard) {
        int k = 128;
        int union = 1000;
        int shared = (int) Math.round(jaccard * union);
        int onlyA = (union - shared) / 2;
        int onlyB = union - shared - onlyA;
        int[] widths = {1, 2, 4, 16};
        int trials = 300;
        double[] sum = new double[widths.length];
        double[] sumSquares = new double[widths.length];
        SplittableRandom random = new SplittableRandom(0xB1B1_7000L + (long) (jaccard * 100));
        for (int t = 0; t < trials; t++) {
            Set<Long> distinct = new HashSet<>();
            while (distinct.size() < union) {
                distinct.add(random.nextLong());
            }
            long[] all = distinct.stream().mapToLong(Long::longValue).toArray();
            long[] a = new long[shared + onlyA];
            long[] b = new long[shared + onlyB];
            System.arraycopy(all, 0, a, 0, shared + onlyA);
            System.arraycopy(all, 0, b, 0, shared);
            System.arraycopy(all, shared + onlyA, b, shared, onlyB);
            double exact = Similarity.jaccard(ShingleSet.of(a), ShingleSet.of(b));
            assertThat(exact).isEqualTo(jaccard);

            MinHash minHash = MinHash.create(MinHashAlgorithm.OPH, k, random.nextLong());
            long[] sa = minHash.signature(a);
            long[] sb = minHash.signature(b);
            for (int w = 0; w < widths.length; w++) {
                double estimate =
                        BbitMinHash.estimateJaccard(
                                BbitMinHash.pack(sa, widths[w]),
                                BbitMinHash.pack(sb, widths[w]),
                                k,
                                widths[w]);
                double error = estimate - exact;
                sum[w] += error;
                sumSquares[w] += error * error;
            }
        }
        for (int w = 0; w < widths.length; w++) {
            int b = widths[w];
            double mean = sum[w] / trials;
            double rmse = Math.sqrt(sumSquares[w] / trials);
            double sd = Math.sqrt(Math.max(0, sumSquares[w] / trials - mean * mean));
            double predicted = BbitMinHash.standardError(jaccard, k, b);
            assertThat(Math.abs(mean))
                    .as("bias at J=%.1f b=%d (sd %.4f)", jaccard, b, sd)
                    .isLessThanOrEqualTo(3 * sd / Math.sqrt(trials));
            assertThat(rmse)
                    .as("RMSE at J=%.1f b=%d, predicted %.4f", jaccard, b, predicted)
                    .isBetween(predicted / 1.3, predicted * 1.3);
        }
    }

    // ---- fingerprint ----

    @Test
    void fingerprintIsXxh3OfTheLittleEndianValues() {
        SplittableRandom random = new SplittableRandom(3L);
        for (int k : LENGTHS) {
            long[] sig = randomSignature(random, k);
            ByteBuffer buffer = ByteBuffer.allocate(8 * k).order(ByteOrder.LITTLE_ENDIAN);
            for (long v : sig) {
                buffer.putLong(v);
            }
            assertThat(BbitMinHash.fingerprint(sig))
                    .as("K=%d", k)
                    .isEqualTo(Hashing.xxh3_64().hashBytesToLong(buffer.array()))
                    .isEqualTo(Hashing.xxh3_64(0L).hashBytesToLong(buffer.array()));
        }
        // Manually laid out: 1 and 0x0102030405060708 as little-endian bytes.
        byte[] manual = {1, 0, 0, 0, 0, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1};
        assertThat(BbitMinHash.fingerprint(new long[] {1L, 0x0102_0304_0506_0708L}))
                .isEqualTo(Hashing.xxh3_64().hashBytesToLong(manual));
        // The reference XXH3-64 of no input with seed 0 (xxHash's test vectors).
        assertThat(BbitMinHash.fingerprint(new long[0])).isEqualTo(0x2D06_8005_38D3_94C2L);
    }

    @Test
    void equalSignaturesHaveEqualFingerprintsAndOneDifferingValueChangesIt() {
        SplittableRandom random = new SplittableRandom(5L);
        for (int k : LENGTHS) {
            long[] sig = randomSignature(random, k);
            long fingerprint = BbitMinHash.fingerprint(sig);
            assertThat(BbitMinHash.fingerprint(sig.clone())).isEqualTo(fingerprint);
            for (int i = 0; i < k; i++) {
                long[] other = sig.clone();
                other[i] ^= 1L << random.nextInt(64);
                assertThat(BbitMinHash.fingerprint(other))
                        .as("K=%d position %d", k, i)
                        .isNotEqualTo(fingerprint);
            }
            // The order of the values matters, not just the multiset.
            if (k >= 2 && sig[0] != sig[1]) {
                long[] swapped = sig.clone();
                swapped[0] = sig[1];
                swapped[1] = sig[0];
                assertThat(BbitMinHash.fingerprint(swapped)).isNotEqualTo(fingerprint);
            }
        }
        // Signatures that pack equally (same low bits) still have different fingerprints.
        long[] x = {0x100L, 0x200L};
        long[] y = {0x300L, 0x200L};
        assertThat(BbitMinHash.pack(x, 8)).isEqualTo(BbitMinHash.pack(y, 8));
        assertThat(BbitMinHash.fingerprint(x)).isNotEqualTo(BbitMinHash.fingerprint(y));
    }

    // ---- helpers ----

    private static long[] randomSignature(SplittableRandom random, int k) {
        long[] sig = new long[k];
        for (int i = 0; i < k; i++) {
            sig[i] = random.nextLong();
        }
        return sig;
    }

    /**
     * A copy of {@code x} where each position is kept, changed only above the low b bits, changed
     * in exactly one low bit, or replaced at random, so every kind of (dis)agreement occurs.
     */
    private static long[] perturb(SplittableRandom random, long[] x, int b) {
        long[] y = x.clone();
        for (int i = 0; i < y.length; i++) {
            switch (random.nextInt(4)) {
                case 0:
                    break;
                case 1:
                    y[i] ^= random.nextLong() << b; // bits >= b only: still agrees
                    break;
                case 2:
                    y[i] ^= 1L << random.nextInt(b);
                    break;
                default:
                    y[i] = random.nextLong();
                    break;
            }
        }
        return y;
    }
}
