package dev.neardup.batch;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The connected components of the edges one task holds, found in memory with a disjoint-set forest
 * (union by size, path halving: Tarjan, "Efficiency of a good but not linear set union algorithm",
 * JACM 1975), and given as the stars that {@link StarRounds} converge to: an edge (v, m) from every
 * node v to the minimum m of its component. The stars of a share of the edges have the components
 * of that share, so they may stand in for it in the rounds; the stars of all the edges are the
 * rounds' result.
 *
 * <p>Not thread-safe.
 */
final class StarsInMemory {

    private final Map<String, Integer> index = new HashMap<>();
    private String[] nodes = new String[1024];
    private int[] parent = new int[1024];
    private int[] size = new int[1024];

    /** The node of each set's root with the smallest key. */
    private int[] min = new int[1024];

    /** Nodes held. */
    int nodes() {
        return index.size();
    }

    /** Adds the edge between {@code a} and {@code b}. */
    void add(String a, String b) {
        int x = find(node(a));
        int y = find(node(b));
        if (x == y) {
            return;
        }
        if (size[x] < size[y]) {
            int t = x;
            x = y;
            y = t;
        }
        parent[y] = x;
        size[x] += size[y];
        if (nodes[min[y]].compareTo(nodes[min[x]]) < 0) {
            min[x] = min[y];
        }
    }

    /** Emits (v, m) for every node v other than the minimum m of its component. */
    void stars(BiConsumer<String, String> out) {
        for (int v = 0; v < index.size(); v++) {
            int m = min[find(v)];
            if (m != v) {
                out.accept(nodes[v], nodes[m]);
            }
        }
    }

    /** Forgets every node and edge. */
    void clear() {
        index.clear();
        Arrays.fill(nodes, null);
    }

    private int node(String key) {
        Integer i = index.get(key);
        if (i != null) {
            return i;
        }
        int n = index.size();
        if (n == nodes.length) {
            int grown = n * 2;
            nodes = Arrays.copyOf(nodes, grown);
            parent = Arrays.copyOf(parent, grown);
            size = Arrays.copyOf(size, grown);
            min = Arrays.copyOf(min, grown);
        }
        index.put(key, n);
        nodes[n] = key;
        parent[n] = n;
        size[n] = 1;
        min[n] = n;
        return n;
    }

    private int find(int v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]];
            v = parent[v];
        }
        return v;
    }
}
