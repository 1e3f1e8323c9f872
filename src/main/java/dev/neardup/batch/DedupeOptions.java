package dev.neardup.batch;

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
                                    + " cluster has an estimated similarity of at least this to the"
                                    + " cluster's earliest document (docs/dedupe.md: the chaining"
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

    public static final ConfigOption<CandidateMethod> CANDIDATES =
            ConfigOptions.key("neardup.dedupe.candidates")
                    .enumType(CandidateMethod.class)
                    .defaultValue(CandidateMethod.BLOCKS)
                    .withDescription(
                            "How candidate pairs are found: BLOCKS (shared band keys, or with"
                                    + " cosine the permuted-block tables: every pair within"
                                    + " max-hamming) or WINDOW (cosine only: a sliding"
                                    + " window over sorted, permuted fingerprints).");

    public static final ConfigOption<Integer> WINDOW =
            ConfigOptions.key("neardup.dedupe.window")
                    .intType()
                    .defaultValue(8)
                    .withDescription(
                            "WINDOW candidates: each fingerprint is compared with the next W in"
                                    + " every sorted order.");

    public static final ConfigOption<Integer> PERMUTATIONS =
            ConfigOptions.key("neardup.dedupe.permutations")
                    .intType()
                    .defaultValue(10)
                    .withDescription(
                            "WINDOW candidates: how many random permutations of the fingerprint"
                                    + " bits are sorted.");

    public static final ConfigOption<Integer> WINDOW_PREFIX_BITS =
            ConfigOptions.key("neardup.dedupe.window-prefix-bits")
                    .intType()
                    .defaultValue(4)
                    .withDescription(
                            "WINDOW candidates: each sorted order is cut into 2^p range"
                                    + " partitions by the first p permuted bits, sorted and"
                                    + " scanned by separate tasks (pairs across a partition"
                                    + " boundary are not compared).");

    public static final ConfigOption<VerifyMode> VERIFY =
            ConfigOptions.key("neardup.dedupe.verify")
                    .enumType(VerifyMode.class)
                    .noDefaultValue()
                    .withDescription(
                            "How a candidate pair is verified: EXACT (Jaccard only, its default:"
                                    + " exact Jaccard of the two shingle sets, so the clusters are"
                                    + " the components of the exact similarity graph) or"
                                    + " SIGNATURE (the estimate from the full MinHash signatures,"
                                    + " as the streaming job; the only mode of cosine).");
}
