package dev.neardup.similarity;

import dev.neardup.io.Alert;

/**
 * The result of verifying a pair (first, second): the estimated similarity and, for containment,
 * which of the two is contained in which (null for the symmetric families, Jaccard and cosine).
 * Matches carry it from the document to the earlier document: first is the document, second the
 * match.
 *
 * @param similarity the estimate (containment: in the direction given, for MUTUAL the smaller)
 * @param direction which is contained in which, or null when the family has no direction
 */
public record Estimate(double similarity, Direction direction) {

    /**
     * Which document of a pair is contained in the other at the threshold. Part of the verdicts'
     * waiting state ({@code MatchList}): its constants are never renamed.
     */
    public enum Direction {
        /** The first is contained in the second. */
        FIRST_IN_SECOND,
        /** The second is contained in the first. */
        SECOND_IN_FIRST,
        /** Each in the other (near-copies). */
        MUTUAL
    }

    /** An estimate of a symmetric family. */
    public static Estimate of(double similarity) {
        return new Estimate(similarity, null);
    }

    /** The same estimate about (second, first). */
    public Estimate reversed() {
        return direction == Direction.FIRST_IN_SECOND
                ? new Estimate(similarity, Direction.SECOND_IN_FIRST)
                : direction == Direction.SECOND_IN_FIRST
                        ? new Estimate(similarity, Direction.FIRST_IN_SECOND)
                        : this;
    }

    /**
     * The direction as alerts and verdicts name it about (document, earlier match), one of {@link
     * Alert#DOC_IN_DUPLICATE}, {@link Alert#DUPLICATE_IN_DOC} and {@link Alert#MUTUAL}; null
     * without one (and left out of the outputs).
     */
    public String label() {
        return direction == null
                ? null
                : switch (direction) {
                    case FIRST_IN_SECOND -> Alert.DOC_IN_DUPLICATE;
                    case SECOND_IN_FIRST -> Alert.DUPLICATE_IN_DOC;
                    case MUTUAL -> Alert.MUTUAL;
                };
    }
}
