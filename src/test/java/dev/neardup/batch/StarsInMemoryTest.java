package dev.neardup.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StarsInMemoryTest {

    /** The minimum of each node's component by a search over the edges: the reference. */
    private static Map<String, String> components(List<String[]> edges) {
        Map<String, Set<String>> adjacent = new HashMap<>();
        for (String[] e : edges) {
            adjacent.computeIfAbsent(e[0], k -> new HashSet<>()).add(e[1]);
            adjacent.computeIfAbsent(e[1], k -> new HashSet<>()).add(e[0]);
        }
        Map<String, String> min = new HashMap<>();
        for (String start : adjacent.keySet()) {
            if (min.containsKey(start)) {
                continue;
            }
            List<String> seen = new ArrayList<>(List.of(start));
            Set<String> visited = new HashSet<>(seen);
            for (int i = 0; i < seen.size(); i++) {
                for (String n : adjacent.get(seen.get(i))) {
                    if (visited.add(n)) {
                        seen.add(n);
                    }
                }
            }
            String m = seen.stream().min(String::compareTo).orElseThrow();
            seen.forEach(n -> min.put(n, m));
        }
        return min;
    }

    @Test
    void everyNodeGetsOneEdgeToItsComponentsMinimumAndTheMinimumNone() {
        SplittableRandom random = new SplittableRandom(17);
        List<String[]> edges = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            edges.add(new String[] {"n" + random.nextInt(2500), "n" + random.nextInt(2500)});
        }
        edges.add(new String[] {"lone", "lone"});
        StarsInMemory stars = new StarsInMemory();
        edges.forEach(e -> stars.add(e[0], e[1]));
        Map<String, String> expected = components(edges);
        assertThat(stars.nodes()).isEqualTo(expected.size());
        Map<String, String> centre = new HashMap<>();
        stars.stars((v, m) -> assertThat(centre.put(v, m)).as("one edge from %s", v).isNull());
        for (Map.Entry<String, String> e : expected.entrySet()) {
            if (e.getKey().equals(e.getValue())) {
                assertThat(centre).doesNotContainKey(e.getKey());
            } else {
                assertThat(centre.get(e.getKey())).isEqualTo(e.getValue());
            }
        }
        // A chain in descending order: every union moves the minimum.
        StarsInMemory chain = new StarsInMemory();
        for (int i = 9; i > 0; i--) {
            chain.add("c" + i, "c" + (i - 1));
        }
        List<String> leaves = new ArrayList<>();
        chain.stars(
                (v, m) -> {
                    assertThat(m).isEqualTo("c0");
                    leaves.add(v);
                });
        assertThat(leaves).hasSize(9).doesNotContain("c0");
        chain.clear();
        assertThat(chain.nodes()).isZero();
        chain.add("x", "y");
        chain.stars((v, m) -> assertThat(v + m).isEqualTo("yx"));
    }
}
