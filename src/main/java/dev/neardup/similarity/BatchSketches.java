package dev.neardup.similarity;

import dev.neardup.lsh.BandKeys;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.SortedWindow;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.text.ContentType;
import java.io.Serializable;
import java.util.Map;

/**
 * What the offline dedupe (package {@code batch}) does with the sketches of a mode: its bucket
 * keys, what a bucket entry carries, the estimate that verifies pairs and cuts clusters, which
 * candidate and verification choices the mode offers, and the mode's part of the dedupe's stage
 * names and reports. {@link SimilarityMode#batch} hands it out, or refuses a mode the dedupe does
 * not offer. Serializable: it travels with the dedupe's functions.
 */
public interface BatchSketches extends Serializable {

    /** The name of the stage that sketches the documents. */
    String sketchStage();

    /** Whether candidates may be verified exactly on their shingle sets; the default when so. */
    default boolean exactVerification() {
        return false;
    }

    /** A document's sketch and its distinct shingle hashes (unordered), for exact verification. */
    record Exact(DocumentSketcher.Sketch sketch, long[] shingles) {}

    /**
     * A document's sketch and its distinct shingles, when {@link #exactVerification}: the shingles
     * are hashed once for both.
     *
     * @param sketcher a sketcher of this mode ({@link SimilarityMode#newSketcher})
     */
    default Exact sketchWithShingles(TextSketcher sketcher, String content, ContentType type) {
        throw new UnsupportedOperationException("no exact verification with " + sketchStage());
    }

    /** Whether the sketches are fingerprints that a sliding window can sort. */
    default boolean slidingWindow() {
        return false;
    }

    /** The sliding window over the sorted fingerprints, when {@link #slidingWindow}. */
    default SortedWindow sortedWindow(int permutations, int window) {
        throw new UnsupportedOperationException("no sliding window over " + sketchStage());
    }

    /**
     * The bands of the candidate stage: the job's when {@code tuned} (bands, rows or tuning weights
     * given), else those that make a pair at the threshold a candidate with probability {@code
     * recall}.
     */
    LshParams candidateBanding(boolean tuned, double recall);

    /** The bucket keys of a sketch (LSH bands, or permuted-block tables). */
    BandKeys bandKeys(LshParams candidateBanding);

    /**
     * What a bucket entry carries; with {@code exact} verification the estimate only screens
     * candidates and may be coarser.
     */
    MemberSketches memberSketches(LshParams candidateBanding, boolean exact);

    /**
     * The estimated similarity of two full sketches. A pair is a near-duplicate when it reaches the
     * threshold of the settings.
     */
    double estimate(long[] a, long[] b);

    /**
     * The dedupe's settings line: this mode's part, with the dedupe's choices that apply to it
     * ({@code verify}; {@code window}, null for blocks; {@code keep}; {@code blockSize}).
     */
    String describeDedupe(
            LshParams candidateBanding, String verify, String window, String keep, int blockSize);

    /** Adds this mode's fields to the dedupe's JSON summary. */
    void addSummary(
            Map<String, Object> json,
            LshParams candidateBanding,
            boolean window,
            int windowSize,
            int permutations);

    /** The threshold as the title of the cluster-size plot names it. */
    String thresholdTitle();
}
