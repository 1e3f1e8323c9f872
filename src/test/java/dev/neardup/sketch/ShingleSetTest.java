package dev.neardup.sketch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ShingleSetTest {

    /** Random hashes with repeats (drawn from a small pool) and, sometimes, the value 0. */
    private static long[] hashes(SplittableRandom random, int length) {
        long[] pool = new long[Math.max(1, length / 2)];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = random.nextInt(10) == 0 ? 0 : random.nextLong();
        }
        long[] out = new long[length];
        for (int i = 0; i < length; i++) {
            out[i] = pool[random.nextInt(pool.length)];
        }
        return out;
    }

    @Test
    void distinctFindsTheSetsValuesInFirstSeenOrder() {
        SplittableRandom random = new SplittableRandom(21);
        for (int t = 0; t < 500; t++) {
            long[] h = hashes(random, random.nextInt(0, 2000));
            long[] before = h.clone();
            long[] distinct = ShingleSet.distinct(h);
            assertThat(h).isEqualTo(before); // not modified
            long[] sorted = distinct.clone();
            Arrays.sort(sorted);
            assertThat(sorted).isEqualTo(ShingleSet.of(h).toArray());
            assertThat(ShingleSet.distinctCount(h)).isEqualTo(distinct.length);
            // First-seen order: each value's first index in h is increasing.
            Set<Long> seen = new HashSet<>();
            int k = 0;
            for (long x : h) {
                if (seen.add(x)) {
                    assertThat(distinct[k++]).isEqualTo(x);
                }
            }
        }
    }

    @Test
    void fingerprintIsTheSetsWhateverTheOrder() {
        SplittableRandom random = new SplittableRandom(22);
        Map<Long, String> setOf = new HashMap<>();
        for (int t = 0; t < 2000; t++) {
            long[] set = ShingleSet.distinct(hashes(random, random.nextInt(1, 600)));
            long[] shuffled = set.clone();
            for (int i = shuffled.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                long x = shuffled[i];
                shuffled[i] = shuffled[j];
                shuffled[j] = x;
            }
            long f = ShingleSet.fingerprint(set);
            assertThat(ShingleSet.fingerprint(shuffled)).isEqualTo(f);
            long[] sorted = set.clone();
            Arrays.sort(sorted);
            String previous = setOf.putIfAbsent(f, Arrays.toString(sorted));
            assertThat(previous == null ? Arrays.toString(sorted) : previous)
                    .as("two different sets with one fingerprint")
                    .isEqualTo(Arrays.toString(sorted));
            // One value more, or one fewer, is another set.
            long[] more = Arrays.copyOf(set, set.length + 1);
            more[set.length] = random.nextLong();
            assertThat(ShingleSet.fingerprint(more)).isNotEqualTo(f);
            assertThat(ShingleSet.fingerprint(Arrays.copyOf(set, set.length - 1))).isNotEqualTo(f);
        }
        // The value 0 counts: {0, a} is not {a}.
        assertThat(ShingleSet.fingerprint(new long[] {0, 7}))
                .isNotEqualTo(ShingleSet.fingerprint(new long[] {7}));
    }
}
