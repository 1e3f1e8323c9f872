package dev.neardup.tools.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PairSampleTest {

    @Test
    void keepsAtMostItsSizeAndTheSameSampleInAnyOrder() {
        List<Integer> pairs = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            pairs.add(i);
        }
        PairSample<Integer> a = new PairSample<>(7);
        pairs.forEach(i -> a.offer("a" + i, "b" + i, i));
        Collections.shuffle(pairs, new Random(3));
        PairSample<Integer> b = new PairSample<>(7);
        pairs.forEach(i -> b.offer("a" + i, "b" + i, i));
        assertThat(a.items()).hasSize(7);
        assertThat(a.seen()).isEqualTo(1000);
        assertThat(new HashSet<>(a.items())).isEqualTo(new HashSet<>(b.items()));
        // Not simply the first or the last offered.
        assertThat(a.items()).isNotEqualTo(List.of(0, 1, 2, 3, 4, 5, 6));
    }

    @Test
    void fewerPairsThanTheSizeAreAllKept() {
        PairSample<String> s = new PairSample<>(5);
        s.offer("x", "y", "xy");
        s.offer("x", "z", "xz");
        assertThat(s.items()).containsExactlyInAnyOrder("xy", "xz");
        assertThatThrownBy(() -> new PairSample<>(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
