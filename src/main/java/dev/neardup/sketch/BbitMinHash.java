package dev.neardup.sketch;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * b-bit minwise hashing (Li and König, "b-Bit Minwise Hashing", WWW 2010): a MinHash signature
 * stored as only the lowest b bits of each of its K values, so that a band bucket can keep, for
 * every member, what it needs to verify a candidate pair on the spot (K b / 8 bytes: 32 bytes at K
 * = 128 and b = 2, instead of 1,024 for the full signature).
 *
 * <p>A position's b bits agree with probability P = C + (1 - C) J, C = 2^-b, so Ĵ = (P̂ - C) / (1 -
 * C) is unbiased (derivation and figures: docs/design/minhash.md).
 *
 * <p>Contract (packed signatures are stored state): position i occupies bits {@code [i b, (i + 1)
 * b)} of the little-endian bit string of the returned bytes; unused high bits of the last byte are
 * 0. b is 1, 2, 4, 8 or 16. {@link #fingerprint} is XXH3-64 (hash4j, seed 0) of the K values as
 * little-endian longs. Pure functions; thread-safe.
 */
public final class BbitMinHash {

    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final Hasher64 FINGERPRINT = Hashing.xxh3_64();

    private BbitMinHash() {}

    /** Checks b (a power of two up to 16), with a message a user can act on. */
    public static int checkBits(int bits) {
        if (bits > 0 && bits <= 16 && Integer.bitCount(bits) == 1) {
            return bits;
        }
        throw new IllegalArgumentException(
                "bits per stored MinHash value must be 1, 2, 4, 8 or 16, got " + bits);
    }

    /** Bytes of a packed signature of K values at b bits each. */
    public static int packedBytes(int numHashes, int bits) {
        return (numHashes * checkBits(bits) + 7) / 8;
    }

    /** The lowest {@code bits} bits of each value of {@code signature}, packed. */
    public static byte[] pack(long[] signature, int bits) {
        byte[] out = new byte[packedBytes(signature.length, bits)];
        long mask = (1L << bits) - 1;
        for (int i = 0; i < signature.length; i++) {
            long v = signature[i] & mask;
            int bit = i * bits;
            if (bits <= 8) {
                out[bit >>> 3] |= (byte) (v << (bit & 7));
            } else {
                out[bit >>> 3] = (byte) v;
                out[(bit >>> 3) + 1] = (byte) (v >>> 8);
            }
        }
        return out;
    }

    /**
     * Number of positions whose b bits agree in two packed signatures of K values.
     *
     * @throws IllegalArgumentException when the two are not both K values at b bits
     */
    public static int agreements(byte[] a, byte[] b, int numHashes, int bits) {
        int n = packedBytes(numHashes, bits);
        if (a.length != n || b.length != n) {
            throw new IllegalArgumentException(
                    "packed signatures of %s and %s bytes, expected %s (K = %s, b = %s)"
                            .formatted(a.length, b.length, n, numHashes, bits));
        }
        // The lowest bit of each b-bit group set: 0x...0101 = (2^64 - 1) / (2^b - 1).
        long groupMask = Long.divideUnsigned(-1L, (1L << bits) - 1);
        int differing = 0;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long x = (long) LONG_LE.get(a, i) ^ (long) LONG_LE.get(b, i);
            differing += Long.bitCount(fold(x, bits) & groupMask);
        }
        if (i < n) {
            // The last n - i < 8 bytes as one zero-padded long, so that a 16-bit group is folded
            // whole (byte by byte, a group differing in both its bytes would count twice).
            long x = 0;
            for (int j = 0; i + j < n; j++) {
                x |= ((a[i + j] ^ b[i + j]) & 0xFFL) << (8 * j);
            }
            differing += Long.bitCount(fold(x, bits) & groupMask);
        }
        return numHashes - differing;
    }

    /** Ors every bit of each b-bit group into the group's lowest bit. */
    private static long fold(long x, int bits) {
        for (int s = 1; s < bits; s <<= 1) {
            x |= x >>> s;
        }
        return x;
    }

    /** C = 2^-b, the probability that the b bits of two different values agree. */
    public static double chanceAgreement(int bits) {
        return Math.scalb(1.0, -checkBits(bits));
    }

    /** Ĵ = (P̂ - C) / (1 - C) from the number of agreeing positions, clamped to [0, 1]. */
    public static double estimateJaccard(int agreements, int numHashes, int bits) {
        double c = chanceAgreement(bits);
        double p = (double) agreements / numHashes;
        return Math.min(1.0, Math.max(0.0, (p - c) / (1 - c)));
    }

    /** Estimated Jaccard similarity of two packed signatures of K values at b bits. */
    public static double estimateJaccard(byte[] a, byte[] b, int numHashes, int bits) {
        return estimateJaccard(agreements(a, b, numHashes, bits), numHashes, bits);
    }

    /** The standard error of the estimate at Jaccard similarity J: sqrt(P(1-P)/K)/(1-C). */
    public static double standardError(double jaccard, int numHashes, int bits) {
        double c = chanceAgreement(bits);
        double p = c + (1 - c) * jaccard;
        return Math.sqrt(p * (1 - p) / numHashes) / (1 - c);
    }

    /**
     * A 64-bit digest of the full signature: two documents with equal fingerprints have (barring a
     * 2^-64 coincidence) equal signatures, hence equal band keys, equal packed signatures and an
     * estimated similarity of exactly 1. The band buckets keep one member per fingerprint.
     */
    public static long fingerprint(long[] signature) {
        return FINGERPRINT.hashStream().putLongs(signature).getAsLong();
    }
}
