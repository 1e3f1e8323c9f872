package dev.neardup.similarity;

import dev.neardup.lsh.BandKeys;
import dev.neardup.lsh.Banding;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * What a band-bucket entry of the dedupe carries to compare its document with the bucket's other
 * members, packed into one byte array (one copy per band bucket). MinHash ({@link #minHash}): the K
 * signature values, each as its lowest {@code valueBytes} bytes (little-endian), after the 32 low
 * bits of each band key (little-endian ints) only where a band's kept bytes are fewer than 32 bits;
 * the estimate is the share of positions whose kept bytes agree, the lowest agreeing band the first
 * whose key bits, or else kept bytes, agree (b-bit minwise hashing, Li and König 2010). SimHash
 * ({@link #simHash}): the sketch's words as little-endian longs (the table fingerprint, then any
 * verification bits), banded by the fingerprint and estimated as {@link Verification.Cosine}
 * estimates in the buckets. Why 1 byte suffices with exact verification: {@code
 * docs/design/dedupe-job.md}.
 *
 * <p>Not thread-safe (the SimHash variant decodes into scratch arrays): one instance per task.
 */
public abstract class MemberSketches {

    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT_LE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** The LSH bands, or permuted-block tables, that key a sketch. */
    final BandKeys keying;

    MemberSketches(BandKeys keying) {
        this.keying = keying;
    }

    /** The bucket keys of a sketch (LSH bands, or permuted-block tables). */
    public long[] bandKeys(long[] sketch) {
        return keying.bandKeys(sketch);
    }

    /** The packed form of a sketch whose bucket keys are {@code keys}. */
    public abstract byte[] pack(long[] sketch, long[] keys);

    public abstract double estimate(byte[] a, byte[] b);

    /** The lowest band (table) in which two packed sketches agree, or -1 when none does. */
    public abstract int firstAgreeingBand(byte[] a, byte[] b);

    /**
     * MinHash signatures of K values keyed by {@code banding}, keeping {@code valueBytes} (1, 2 or
     * 8) bytes of each value.
     */
    public static MemberSketches minHash(Banding banding, int numHashes, int valueBytes) {
        if (valueBytes != 1 && valueBytes != 2 && valueBytes != 8) {
            throw new IllegalArgumentException("valueBytes must be 1, 2 or 8, got " + valueBytes);
        }
        return new PackedMinHash(banding, numHashes, valueBytes);
    }

    /** SimHash fingerprints of {@code words} 64-bit words keyed by {@code tables}. */
    public static MemberSketches simHash(BandKeys tables, int words) {
        return new PackedSimHash(tables, new Verification.Cosine(64 * words, 0));
    }

    /**
     * SimHash sketches keyed by {@code tables} on their fingerprint and estimated by {@code
     * verification} (on the verification bits when it has any).
     */
    public static MemberSketches simHash(BandKeys tables, Verification.Cosine verification) {
        return new PackedSimHash(tables, verification);
    }

    private static final class PackedMinHash extends MemberSketches {
        private final int numHashes;
        private final int valueBytes;
        private final int bands;
        private final int rows;

        /**
         * Whether the packed form starts with the 32 low bits of each band key: with slices of the
         * values, a band that differs in one row only would agree in its slices with probability
         * 2^-8b, so its key bits decide (2^-32); full values tell a band's agreement exactly.
         */
        private final boolean keyBits;

        PackedMinHash(Banding banding, int numHashes, int valueBytes) {
            super(banding);
            this.numHashes = numHashes;
            this.valueBytes = valueBytes;
            this.bands = banding.params().bands();
            this.rows = banding.params().rows();
            this.keyBits = valueBytes < 8;
        }

        @Override
        public byte[] pack(long[] sketch, long[] keys) {
            if (sketch.length != numHashes) {
                throw new IllegalArgumentException(
                        "signature of " + sketch.length + " values, expected " + numHashes);
            }
            int head = keyBits ? 4 * keys.length : 0;
            byte[] out = new byte[head + valueBytes * numHashes];
            for (int j = 0; j < head / 4; j++) {
                INT_LE.set(out, 4 * j, (int) keys[j]);
            }
            for (int i = 0; i < numHashes; i++) {
                int at = head + valueBytes * i;
                switch (valueBytes) {
                    case 8 -> LONG_LE.set(out, at, sketch[i]);
                    case 2 -> SHORT_LE.set(out, at, (short) sketch[i]);
                    default -> out[at] = (byte) sketch[i];
                }
            }
            return out;
        }

        private int head(byte[] packed) {
            return packed.length - valueBytes * numHashes;
        }

        @Override
        public double estimate(byte[] a, byte[] b) {
            int head = head(a);
            int agree = 0;
            for (int i = 0; i < numHashes; i++) {
                if (agree(a, b, head + valueBytes * i)) {
                    agree++;
                }
            }
            return (double) agree / numHashes;
        }

        /** Whether the kept bytes of the value at {@code at} agree. */
        private boolean agree(byte[] a, byte[] b, int at) {
            return switch (valueBytes) {
                case 8 -> (long) LONG_LE.get(a, at) == (long) LONG_LE.get(b, at);
                case 2 -> (short) SHORT_LE.get(a, at) == (short) SHORT_LE.get(b, at);
                default -> a[at] == b[at];
            };
        }

        /**
         * By the band key bits when the sketches carry them; else by the kept bytes of the band's
         * rows (with 8-byte values exactly as {@link Banding#firstAgreeingBand} decides).
         */
        @Override
        public int firstAgreeingBand(byte[] a, byte[] b) {
            if (keyBits) {
                for (int j = 0; j < bands; j++) {
                    if ((int) INT_LE.get(a, 4 * j) == (int) INT_LE.get(b, 4 * j)) {
                        return j;
                    }
                }
                return -1;
            }
            for (int j = 0; j < bands; j++) {
                if (bandAgrees(a, b, j * rows)) {
                    return j;
                }
            }
            return -1;
        }

        private boolean bandAgrees(byte[] a, byte[] b, int from) {
            for (int i = from; i < from + rows; i++) {
                if (!agree(a, b, valueBytes * i)) {
                    return false;
                }
            }
            return true;
        }
    }

    private static final class PackedSimHash extends MemberSketches {
        private final Verification.Cosine verification;
        private final long[] left;
        private final long[] right;

        PackedSimHash(BandKeys tables, Verification.Cosine verification) {
            super(tables);
            this.verification = verification;
            this.left = new long[verification.bits() / 64];
            this.right = new long[verification.bits() / 64];
        }

        /** The keys of the table fingerprint, the sketch's first D bits. */
        @Override
        public long[] bandKeys(long[] sketch) {
            return keying.bandKeys(java.util.Arrays.copyOf(sketch, left.length));
        }

        @Override
        public byte[] pack(long[] sketch, long[] keys) {
            return verification.pack(sketch);
        }

        @Override
        public double estimate(byte[] a, byte[] b) {
            return verification.estimate(a, b).similarity();
        }

        @Override
        public int firstAgreeingBand(byte[] a, byte[] b) {
            for (int i = 0; i < left.length; i++) {
                left[i] = (long) LONG_LE.get(a, 8 * i);
                right[i] = (long) LONG_LE.get(b, 8 * i);
            }
            return keying.firstAgreeingBand(left, right);
        }
    }
}
