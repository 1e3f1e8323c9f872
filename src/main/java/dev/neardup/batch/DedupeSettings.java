package dev.neardup.batch;

import static dev.neardup.config.ConfigException.require;

import dev.neardup.config.CandidateMethod;
import dev.neardup.config.DedupeOptions;
import dev.neardup.config.KeepPolicy;
import dev.neardup.config.ModeSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.VerifyMode;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.RepeatFilter;
import dev.neardup.lsh.SortedWindow;
import dev.neardup.similarity.BatchSketches;
import dev.neardup.similarity.MemberSketches;
import dev.neardup.similarity.SimilarityMode;
import java.io.Serializable;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The validated settings of one dedupe run: the job settings it shares with the streaming job, the
 * dedupe options ({@link DedupeOptions}) and the names of the inputs, in input order; what differs
 * between the similarity modes is the mode's {@link BatchSketches}. Immutable and serializable.
 */
public record DedupeSettings(
        NearDupSettings job,
        KeepPolicy keepPolicy,
        double splitBelow,
        int blockSize,
        int rounds,
        List<String> inputNames,
        CandidateMethod candidates,
        int window,
        int permutations,
        int windowPrefixBits,
        VerifyMode verify,
        // LshParams is not serializable: its bands and rows.
        int candidateBands,
        int candidateRows,
        long repeatFilterBytes,
        int componentsInMemory)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    /**
     * The probability that the candidate bands of a dedupe make a pair at exactly the threshold a
     * candidate, unless --bands/--rows (or the tuning weights) are given: {@link
     * LshParams#forRecall}.
     */
    public static final double CANDIDATE_RECALL = 0.99;

    /**
     * With exact verification, candidates whose MinHash estimate is at least this many standard
     * errors, sqrt(t (1 - t) / K), below the threshold t are verified exactly (the others cannot
     * reach t but with a probability of about 3e-5 under the normal approximation).
     */
    public static final double EXACT_MARGIN_ERRORS = 4;

    /**
     * {@code splitBelow} is NaN when the chaining guard is off; {@code inputNames} in input order.
     */
    public DedupeSettings {
        inputNames = List.copyOf(inputNames);
    }

    /**
     * Reads and validates the options.
     *
     * @param inputNames how each input is named in record sources, in input order
     * @throws IllegalArgumentException naming the offending option
     */
    public static DedupeSettings from(ReadableConfig given, List<String> inputNames) {
        ReadableConfig config = ModeSettings.forBatch(given);
        NearDupSettings job = NearDupSettings.from(config);
        BatchSketches batch = SimilarityMode.of(job).batch();
        CandidateMethod candidates = config.get(DedupeOptions.CANDIDATES);
        require(
                batch.slidingWindow() || candidates == CandidateMethod.BLOCKS,
                DedupeOptions.CANDIDATES.key(),
                "the sliding window sorts SimHash fingerprints: add --similarity cosine, or use"
                        + " --candidates blocks (the LSH bands of Jaccard)");
        if (candidates == CandidateMethod.BLOCKS) {
            for (ConfigOption<Integer> only :
                    List.of(
                            DedupeOptions.WINDOW,
                            DedupeOptions.PERMUTATIONS,
                            DedupeOptions.WINDOW_PREFIX_BITS)) {
                require(
                        config.getOptional(only).isEmpty(),
                        only.key(),
                        "applies to the sliding window only: add --candidates window, or remove"
                                + " it");
            }
        }
        VerifyMode verify =
                config.getOptional(DedupeOptions.VERIFY)
                        .orElse(
                                batch.exactVerification()
                                        ? VerifyMode.EXACT
                                        : VerifyMode.SIGNATURE);
        require(
                batch.exactVerification() || verify == VerifyMode.SIGNATURE,
                DedupeOptions.VERIFY.key(),
                "exact verification compares shingle sets (Jaccard); with --similarity cosine"
                        + " pairs are verified by the Hamming distance of their fingerprints:"
                        + " remove --verify exact, or use --verify signature");
        boolean tunedBanding =
                config.getOptional(NearDupOptions.BANDS).isPresent()
                        || config.getOptional(NearDupOptions.FP_WEIGHT).isPresent()
                        || config.getOptional(NearDupOptions.FN_WEIGHT).isPresent();
        LshParams candidateBanding = batch.candidateBanding(tunedBanding, CANDIDATE_RECALL);
        return new DedupeSettings(
                job,
                config.get(DedupeOptions.KEEP_POLICY),
                config.getOptional(DedupeOptions.SPLIT_BELOW).orElse(Double.NaN),
                config.get(DedupeOptions.BLOCK_SIZE),
                config.get(DedupeOptions.ROUNDS),
                inputNames,
                candidates,
                config.get(DedupeOptions.WINDOW),
                config.get(DedupeOptions.PERMUTATIONS),
                config.get(DedupeOptions.WINDOW_PREFIX_BITS),
                verify,
                candidateBanding.bands(),
                candidateBanding.rows(),
                config.get(DedupeOptions.REPEAT_FILTER).getBytes(),
                config.get(DedupeOptions.COMPONENTS_IN_MEMORY));
    }

    /** The similarity mode of the job settings. */
    public SimilarityMode mode() {
        return SimilarityMode.of(job);
    }

    /** What differs between the similarity modes in the dedupe. */
    public BatchSketches batch() {
        return mode().batch();
    }

    /**
     * What a bucket entry carries ({@link BatchSketches#memberSketches}): with exact verification,
     * the estimate only screens candidates at {@link #candidateFloor}.
     */
    public MemberSketches newMemberSketches() {
        return batch().memberSketches(candidateBanding(), exact());
    }

    /**
     * The LSH bands of the candidate stage (Jaccard): unless --bands/--rows or the tuning weights
     * are given, chosen for the dedupe's question, every pair at the threshold ({@link
     * LshParams#forRecall} at {@link #CANDIDATE_RECALL}: 21 x 6 at t = 0.8, K = 128), not the
     * streaming job's trade-off (11 x 11 finds 63% of the pairs at exactly 0.8 in a bucket).
     */
    public LshParams candidateBanding() {
        return new LshParams(candidateBands, candidateRows);
    }

    /** Whether candidates are verified by the exact Jaccard of their shingle sets. */
    public boolean exact() {
        return verify == VerifyMode.EXACT;
    }

    /**
     * The lowest estimate a candidate in a bucket needs to go on: the threshold when the estimate
     * decides; with exact verification {@link #EXACT_MARGIN_ERRORS} standard errors below it.
     */
    public double candidateFloor() {
        double t = job.similarity().threshold();
        if (!exact()) {
            return t;
        }
        return Math.max(
                0, t - EXACT_MARGIN_ERRORS * Math.sqrt(t * (1 - t) / job.text().numHashes()));
    }

    /** The sliding window of these settings (cosine, WINDOW candidates). */
    public SortedWindow newSortedWindow() {
        return batch().sortedWindow(permutations, window);
    }

    public boolean guarded() {
        return !Double.isNaN(splitBelow);
    }

    public DedupeSettings withRounds(int n) {
        return new DedupeSettings(
                job,
                keepPolicy,
                splitBelow,
                blockSize,
                n,
                inputNames,
                candidates,
                window,
                permutations,
                windowPrefixBits,
                verify,
                candidateBands,
                candidateRows,
                repeatFilterBytes,
                componentsInMemory);
    }

    /**
     * Whether the job counts the keys that occur more than once ({@link
     * DedupeOptions#REPEAT_FILTER} above 0), so that documents that occur once take the short way.
     */
    public boolean repeatFilter() {
        return repeatFilterBytes > 0;
    }

    /** The chunks of the repeat filter ({@link RepeatFilter#chunksFor}). */
    public int repeatFilterChunks() {
        return RepeatFilter.chunksFor(repeatFilterBytes);
    }

    @Override
    public String toString() {
        return batch().describeDedupe(
                        candidateBanding(),
                        exact()
                                ? String.format(
                                        java.util.Locale.ROOT,
                                        "exact (candidates estimated >= %.3f)",
                                        candidateFloor())
                                : "signature",
                        candidates == CandidateMethod.WINDOW
                                ? String.format(
                                        java.util.Locale.ROOT,
                                        "window (%d permutations x %d, 2^%d partitions each)",
                                        permutations,
                                        window,
                                        windowPrefixBits)
                                : null,
                        "keep="
                                + keepPolicy.name().toLowerCase(java.util.Locale.ROOT)
                                + " split-below="
                                + (guarded() ? String.valueOf(splitBelow) : "off"),
                        blockSize);
    }
}
