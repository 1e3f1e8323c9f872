package dev.neardup.batch;

import java.util.ArrayList;
import java.util.List;

/**
 * The chaining guard against run-on clusters (Broder, Glassman, Manasse and Zweig 1997): with a
 * floor f, a component is cut into groups around leaders, in the order (event time, id): its
 * earliest member is the first leader; each later member joins the earliest leader whose estimated
 * similarity to it is at least f, or, when there is none, becomes a leader itself. Every member of
 * a group is then within f of the group's leader, its earliest member, which gives the group its
 * id. Why and at what cost: {@code docs/design/dedupe-job.md}.
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
