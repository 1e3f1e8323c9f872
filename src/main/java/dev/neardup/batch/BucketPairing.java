package dev.neardup.batch;

import dev.neardup.similarity.MemberSketches;
import java.util.List;
import java.util.function.Consumer;

/**
 * The pairs of one LSH band bucket (sort the sketches and group them by value, as in Broder,
 * Glassman, Manasse and Zweig 1997; the offline variant, all similar pairs): every two members
 * whose estimated similarity, from their packed sketches ({@link MemberSketches}), reaches the
 * threshold (for SimHash fingerprints, cos(pi h / D) reaches cos(pi k / D) exactly when the Hamming
 * distance h is at most k). A pair is reported only by the bucket of the lowest band in which it
 * agrees ({@link MemberSketches#firstAgreeingBand}). A bucket larger than a block is compared block
 * against block ({@link #blockCount}), every pair still once: {@code docs/design/dedupe-job.md}.
 */
public final class BucketPairing {

    private final MemberSketches sketches;
    private final double threshold;

    /**
     * The pairing of a dedupe run: its bucket keys, estimator and threshold (with exact
     * verification, the lower floor of the candidates that go on to it).
     */
    static BucketPairing of(DedupeSettings settings) {
        return new BucketPairing(settings.newMemberSketches(), settings.candidateFloor());
    }

    /**
     * @param sketches how members' packed sketches are estimated and banded
     * @param threshold the lowest estimate of a pair
     */
    public BucketPairing(MemberSketches sketches, double threshold) {
        this.sketches = sketches;
        this.threshold = threshold;
    }

    /** Number of blocks a bucket of {@code size} members is cut into (1 when it fits in one). */
    public static int blockCount(int size, int blockSize) {
        return size <= blockSize ? 1 : (size + blockSize - 1) / blockSize;
    }

    /** Pairs within one list of members (a whole bucket, or one block compared with itself). */
    public long within(List<BucketEntry> members, int band, Consumer<SimilarPair> out) {
        long compared = 0;
        for (int i = 0; i < members.size(); i++) {
            BucketEntry a = members.get(i);
            for (int j = i + 1; j < members.size(); j++) {
                compare(a, members.get(j), band, out);
                compared++;
            }
        }
        return compared;
    }

    /** Pairs between two disjoint lists of members (two blocks of one bucket). */
    public long between(
            List<BucketEntry> left, List<BucketEntry> right, int band, Consumer<SimilarPair> out) {
        for (BucketEntry a : left) {
            for (BucketEntry b : right) {
                compare(a, b, band, out);
            }
        }
        return (long) left.size() * right.size();
    }

    private void compare(BucketEntry a, BucketEntry b, int band, Consumer<SimilarPair> out) {
        double similarity = sketches.estimate(a.sketch(), b.sketch());
        if (similarity < threshold) {
            return;
        }
        int first = sketches.firstAgreeingBand(a.sketch(), b.sketch());
        if (first != band && first >= 0) {
            return; // reported by the bucket of its lowest agreeing band
        }
        out.accept(SimilarPair.ordered(a.key(), b.key(), similarity));
    }
}
