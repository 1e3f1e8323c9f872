package dev.neardup.eval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The exact containment join equals the brute-force comparison of all pairs (fixed seeds). */
class ExactContainmentJoinTest {

    @Test
    void equalsBruteForceOnSetsCutFromSharedPools() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            long[] pool = random.longs(400, 0, 600).toArray();
            List<ShingleSet> sets = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                int from = random.nextInt(pool.length);
                int length = random.nextInt(1, 150);
                long[] s = new long[length];
                for (int j = 0; j < length; j++) {
                    s[j] =
                            random.nextInt(10) == 0
                                    ? random.nextLong()
                                    : pool[(from + j) % pool.length];
                }
                sets.add(ShingleSet.of(s));
            }
            sets.add(ShingleSet.of(new long[0]));
            for (double floor : new double[] {0.3, 0.8, 1.0}) {
                List<ExactContainmentJoin.Pair> expected = new ArrayList<>();
                for (int a = 0; a < sets.size(); a++) {
                    for (int b = a + 1; b < sets.size(); b++) {
                        if (sets.get(a).isEmpty() || sets.get(b).isEmpty()) {
                            continue;
                        }
                        double ab = Similarity.containment(sets.get(a), sets.get(b));
                        double ba = Similarity.containment(sets.get(b), sets.get(a));
                        if (Math.max(ab, ba) >= floor) {
                            expected.add(new ExactContainmentJoin.Pair(a, b, ab, ba));
                        }
                    }
                }
                assertThat(ExactContainmentJoin.allPairs(sets, floor))
                        .as("seed %d, floor %.1f", seed, floor)
                        .isEqualTo(expected);
            }
        }
    }
}
