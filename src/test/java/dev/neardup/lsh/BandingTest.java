package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BandingTest {

    private final Banding banding = new Banding(new LshParams(8, 4));

    @Test
    void bandIndexIsPartOfTheKey() {
        long[] constant = new long[32];
        Arrays.fill(constant, 7);
        long[] keys = banding.bandKeys(constant);
        assertThat(keys).hasSize(8).doesNotHaveDuplicates();
    }

    @Test
    void aChangeInOneRowChangesOnlyItsBand() {
        long[] signature = new SplittableRandom(1).longs(32).toArray();
        long[] before = banding.bandKeys(signature);
        signature[13]++; // band 3 covers positions 12..15
        long[] after = banding.bandKeys(signature);
        for (int j = 0; j < 8; j++) {
            if (j == 3) {
                assertThat(after[j]).isNotEqualTo(before[j]);
            } else {
                assertThat(after[j]).isEqualTo(before[j]);
            }
        }
        assertThat(banding.firstAgreeingBand(signature, signature)).isZero();
    }

    @Test
    void firstAgreeingBandMatchesTheFirstEqualKey() {
        SplittableRandom random = new SplittableRandom(2);
        long[] a = random.longs(32).toArray();
        long[] b = random.longs(32).toArray();
        assertThat(banding.firstAgreeingBand(a, b)).isEqualTo(-1);
        System.arraycopy(a, 20, b, 20, 8); // bands 5 and 6 agree
        assertThat(banding.firstAgreeingBand(a, b)).isEqualTo(5);
        long[] ka = banding.bandKeys(a);
        long[] kb = banding.bandKeys(b);
        for (int j = 0; j < 8; j++) {
            assertThat(ka[j] == kb[j]).isEqualTo(j == 5 || j == 6);
        }
    }

    @Test
    void unusedTailPositionsDoNotMatterAndShortSignaturesAreRejected() {
        long[] signature = new SplittableRandom(3).longs(40).toArray();
        long[] keys = banding.bandKeys(signature);
        signature[35] = 0;
        assertThat(banding.bandKeys(signature)).containsExactly(keys);
        assertThatThrownBy(() -> banding.bandKeys(new long[31]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 32");
    }

    @Test
    void seedChangesKeys() {
        long[] signature = new SplittableRandom(4).longs(32).toArray();
        long[] a = new Banding(new LshParams(8, 4), 1).bandKeys(signature);
        long[] b = new Banding(new LshParams(8, 4), 2).bandKeys(signature);
        for (int j = 0; j < 8; j++) {
            assertThat(a[j]).isNotEqualTo(b[j]);
        }
    }
}
