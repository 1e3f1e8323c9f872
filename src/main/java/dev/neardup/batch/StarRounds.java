package dev.neardup.batch;

import java.util.Collection;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * Connected components by alternating Large-Star and Small-Star rounds (Kiveris, Lattanzi,
 * Mirrokni, Rastogi and Vassilvitskii, "Connected Components in MapReduce and Beyond", SoCC 2014):
 * each round groups the edges by one endpoint and re-hangs that node's neighbourhood on its
 * smallest member, so that every component ends as a star around its minimum, in O(log^2 n) rounds.
 * Syntactic clustering asks for the connected components of the similarity graph (Broder, Glassman,
 * Manasse and Zweig 1997); this is how they are found without collecting the graph on one machine:
 * each round is one keyed exchange.
 *
 * <p>Nodes are {@link VertexKeys} strings, so the minimum of a component is its earliest document.
 * The rounds below are the per-node reduce steps; the Flink job does the grouping.
 *
 * <ul>
 *   <li><b>Large-Star</b> (edges in both directions, grouped by u): m = min(N(u) + u); emit (v, m)
 *       for every neighbour v &gt; u.
 *   <li><b>Small-Star</b> (each edge grouped by its larger end u, with its smaller end v): m =
 *       min(N(u) + u); emit (v, m) for every v in N(u) + u other than m.
 * </ul>
 *
 * <p>Convergence is seen in a Large-Star round: when no node has both a smaller and a larger
 * neighbour, nor two smaller neighbours, every component is a star whose centre is smaller than its
 * leaves, that is its minimum, and the rounds change nothing any more; each leaf's one edge names
 * its component.
 */
public final class StarRounds {

    private StarRounds() {}

    /**
     * Large-Star at node {@code u} with its distinct neighbours (both directions, no self-loop).
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
     * u.
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
