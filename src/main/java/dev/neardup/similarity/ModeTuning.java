package dev.neardup.similarity;

import dev.neardup.lsh.LshParams;

/**
 * The {@code tune} tool's part of a mode ({@link SimilarityMode#tuning}): how the mode makes its
 * candidates for these settings, explained as text or JSON; for Jaccard the banding whose S-curve
 * the tool plots.
 */
public interface ModeTuning extends ModeReport {

    /** The banding whose S-curve {@code tune --plot} draws; null when the mode refuses --plot. */
    default LshParams sCurve() {
        return null;
    }
}
