package dev.neardup.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.KeepPolicy;
import dev.neardup.lsh.Banding;
import dev.neardup.lsh.LshParams;
import dev.neardup.similarity.MemberSketches;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.Similarity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The dedupe job's Flink-free parts: bucket pairing, star rounds, the guard, the key order. */
class DedupeAlgorithmsTest {

    private static final LshParams BANDING = new LshParams(11, 11);

    /** Full sketches, as bucket members carry them in --verify signature mode. */
    private static final MemberSketches SKETCHES =
            MemberSketches.minHash(new Banding(BANDING), 128, 8);

    /** Signatures of variants of one base: each value replaced with probability p. */
    private static List<long[]> variantSignatures(int n, double p, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] base = new long[128];
        for (int i = 0; i < base.length; i++) {
            base[i] = random.nextLong();
        }
        List<long[]> signatures = new ArrayList<>();
        for (int m = 0; m < n; m++) {
            long[] sig = base.clone();
            for (int i = 11; i < sig.length; i++) { // band 0 shared: all in one bucket
                if (random.nextDouble() < p) {
                    sig[i] = random.nextLong();
                }
            }
            signatures.add(sig);
        }
        return signatures;
    }

    private static List<BucketEntry> members(List<long[]> signatures) {
        List<BucketEntry> members = new ArrayList<>();
        for (int m = 0; m < signatures.size(); m++) {
            long[] sig = signatures.get(m);
            members.add(
                    new BucketEntry(
                            0,
                            0,
                            0,
                            0,
                            0,
                            VertexKeys.key(m, "d" + m),
                            SKETCHES.pack(sig, SKETCHES.bandKeys(sig))));
        }
        return members;
    }

    private static List<BucketEntry> variants(int n, double p, long seed) {
        return members(variantSignatures(n, p, seed));
    }

    private static Set<String> pairsOf(BucketPairing pairing, List<BucketEntry> members) {
        Set<String> pairs = new HashSet<>();
        pairing.within(members, 0, p -> assertThat(pairs.add(p.a() + "|" + p.b())).isTrue());
        return pairs;
    }

    @Test
    void bucketPairsAreExactlyTheVerifiedPairsOnceEachEarlierFirst() {
        List<long[]> signatures = variantSignatures(60, 0.15, 1);
        List<BucketEntry> members = members(signatures);
        BucketPairing pairing = new BucketPairing(SKETCHES, 0.8);
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < members.size(); i++) {
            for (int j = i + 1; j < members.size(); j++) {
                if (Similarity.estimateJaccard(signatures.get(i), signatures.get(j)) >= 0.8) {
                    expected.add(members.get(i).key() + "|" + members.get(j).key());
                }
            }
        }
        assertThat(expected).hasSizeBetween(20, 1700); // some pairs pass, some do not (56)
        assertThat(pairsOf(pairing, members)).isEqualTo(expected);
    }

    @Test
    void aPairIsReportedOnlyByItsLowestAgreeingBand() {
        List<BucketEntry> members = variants(2, 0.0, 2); // identical: all bands agree
        BucketPairing pairing = new BucketPairing(SKETCHES, 0.8);
        List<Integer> reportedBy = new ArrayList<>();
        for (int band = 0; band < 11; band++) {
            int b = band;
            pairing.within(members, band, p -> reportedBy.add(b));
        }
        assertThat(reportedBy).containsExactly(0);
    }

    @Test
    void blocksComparedBlockAgainstBlockGiveTheSamePairsAsTheWholeBucket() {
        List<BucketEntry> members = variants(203, 0.12, 3);
        BucketPairing pairing = new BucketPairing(SKETCHES, 0.8);
        Set<String> whole = pairsOf(pairing, members);
        int blockSize = 16;
        int blocks = BucketPairing.blockCount(members.size(), blockSize);
        assertThat(blocks).isEqualTo(13);
        assertThat(BucketPairing.blockCount(16, 16)).isEqualTo(1);
        // The routing of BucketPairsFunction: member i of block i/blockSize goes to every pair of
        // blocks (min, max) it belongs to, on side 0 for the lower block.
        Map<String, List<List<BucketEntry>>> tasks = new HashMap<>();
        for (int i = 0; i < members.size(); i++) {
            int block = i / blockSize;
            for (int other = 0; other < blocks; other++) {
                int a = Math.min(block, other);
                int b = Math.max(block, other);
                List<List<BucketEntry>> sides =
                        tasks.computeIfAbsent(
                                a + "," + b, k -> List.of(new ArrayList<>(), new ArrayList<>()));
                sides.get(block == a ? 0 : 1).add(members.get(i));
            }
        }
        assertThat(tasks).hasSize(blocks * (blocks + 1) / 2);
        Set<String> fromBlocks = new HashSet<>();
        long compared = 0;
        for (Map.Entry<String, List<List<BucketEntry>>> t : tasks.entrySet()) {
            String[] ab = t.getKey().split(",");
            Consumer<SimilarPair> sink =
                    p -> assertThat(fromBlocks.add(p.a() + "|" + p.b())).isTrue();
            compared +=
                    ab[0].equals(ab[1])
                            ? pairing.within(t.getValue().get(0), 0, sink)
                            : pairing.between(t.getValue().get(0), t.getValue().get(1), 0, sink);
        }
        assertThat(compared).isEqualTo(203L * 202 / 2); // every pair compared exactly once
        assertThat(fromBlocks).isEqualTo(whole).isNotEmpty();
    }

    // ---- components ----

    /** Runs Large-Star / Small-Star rounds in memory until a Large-Star round is stable. */
    static Map<String, String> components(List<String[]> edges, int[] rounds) {
        List<String[]> current = new ArrayList<>(edges);
        for (int round = 0; round < 200; round++) {
            Map<String, List<String>> both = new HashMap<>();
            for (String[] e : current) {
                if (!e[0].equals(e[1])) {
                    both.computeIfAbsent(e[0], k -> new ArrayList<>()).add(e[1]);
                    both.computeIfAbsent(e[1], k -> new ArrayList<>()).add(e[0]);
                }
            }
            List<String[]> large = new ArrayList<>();
            boolean unstable = false;
            for (Map.Entry<String, List<String>> n : both.entrySet()) {
                unstable |=
                        StarRounds.largeStar(
                                n.getKey(), n.getValue(), (u, v) -> large.add(new String[] {u, v}));
            }
            if (!unstable) {
                rounds[0] = round;
                Map<String, String> label = new HashMap<>();
                for (String[] e : current) {
                    String leaf = e[0].compareTo(e[1]) > 0 ? e[0] : e[1];
                    String centre = e[0].compareTo(e[1]) > 0 ? e[1] : e[0];
                    assertThat(label.put(leaf, centre))
                            .as("one centre per leaf")
                            .isIn(null, centre);
                }
                return label;
            }
            Map<String, List<String>> smaller = new HashMap<>();
            for (String[] e : large) {
                String hi = e[0].compareTo(e[1]) > 0 ? e[0] : e[1];
                String lo = e[0].compareTo(e[1]) > 0 ? e[1] : e[0];
                if (!hi.equals(lo)) {
                    smaller.computeIfAbsent(hi, k -> new ArrayList<>()).add(lo);
                }
            }
            List<String[]> next = new ArrayList<>();
            for (Map.Entry<String, List<String>> n : smaller.entrySet()) {
                StarRounds.smallStar(
                        n.getKey(), n.getValue(), (u, v) -> next.add(new String[] {u, v}));
            }
            current = next;
        }
        throw new AssertionError("did not converge");
    }

    /** Minimum of each node's component by union-find. */
    static Map<String, String> unionFind(List<String[]> edges) {
        Map<String, String> parent = new HashMap<>();
        for (String[] e : edges) {
            String a = find(parent, e[0]);
            String b = find(parent, e[1]);
            if (!a.equals(b)) {
                if (a.compareTo(b) < 0) {
                    parent.put(b, a);
                } else {
                    parent.put(a, b);
                }
            }
        }
        Map<String, String> label = new HashMap<>();
        for (String node : new TreeSet<>(parent.keySet())) {
            String root = find(parent, node);
            if (!root.equals(node)) {
                label.put(node, root);
            }
        }
        return label;
    }

    private static String find(Map<String, String> parent, String x) {
        parent.putIfAbsent(x, x);
        while (!parent.get(x).equals(x)) {
            x = parent.get(x);
        }
        return x;
    }

    private static String node(int i) {
        return String.format("n%06d", i);
    }

    @Test
    void aLongChainBecomesOneStarAroundItsMinimumInLogarithmicRounds() {
        // A chain in shuffled order (the worst case for label propagation: n rounds).
        int n = 2000;
        List<Integer> perm = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            perm.add(i);
        }
        java.util.Collections.shuffle(perm, new java.util.Random(7));
        List<String[]> edges = new ArrayList<>();
        for (int i = 0; i + 1 < n; i++) {
            edges.add(new String[] {node(perm.get(i)), node(perm.get(i + 1))});
        }
        int[] rounds = new int[1];
        Map<String, String> label = components(edges, rounds);
        assertThat(label).hasSize(n - 1).doesNotContainKey(node(0));
        assertThat(new HashSet<>(label.values())).containsExactly(node(0));
        assertThat(rounds[0]).isBetween(1, 25); // log^2-ish, far below the chain's 1999
    }

    @Test
    void starsChainsAndRandomGraphsMatchUnionFind() {
        SplittableRandom random = new SplittableRandom(11);
        for (int trial = 0; trial < 30; trial++) {
            List<String[]> edges = new ArrayList<>();
            int n = 50 + random.nextInt(400);
            // a star with its centre in the middle of the order
            for (int i = 0; i < 20; i++) {
                edges.add(new String[] {node(n + 10), node(n + i * 2)});
            }
            // random sparse edges
            for (int e = 0; e < n; e++) {
                edges.add(new String[] {node(random.nextInt(n)), node(random.nextInt(n))});
            }
            int[] rounds = new int[1];
            assertThat(components(edges, rounds)).isEqualTo(unionFind(edges));
        }
    }

    // ---- the guard ----

    @Test
    void theGuardCutsAChainAtItsFloorAndKeepsATightClusterWhole() {
        // A ~ B ~ C with A, C not similar: similarities by index.
        double[][] chain = {{1, 0.85, 0.70}, {0.85, 1, 0.85}, {0.70, 0.85, 1}};
        int[] leaders = ClusterSplit.leaders(3, 0.8, (a, b) -> chain[a][b]);
        assertThat(leaders).containsExactly(0, 0, 2); // C starts its own cluster
        double[][] tight = {{1, 0.9, 0.9}, {0.9, 1, 0.95}, {0.9, 0.95, 1}};
        assertThat(ClusterSplit.leaders(3, 0.8, (a, b) -> tight[a][b])).containsExactly(0, 0, 0);
        // A member joins the earliest leader it is close to.
        double[][] two = {
            {1, 0.1, 0.9, 0.1}, {0.1, 1, 0.1, 0.9}, {0.9, 0.1, 1, 0.1}, {0.1, 0.9, 0.1, 1}
        };
        assertThat(ClusterSplit.leaders(4, 0.8, (a, b) -> two[a][b])).containsExactly(0, 1, 0, 1);
    }

    @Test
    void keysOrderByEventTimeThenIdAndRoundTrip() {
        List<String> keys =
                List.of(
                        VertexKeys.key(-5, "z"),
                        VertexKeys.key(0, "b"),
                        VertexKeys.key(0, "c"),
                        VertexKeys.key(1_700_000_000_000L, "a"),
                        VertexKeys.key(Long.MAX_VALUE, ""));
        assertThat(new TreeSet<>(keys)).containsExactlyElementsOf(keys);
        assertThat(VertexKeys.id(keys.get(3))).isEqualTo("a");
    }

    @Test
    void keepPolicies() {
        List<DedupeDoc> docs = new ArrayList<>();
        long[][] attrs = {{10, 7}, {30, 9}, {20, 3}}; // length, input order
        for (int i = 0; i < attrs.length; i++) {
            DedupeDoc d = new DedupeDoc();
            d.length = attrs[i][0];
            d.order = attrs[i][1];
            docs.add(d);
        }
        List<Integer> all = List.of(0, 1, 2);
        assertThat(ClusterAssigner.keep(docs, all, KeepPolicy.EARLIEST)).isEqualTo(0);
        assertThat(ClusterAssigner.keep(docs, all, KeepPolicy.LONGEST)).isEqualTo(1);
        assertThat(ClusterAssigner.keep(docs, all, KeepPolicy.FIRST)).isEqualTo(2);
        assertThat(MinHash.DEFAULT_NUM_HASHES).isEqualTo(128);
    }
}
