package dev.neardup.config;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;

/**
 * The options of {@code neardup dedupe} beyond the job options it shares with the streaming job
 * ({@link dev.neardup.config.NearDupOptions}: threshold, banding, shingles, MinHash), as typed
 * Flink {@link ConfigOption}s; the dedupe settings validates them.
 */
public final class DedupeOptions {

    private DedupeOptions() {}

    /** The most label-propagation rounds a dedupe attempt may take. */
    public static final int MAX_ROUNDS = 128;

    public static final ConfigOption<KeepPolicy> KEEP_POLICY =
            Setting.of(
                            "neardup.dedupe.keep-policy",
                            KeepPolicy.EARLIEST,
                            "Which document of a cluster the keep list names: EARLIEST (by"
                                + " fetchedAt, then id: the cluster id), LONGEST content, or FIRST"
                                + " in input order.")
                    .flag("earliest|longest|first", "--keep-policy")
                    .declare();

    public static final ConfigOption<Double> SPLIT_BELOW =
            Setting.withoutDefault(
                            "neardup.dedupe.split-below",
                            Double.class,
                            "Chaining guard: cut a connected component so that every member of a"
                                    + " cluster has an estimated similarity of at least this to the"
                                    + " cluster's earliest document (docs/dedupe.md: the chaining"
                                    + " guard). Unset: clusters are the connected components.")
                    .flag("S", "--split-below")
                    .aboveUpTo(0.0, 1.0)
                    .declare();

    public static final ConfigOption<Integer> BLOCK_SIZE =
            Setting.of(
                            "neardup.dedupe.block-size",
                            1024,
                            "A band bucket with more distinct signatures than this is cut into"
                                + " blocks of this size, compared block against block by separate"
                                + " tasks; no member is dropped.")
                    .flag("N", "--block-size")
                    .between(2, 1_000_000)
                    .declare();

    public static final ConfigOption<Integer> ROUNDS =
            Setting.of(
                            "neardup.dedupe.rounds",
                            8,
                            "Large-Star/Small-Star round pairs of the connected-components step,"
                                + " unrolled in the one dedupe job. The clusters step checks that"
                                + " the components converged within them: a run on this machine"
                                + " then repeats with four times as many, a job on a cluster fails"
                                + " naming this option.")
                    .between(1, MAX_ROUNDS)
                    .declare();

    public static final ConfigOption<Integer> COMPONENTS_IN_MEMORY =
            Setting.of(
                            "neardup.dedupe.components-in-memory",
                            1_000_000,
                            "The most documents of the verified pairs whose connected components"
                                + " one task finds in memory, before the Large-Star/Small-Star"
                                + " rounds (about 150 bytes of heap a document). When one task"
                                + " holds every pair within it, the rounds have nothing to do; else"
                                + " they get the stars of what it held, and the pairs beyond it. 0"
                                + " leaves every pair to the rounds.")
                    .between(0, 100_000_000)
                    .declare();

    public static final ConfigOption<CandidateMethod> CANDIDATES =
            Setting.of(
                            "neardup.dedupe.candidates",
                            CandidateMethod.BLOCKS,
                            "How candidate pairs are found: BLOCKS (shared band keys, or with"
                                    + " cosine the permuted-block tables: every pair within"
                                    + " max-hamming) or WINDOW (cosine only: a sliding window over"
                                    + " sorted, permuted fingerprints).")
                    .flag("blocks|window", "--candidates")
                    .declare();

    public static final ConfigOption<Integer> WINDOW =
            Setting.of(
                            "neardup.dedupe.window",
                            8,
                            "WINDOW candidates: each fingerprint is compared with the next W in"
                                    + " every sorted order.")
                    .flag("W", "--window")
                    .between(1, 100_000)
                    .declare();

    public static final ConfigOption<Integer> PERMUTATIONS =
            Setting.of(
                            "neardup.dedupe.permutations",
                            10,
                            "WINDOW candidates: how many random permutations of the fingerprint"
                                    + " bits are sorted.")
                    .flag("P", "--permutations")
                    .between(1, 256)
                    .declare();

    public static final ConfigOption<Integer> WINDOW_PREFIX_BITS =
            Setting.of(
                            "neardup.dedupe.window-prefix-bits",
                            4,
                            "WINDOW candidates: each sorted order is cut into 2^p range partitions"
                                + " by the first p permuted bits, sorted and scanned by separate"
                                + " tasks (pairs across a partition boundary are not compared).")
                    .between(0, 16)
                    .declare();

    public static final ConfigOption<VerifyMode> VERIFY =
            Setting.withoutDefault(
                            "neardup.dedupe.verify",
                            VerifyMode.class,
                            "How a candidate pair is verified: EXACT (Jaccard only, its default:"
                                + " exact Jaccard of the two shingle sets, so the clusters are the"
                                + " components of the exact similarity graph) or SIGNATURE (the"
                                + " estimate from the full MinHash signatures, as the streaming"
                                + " job; the only mode of cosine).")
                    .flag("exact|signature", "--verify")
                    .declare();

    public static final ConfigOption<MemorySize> REPEAT_FILTER =
            Setting.of(
                            "neardup.dedupe.repeat-filter",
                            MemorySize.parse("32mb"),
                            "Heap per subtask for the filter of the ids, contents and band keys"
                                + " that occur more than once in the input (Bloom filters, counted"
                                + " per subtask, twice this while counting and merging; merged"
                                + " where the documents are routed). A document whose id and"
                                + " content occur once skips the latest-version and exact-copy"
                                + " steps, and only its band keys that another document may share"
                                + " go to the band buckets. Size it to the documents per subtask:"
                                + " at 32mb and 21 bands about 1 in 10,000 keys that occur once"
                                + " pass as repeated up to 500,000 documents per subtask, under 1"
                                + " in 100 up to a million; beyond, more go the long way (slower,"
                                + " never wrong). Rounded down to whole 128kb, at least 128kb; 0"
                                + " turns it off.")
                    .between(MemorySize.ZERO, MemorySize.parse("1gb"))
                    .declare();
}
