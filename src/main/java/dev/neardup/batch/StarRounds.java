package dev.neardup.batch;

import java.util.Collection;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * Connected components by alternating Large-Star and Small-Star rounds (Kiveris, Lattanzi,
 * Mirrokni, Rastogi and Vassilvitskii, "Connected Components in MapReduce and Beyond", SoCC 2014):
 * the per-node reduce steps; the Flink job does the grouping, one keyed exchange per round. Nodes
 * are {@link VertexKeys} strings, so every component ends as a star around its minimum, its
 * earliest document, in O(log^2 n) rounds. The rounds and their convergence test: {@code
 * docs/design/dedupe-job.md}.
 */
public final class StarRounds {

    private StarRounds() {}

    /**
     * Large-Star at node {@code u} with its distinct neighbours (both directions, no self-loop):
     * emits (v, m) for every neighbour v &gt; u, m = min(N(u) + u).
     *
     * @return true when u is not yet in its final shape: it has a smaller and a larger neighbour,
     *     or more than one smaller neighbour
     */
    public static boolean largeStar(
            String u, Collection<String> neighbours, BiConsumer<String, String> out) {
        TreeSet<String> set = new TreeSet<>(neighbours);
        set.remove(u);
        if (set.isEmpty()) {
            return false;
        }
        String min = set.first();
        String m = min.compareTo(u) < 0 ? min : u;
        int smaller = set.headSet(u).size();
        boolean hasLarger = set.higher(u) != null;
        set.tailSet(u, false).forEach(v -> out.accept(v, m));
        return (smaller > 0 && hasLarger) || smaller > 1;
    }

    /**
     * Small-Star at node {@code u}, with the distinct smaller ends of the edges whose larger end is
     * u: emits (v, m) for every v in N(u) + u other than m = min(N(u) + u).
     */
    public static void smallStar(
            String u, Collection<String> smallerNeighbours, BiConsumer<String, String> out) {
        TreeSet<String> set = new TreeSet<>(smallerNeighbours);
        set.remove(u);
        if (set.isEmpty()) {
            return;
        }
        String m = set.first();
        for (String v : set) {
            if (!v.equals(m)) {
                out.accept(v, m);
            }
        }
        out.accept(u, m);
    }
}
