package dev.neardup.lsh;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Cuts a MinHash signature into b bands of r rows and hashes each band to a 64-bit bucket key
 * (Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, 2014, ch. 3: one hash per band),
 * with one key space shared by all bands (the band index is part of the key, so equal rows in
 * different bands never collide).
 *
 * <p>Contract (band keys are the keys of the job's stored state; golden-vector tests pin them):
 * band {@code j} (0-based) covers signature positions {@code [j r, (j + 1) r)}; its key is XXH3-64
 * with seed {@code seed} (hash4j) over the 8 (r + 1) little-endian bytes of the longs {@code (j,
 * sig[j r], ..., sig[j r + r - 1])}. Positions past b r are not used. Immutable and thread-safe.
 */
public final class Banding implements BandKeys {

    /** Default band-key seed. Part of stored state: never change it. */
    public static final long DEFAULT_SEED = 0x62616E64_6B657931L; // "bandkey1"

    static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final LshParams params;
    private final long seed;
    private final Hasher64 hash;

    public Banding(LshParams params, long seed) {
        this.params = Objects.requireNonNull(params, "params");
        this.seed = seed;
        this.hash = Hashing.xxh3_64(seed);
    }

    public Banding(LshParams params) {
        this(params, DEFAULT_SEED);
    }

    public LshParams params() {
        return params;
    }

    public long seed() {
        return seed;
    }

    /**
     * The b band keys of a signature, in band order.
     *
     * @throws IllegalArgumentException if the signature is shorter than b r
     */
    @Override
    public long[] bandKeys(long[] signature) {
        int b = params.bands();
        int r = params.rows();
        if (signature.length < b * r) {
            throw new IllegalArgumentException(
                    "signature has %s values but %s needs %s"
                            .formatted(signature.length, params, b * r));
        }
        long[] keys = new long[b];
        byte[] scratch = new byte[8 * (r + 1)];
        for (int j = 0; j < b; j++) {
            LONG_LE.set(scratch, 0, (long) j);
            for (int i = 0; i < r; i++) {
                LONG_LE.set(scratch, 8 * (i + 1), signature[j * r + i]);
            }
            keys[j] = hash.hashBytesToLong(scratch);
        }
        return keys;
    }

    /**
     * The lowest band in which two signatures agree in all r rows, or -1 when none does. With equal
     * band keys this is the band a pair collides in first, which is where the job reports it.
     */
    @Override
    public int firstAgreeingBand(long[] a, long[] b) {
        int r = params.rows();
        for (int j = 0; j < params.bands(); j++) {
            if (agree(a, b, j * r, (j + 1) * r)) {
                return j;
            }
        }
        return -1;
    }

    /** Whether {@code a} and {@code b} agree at every position in {@code [from, to)}. */
    static boolean agree(long[] a, long[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }
}
