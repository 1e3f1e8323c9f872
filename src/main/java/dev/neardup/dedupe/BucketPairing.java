package dev.neardup.dedupe;

import dev.neardup.lsh.BandKeys;
import dev.neardup.lsh.Banding;
import java.util.List;

/**
 * The pairs of one LSH band bucket (seed 004: "sort P and group by value"; seed 002's offline
 * variant, all similar pairs): every two members whose estimated similarity, from their full
 * sketches, reaches the threshold: the share of agreeing MinHash values (Jaccard), or for SimHash
 * fingerprints in a permuted-block table's bucket (Manku, Jain and Das Sarma, WWW 2007) cos(pi h /
 * D), which reaches cos(pi k / D) exactly when the Hamming distance h is at most k. A pair that
 * shares several band buckets is reported by one of them only, the bucket of the lowest band in
 * which its signatures agree in all rows ({@link Banding#firstAgreeingBand}); so no pair is
 * reported twice and no later step has to remove duplicates. (Two signatures can share a band key
 * without agreeing in the band only by a 64-bit hash collision; such a pair is verified and
 * reported by every bucket it shares.)
 *
 * <p>A bucket larger than a block is cut into blocks of at most {@code blockSize} members, in
 * member order, and compared block against block ({@link #blockCount}): every pair of members is
 * still compared once, but by as many tasks as there are pairs of blocks, each holding two blocks.
 * Exact copies never reach a bucket more than once (the dedupe job collapses equal signatures
 * first), so a giant bucket is one of many distinct near-copies.
 */
public final class BucketPairing {

    /** A bucket member: its document key and full signature. */
    public record Member(String key, long[] signature) {}

    /** A verified pair, the earlier document (smaller key) first. */
    public record Pair(String earlier, String later, double similarity) {}

    /** Receives pairs. */
    public interface Sink {
        void pair(String earlier, String later, double similarity);
    }

    /** The estimated similarity of two full sketches. */
    public interface Estimator {
        double estimate(long[] a, long[] b);
    }

    private final BandKeys keys;
    private final Estimator estimator;
    private final double threshold;

    /**
     * The pairing of a dedupe run: its bucket keys, estimator and threshold (with exact
     * verification, the lower floor of the candidates that go on to it).
     */
    static BucketPairing of(DedupeSettings settings) {
        return new BucketPairing(
                settings.newBandKeys(), settings::estimate, settings.candidateFloor());
    }

    /**
     * @param keys the bucket keys (LSH bands, or permuted-block tables for SimHash fingerprints)
     * @param estimator the similarity of two members' full sketches
     * @param threshold the lowest estimate of a pair
     */
    public BucketPairing(BandKeys keys, Estimator estimator, double threshold) {
        this.keys = keys;
        this.estimator = estimator;
        this.threshold = threshold;
    }

    /** Number of blocks a bucket of {@code size} members is cut into (1 when it fits in one). */
    public static int blockCount(int size, int blockSize) {
        return size <= blockSize ? 1 : (size + blockSize - 1) / blockSize;
    }

    /** Pairs within one list of members (a whole bucket, or one block compared with itself). */
    public long within(List<Member> members, int band, Sink out) {
        long compared = 0;
        for (int i = 0; i < members.size(); i++) {
            Member a = members.get(i);
            for (int j = i + 1; j < members.size(); j++) {
                compare(a, members.get(j), band, out);
                compared++;
            }
        }
        return compared;
    }

    /** Pairs between two disjoint lists of members (two blocks of one bucket). */
    public long between(List<Member> left, List<Member> right, int band, Sink out) {
        for (Member a : left) {
            for (Member b : right) {
                compare(a, b, band, out);
            }
        }
        return (long) left.size() * right.size();
    }

    private void compare(Member a, Member b, int band, Sink out) {
        double similarity = estimator.estimate(a.signature(), b.signature());
        if (similarity < threshold) {
            return;
        }
        int first = keys.firstAgreeingBand(a.signature(), b.signature());
        if (first != band && first >= 0) {
            return; // reported by the bucket of its lowest agreeing band
        }
        if (a.key().compareTo(b.key()) <= 0) {
            out.pair(a.key(), b.key(), similarity);
        } else {
            out.pair(b.key(), a.key(), similarity);
        }
    }
}
