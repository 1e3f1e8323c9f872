package dev.neardup.dedupe;

import dev.neardup.pipeline.NearDupSettings;
import java.io.Serializable;
import java.util.List;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The validated settings of one dedupe run: the job settings it shares with the streaming job, the
 * dedupe options ({@link DedupeOptions}), the names of the inputs (for input order) and the
 * ingestion time given to documents without fetchedAt. Immutable and serializable.
 */
public final class DedupeSettings implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The most component rounds a job unrolls. */
    public static final int MAX_ROUNDS = 128;

    private final NearDupSettings job;
    private final KeepPolicy keepPolicy;
    private final double splitBelow;
    private final int blockSize;
    private final int rounds;
    private final List<String> inputNames;
    private final long ingestTime;

    private DedupeSettings(
            NearDupSettings job,
            KeepPolicy keepPolicy,
            double splitBelow,
            int blockSize,
            int rounds,
            List<String> inputNames,
            long ingestTime) {
        this.job = job;
        this.keepPolicy = keepPolicy;
        this.splitBelow = splitBelow;
        this.blockSize = blockSize;
        this.rounds = rounds;
        this.inputNames = List.copyOf(inputNames);
        this.ingestTime = ingestTime;
    }

    /**
     * Reads and validates the options.
     *
     * @param inputNames how each input is named in record sources, in input order
     * @param ingestTime the event time of documents without fetchedAt (the run's start): they are
     *     then ordered by id among themselves, the same in every run
     * @throws IllegalArgumentException naming the offending option
     */
    public static DedupeSettings from(
            ReadableConfig config, List<String> inputNames, long ingestTime) {
        NearDupSettings job = NearDupSettings.from(config);
        double floor = config.getOptional(DedupeOptions.SPLIT_BELOW).orElse(Double.NaN);
        require(
                Double.isNaN(floor) || (floor > 0 && floor <= 1),
                DedupeOptions.SPLIT_BELOW.key(),
                "must be in (0, 1], got " + floor);
        int block = config.get(DedupeOptions.BLOCK_SIZE);
        require(
                block >= 2 && block <= 1_000_000,
                DedupeOptions.BLOCK_SIZE.key(),
                "must be between 2 and 1000000, got " + block);
        int rounds = config.get(DedupeOptions.ROUNDS);
        require(
                rounds >= 1 && rounds <= MAX_ROUNDS,
                DedupeOptions.ROUNDS.key(),
                "must be between 1 and " + MAX_ROUNDS + ", got " + rounds);
        return new DedupeSettings(
                job,
                config.get(DedupeOptions.KEEP_POLICY),
                floor,
                block,
                rounds,
                inputNames,
                ingestTime);
    }

    private static void require(boolean ok, String key, String message) {
        if (!ok) {
            throw new IllegalArgumentException("invalid option " + key + ": " + message);
        }
    }

    public NearDupSettings job() {
        return job;
    }

    public KeepPolicy keepPolicy() {
        return keepPolicy;
    }

    /** The chaining guard's floor; NaN when the guard is off. */
    public double splitBelow() {
        return splitBelow;
    }

    public boolean guarded() {
        return !Double.isNaN(splitBelow);
    }

    public int blockSize() {
        return blockSize;
    }

    /** Component rounds the job unrolls ({@link DedupeOptions#ROUNDS}). */
    public int rounds() {
        return rounds;
    }

    /** These settings with {@code n} component rounds. */
    public DedupeSettings withRounds(int n) {
        return new DedupeSettings(
                job, keepPolicy, splitBelow, blockSize, n, inputNames, ingestTime);
    }

    public List<String> inputNames() {
        return inputNames;
    }

    public long ingestTime() {
        return ingestTime;
    }

    @Override
    public String toString() {
        return String.format(
                java.util.Locale.ROOT,
                "threshold=%.2f K=%d %s (effective threshold %.3f) minhash=%s keep=%s"
                        + " split-below=%s block-size=%d",
                job.threshold(),
                job.numHashes(),
                job.banding(),
                job.banding().effectiveThreshold(),
                job.algorithm(),
                keepPolicy.name().toLowerCase(java.util.Locale.ROOT),
                guarded() ? String.valueOf(splitBelow) : "off",
                blockSize);
    }
}
