package dev.neardup.sketch;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What {@link MinSSketch} and {@link ModMSketch} share (Broder 1997): the permutation π of the
 * shingle-hash space, sets of permuted values as ascending arrays in <em>unsigned</em> order, their
 * union and intersection, and the byte format (sorted deltas as unsigned LEB128 varints).
 *
 * <p>π(x) = {@link Mix64#fmix64}(x XOR {@link Mix64#splitMix64}(seed, 0)), read as an unsigned
 * 64-bit integer in [0, 2^64): a bijection of the 64-bit space chosen by the seed, standing in for
 * Broder's "permutation π over U chosen uniformly at random".
 */
abstract class SampledHashes {

    /** "MIN_s" or "MOD_m". */
    private final String kind;

    /** s or m. */
    private final long parameter;

    final long seed;
    final long[] values;

    SampledHashes(String kind, long parameter, long seed, long[] values) {
        this.kind = kind;
        this.parameter = parameter;
        this.seed = seed;
        this.values = values;
    }

    public long seed() {
        return seed;
    }

    /** Number of values held. */
    public int count() {
        return values.length;
    }

    public boolean isEmpty() {
        return values.length == 0;
    }

    /** The values, ascending in unsigned order (a copy). */
    public long[] values() {
        return values.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o != null
                && o.getClass() == getClass()
                && parameter == ((SampledHashes) o).parameter
                && seed == ((SampledHashes) o).seed
                && Arrays.equals(values, ((SampledHashes) o).values);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(parameter) + Long.hashCode(seed)) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        String name = kind.substring(0, 4) + parameter;
        return name + " sketch of " + values.length + " values (seed " + seed + ")";
    }

    /** Refuses to compare or merge with a sketch of another parameter or seed. */
    void checkCompatible(SampledHashes other, String hint) {
        if (parameter != other.parameter || seed != other.seed) {
            String a = kind.charAt(4) + " = " + parameter + ", seed = " + seed;
            String b = kind.charAt(4) + " = " + other.parameter + ", seed = " + other.seed;
            throw new IllegalArgumentException(
                    kind
                            + " sketches with different parameters cannot be compared or merged: "
                            + a
                            + " and "
                            + b
                            + hint);
        }
    }

    /** The word π XORs into a shingle hash before mixing: {@code splitMix64(seed, 0)}. */
    static long permutationKey(long seed) {
        return Mix64.splitMix64(seed, 0);
    }

    /** π(x) for a precomputed {@link #permutationKey}. */
    static long permute(long shingleHash, long key) {
        return Mix64.fmix64(shingleHash ^ key);
    }

    /**
     * Sorts {@code values[0, length)} in unsigned order and removes repeats; returns the new
     * length.
     */
    static int sortDistinctUnsigned(long[] values, int length) {
        for (int i = 0; i < length; i++) {
            values[i] ^= Long.MIN_VALUE; // unsigned order is the signed order of the flipped values
        }
        Arrays.sort(values, 0, length);
        int n = distinct(values, length);
        for (int i = 0; i < n; i++) {
            values[i] ^= Long.MIN_VALUE;
        }
        return n;
    }

    /**
     * Removes the repeats of the sorted {@code values[0, length)} in place; returns the new length.
     */
    static int distinct(long[] values, int length) {
        int n = 0;
        for (int i = 0; i < length; i++) {
            if (n == 0 || values[i] != values[n - 1]) {
                values[n++] = values[i];
            }
        }
        return n;
    }

    /** The union of two ascending (unsigned) distinct arrays, ascending, at most {@code limit}. */
    static long[] union(long[] a, long[] b, int limit) {
        long[] out = new long[(int) Math.min(limit, (long) a.length + b.length)];
        int i = 0;
        int j = 0;
        int n = 0;
        while (n < out.length && (i < a.length || j < b.length)) {
            int c = i == a.length ? 1 : j == b.length ? -1 : Long.compareUnsigned(a[i], b[j]);
            out[n++] = c <= 0 ? a[i] : b[j];
            if (c <= 0) {
                i++;
            }
            if (c >= 0) {
                j++;
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** Bytes of the fixed header: the kind byte and the 8-byte little-endian seed. */
    static final int HEADER_BYTES = 9;

    /**
     * Encodes {@code kind}, the seed (8 bytes, little-endian), the parameter and the count as
     * varints, then the values as varints of {@code v[0] / unit} and {@code (v[i] - v[i-1]) /
     * unit}.
     */
    static byte[] encode(int kind, long seed, long parameter, long[] values, long unit) {
        byte[] out = new byte[HEADER_BYTES + 10 * (values.length + 2)];
        out[0] = (byte) kind;
        ByteBuffer.wrap(out, 1, 8).order(ByteOrder.LITTLE_ENDIAN).putLong(seed);
        int at = HEADER_BYTES;
        at = putVarint(out, at, parameter);
        at = putVarint(out, at, values.length);
        long previous = 0;
        for (long v : values) {
            at = putVarint(out, at, Long.divideUnsigned(v - previous, unit));
            previous = v;
        }
        return Arrays.copyOf(out, at);
    }

    /** Unsigned LEB128: 7 bits a byte, low groups first, high bit set on all but the last byte. */
    static int putVarint(byte[] out, int at, long value) {
        while ((value & ~0x7FL) != 0) {
            out[at++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out[at++] = (byte) value;
        return at;
    }

    /** Reads what {@link #encode} wrote, checking every field; errors name the sketch. */
    static final class Reader {
        private final byte[] bytes;
        private final String what;
        private int at;

        Reader(byte[] bytes, int expectedKind, String what) {
            this.bytes = bytes;
            this.what = what;
            if (bytes.length < HEADER_BYTES) {
                throw malformed("too short (" + bytes.length + " bytes)");
            }
            if (bytes[0] != expectedKind) {
                throw malformed(
                        "starts with kind byte %s, expected %s"
                                .formatted(bytes[0] & 0xFF, expectedKind));
            }
            this.at = HEADER_BYTES;
        }

        long seed() {
            return ByteBuffer.wrap(bytes, 1, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        }

        long varint() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (at >= bytes.length) {
                    throw malformed("ends inside a varint");
                }
                byte b = bytes[at++];
                if (shift == 63 && (b & 0xFE) != 0) {
                    throw malformed("has a varint beyond 64 bits");
                }
                value |= (b & 0x7FL) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw malformed("has a varint beyond 64 bits");
        }

        /**
         * Reads {@code count} values written with the given unit: strictly ascending (unsigned),
         * each a multiple of the unit below 2^64.
         */
        long[] values(int count, long unit) {
            if (count < 0 || count > bytes.length - at) {
                throw malformed("claims " + count + " values in " + (bytes.length - at) + " bytes");
            }
            long[] values = new long[count];
            long max = Long.divideUnsigned(-1L, unit);
            long previous = 0;
            for (int i = 0; i < count; i++) {
                long q = varint();
                if (Long.compareUnsigned(q, max) > 0) {
                    throw malformed("has a value beyond 2^64");
                }
                if (i > 0 && q == 0) {
                    throw malformed("repeats a value (values must be strictly ascending)");
                }
                long v = previous + q * unit;
                if (Long.compareUnsigned(v, previous) < 0) {
                    throw malformed("has a value beyond 2^64");
                }
                values[i] = v;
                previous = v;
            }
            return values;
        }

        void end() {
            if (at != bytes.length) {
                throw malformed("has " + (bytes.length - at) + " trailing bytes");
            }
        }

        IllegalArgumentException malformed(String problem) {
            return new IllegalArgumentException("malformed " + what + " bytes: " + problem);
        }
    }
}
