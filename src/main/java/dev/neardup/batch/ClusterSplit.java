package dev.neardup.batch;

import java.util.ArrayList;
import java.util.List;

/**
 * The chaining guard: a connected component of the similarity graph can chain pages that are not
 * similar at all (Broder, Glassman, Manasse and Zweig 1997 warn of run-on clusters: a sequence of
 * documents, each similar to the next; templates and boilerplate make such chains in real crawls).
 * With a floor f, a component is cut into groups around leaders, in the order (event time, id): its
 * earliest member is the first leader; each later member joins the earliest leader whose estimated
 * similarity to it is at least f, or, when there is none, becomes a leader itself. Every member of
 * a group is then within f of the group's leader, which is the group's earliest member and gives
 * the group its id; a component whose members are all within f of its earliest member is not cut.
 *
 * <p>Cost: members times leaders signature comparisons per component (only the cut components have
 * more than one leader).
 */
public final class ClusterSplit {

    private ClusterSplit() {}

    /** Similarity of two members, by index. */
    public interface Similarity {
        double of(int a, int b);
    }

    /**
     * Leaders of {@code n} members given in order (index 0 the earliest).
     *
     * @return for each member the index of its leader (a leader is its own)
     */
    public static int[] leaders(int n, double floor, Similarity similarity) {
        int[] leader = new int[n];
        List<Integer> leaders = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            leader[i] = i;
            for (int l : leaders) {
                if (similarity.of(l, i) >= floor) {
                    leader[i] = l;
                    break;
                }
            }
            if (leader[i] == i) {
                leaders.add(i);
            }
        }
        return leader;
    }
}
