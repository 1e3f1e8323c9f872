package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.dynatrace.hash4j.hashing.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Super-shingle keys (seed 003): the contract, golden vectors, and what sharing a key means. */
class SuperShinglesTest {

    private final SuperShingles broder = new SuperShingles(new SuperShingleParams(6, 4, 2));

    @Test
    void withOneSharedTheKeysAreBandKeys() {
        long[] signature = new SplittableRandom(1).longs(128).toArray();
        SuperShingles single = new SuperShingles(new SuperShingleParams(11, 11, 1), 77);
        assertThat(single.keys(signature))
                .containsExactly(new Banding(new LshParams(11, 11), 77).bandKeys(signature));
        assertThat(SuperShingles.DEFAULT_SEED).isNotEqualTo(Banding.DEFAULT_SEED);
    }

    @Test
    void keysAreHashesOfTheSubsetsOfSuperShinglesInLexicographicOrder() {
        long[] signature = new SplittableRandom(2).longs(24).toArray();
        long[] f = broder.superShingles(signature);
        long[] keys = broder.keys(signature);
        assertThat(keys).hasSize(15).doesNotHaveDuplicates();
        int n = 0;
        for (int i = 0; i < 6; i++) {
            for (int j = i + 1; j < 6; j++) {
                byte[] bytes =
                        ByteBuffer.allocate(16)
                                .order(ByteOrder.LITTLE_ENDIAN)
                                .putLong(f[i])
                                .putLong(f[j])
                                .array();
                assertThat(keys[n++])
                        .as("key of {%d, %d}", i, j)
                        .isEqualTo(
                                Hashing.xxh3_64(SuperShingles.DEFAULT_SEED).hashBytesToLong(bytes));
            }
        }
        // Super-shingle g is the hash of (g, its l values), little-endian.
        ByteBuffer first = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN).putLong(0);
        for (int i = 0; i < 4; i++) {
            first.putLong(signature[i]);
        }
        assertThat(f[0])
                .isEqualTo(
                        Hashing.xxh3_64(SuperShingles.DEFAULT_SEED).hashBytesToLong(first.array()));
    }

    @Test
    void threeOfFiveGiveTenKeysInOrder() {
        SuperShingles threeOfFive = new SuperShingles(new SuperShingleParams(5, 2, 3), 5);
        long[] signature = new SplittableRandom(3).longs(10).toArray();
        long[] f = threeOfFive.superShingles(signature);
        long[] keys = threeOfFive.keys(signature);
        assertThat(keys).hasSize(10);
        // The last subset is {2, 3, 4}.
        byte[] last =
                ByteBuffer.allocate(24)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .putLong(f[2])
                        .putLong(f[3])
                        .putLong(f[4])
                        .array();
        assertThat(keys[9]).isEqualTo(Hashing.xxh3_64(5).hashBytesToLong(last));
    }

    @Test
    void shareAKeyExactlyWhenAtLeastTSuperShinglesAgree() {
        SplittableRandom random = new SplittableRandom(4);
        for (int trial = 0; trial < 500; trial++) {
            long[] a = random.longs(30).toArray();
            long[] b = random.longs(30).toArray();
            // Copy a random set of groups (and sometimes a part of one) from a to b.
            for (int g = 0; g < 6; g++) {
                if (random.nextInt(3) == 0) {
                    System.arraycopy(a, 4 * g, b, 4 * g, random.nextInt(5) == 0 ? 3 : 4);
                }
            }
            b[24] = a[24]; // positions past k l do not matter
            int agreeing = broder.agreeingSuperShingles(a, b);
            assertThat(shareAKey(broder.keys(a), broder.keys(b)))
                    .as("%d super-shingles agree", agreeing)
                    .isEqualTo(agreeing >= 2);
        }
    }

    @Test
    void goldenVectors() {
        long[] signature = new long[24];
        for (int i = 0; i < 24; i++) {
            signature[i] = i * 1000003L;
        }
        assertThat(broder.superShingles(signature))
                .containsExactly(
                        0x6ae43112e64373c0L,
                        0x8ecb82fca52d23b9L,
                        0x0325eaa4ad6b5a0bL,
                        0x09be51a7cb36ccdaL,
                        0x8355cdf351e900c8L,
                        0x65a4bd0a9b096a94L);
        long[] keys = broder.keys(signature);
        assertThat(keys[0]).isEqualTo(0x4d9925e31fd7f12aL);
        assertThat(keys[1]).isEqualTo(0x54aa13d0ca774b4aL);
        assertThat(keys[14]).isEqualTo(0xa1f590dced54704fL);
    }

    @Test
    void seedChangesKeysAndShortSignaturesAreRejected() {
        long[] signature = new SplittableRandom(5).longs(24).toArray();
        long[] a = new SuperShingles(new SuperShingleParams(6, 4, 2), 1).keys(signature);
        long[] b = new SuperShingles(new SuperShingleParams(6, 4, 2), 2).keys(signature);
        for (int i = 0; i < a.length; i++) {
            assertThat(a[i]).isNotEqualTo(b[i]);
        }
        assertThatThrownBy(() -> broder.keys(new long[23]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("signature has 23 values")
                .hasMessageContaining("needs 24");
    }

    static boolean shareAKey(long[] a, long[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == b[i]) {
                return true;
            }
        }
        return false;
    }
}
