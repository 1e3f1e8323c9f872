package dev.neardup.dedupe;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The options of {@code neardup dedupe} beyond the job options it shares with the streaming job
 * ({@link dev.neardup.pipeline.NearDupOptions}: threshold, banding, shingles, MinHash), as typed
 * Flink {@link ConfigOption}s; {@link DedupeSettings#from} validates them.
 */
public final class DedupeOptions {

    private DedupeOptions() {}

    public static final ConfigOption<KeepPolicy> KEEP_POLICY =
            ConfigOptions.key("neardup.dedupe.keep-policy")
                    .enumType(KeepPolicy.class)
                    .defaultValue(KeepPolicy.EARLIEST)
                    .withDescription(
                            "Which document of a cluster the keep list names: EARLIEST (by"
                                    + " fetchedAt, then id: the cluster id), LONGEST content, or"
                                    + " FIRST in input order.");

    public static final ConfigOption<Double> SPLIT_BELOW =
            ConfigOptions.key("neardup.dedupe.split-below")
                    .doubleType()
                    .noDefaultValue()
                    .withDescription(
                            "Chaining guard: cut a connected component so that every member of a"
                                    + " cluster has an estimated similarity of at least this to"
                                    + " the cluster's earliest document (README: the chaining"
                                    + " guard). Unset: clusters are the connected components.");

    public static final ConfigOption<Integer> BLOCK_SIZE =
            ConfigOptions.key("neardup.dedupe.block-size")
                    .intType()
                    .defaultValue(1024)
                    .withDescription(
                            "A band bucket with more distinct signatures than this is cut into"
                                    + " blocks of this size, compared block against block by"
                                    + " separate tasks; no member is dropped.");

    public static final ConfigOption<Integer> ROUNDS =
            ConfigOptions.key("neardup.dedupe.rounds")
                    .intType()
                    .defaultValue(8)
                    .withDescription(
                            "Large-Star/Small-Star round pairs of the connected-components step,"
                                    + " unrolled in the one dedupe job. The clusters step checks"
                                    + " that the components converged within them: a run on this"
                                    + " machine then repeats with four times as many, a job on a"
                                    + " cluster fails naming this option.");
}
