package dev.neardup.pipeline;

import dev.neardup.io.DocumentParser;
import dev.neardup.io.InputFields;
import dev.neardup.io.ParsedRecord;
import dev.neardup.lsh.Banding;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.LshParams;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.MinHashAlgorithm;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Tokenizer;
import java.io.Serializable;
import java.time.Duration;
import java.util.Optional;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The validated settings of one job, read from {@link NearDupOptions}: what every operator needs,
 * immutable and serializable so it travels with the operators. {@link #from} fails fast with a
 * message naming the option and what to do.
 */
public final class NearDupSettings implements Serializable {

    private static final long serialVersionUID = 1L;

    private final double threshold;
    private final int numHashes;
    private final int bands;
    private final int rows;
    private final MinHashAlgorithm algorithm;
    private final ShingleOptions.Kind shingleKind;
    private final int shingleSize;
    private final boolean stopWords;
    private final Tokenizer.Stemming stemming;
    private final int bucketCapacity;
    private final long retentionMillis;
    private final int maxDocumentBytes;
    private final InputFields fields;
    private final int signatureBits;
    private final long maxClockSkewMillis;
    private final DocumentParser.FutureTimestamps futureTimestamps;
    private final long maxOutOfOrdernessMillis;
    private final long idleTimeoutMillis;
    private final long orderBufferBytes;
    private final long pendingBufferBytes;

    private NearDupSettings(
            double threshold,
            int numHashes,
            LshParams banding,
            MinHashAlgorithm algorithm,
            ShingleOptions shingles,
            int bucketCapacity,
            Duration retention,
            int maxDocumentBytes,
            InputFields fields,
            int signatureBits,
            Duration maxClockSkew,
            DocumentParser.FutureTimestamps futureTimestamps,
            Duration maxOutOfOrderness,
            Duration idleTimeout,
            long orderBufferBytes,
            long pendingBufferBytes) {
        this.threshold = threshold;
        this.numHashes = numHashes;
        this.bands = banding.bands();
        this.rows = banding.rows();
        this.algorithm = algorithm;
        this.shingleKind = shingles.kind();
        this.shingleSize = shingles.size();
        this.stopWords = shingles.removeStopWords();
        this.stemming = shingles.stemming();
        this.bucketCapacity = bucketCapacity;
        this.retentionMillis = retention.toMillis();
        this.maxDocumentBytes = maxDocumentBytes;
        this.fields = fields;
        this.signatureBits = signatureBits;
        this.maxClockSkewMillis = maxClockSkew.toMillis();
        this.futureTimestamps = futureTimestamps;
        this.maxOutOfOrdernessMillis = maxOutOfOrderness.toMillis();
        this.idleTimeoutMillis = idleTimeout.toMillis();
        this.orderBufferBytes = orderBufferBytes;
        this.pendingBufferBytes = pendingBufferBytes;
    }

    /**
     * Reads and validates the options.
     *
     * @throws IllegalArgumentException naming the offending option and its allowed values
     */
    public static NearDupSettings from(ReadableConfig config) {
        double threshold = config.get(NearDupOptions.THRESHOLD);
        require(
                threshold > 0 && threshold < 1,
                NearDupOptions.THRESHOLD.key(),
                "must be strictly between 0 and 1, got " + threshold);
        int numHashes = config.get(NearDupOptions.NUM_HASHES);
        require(
                numHashes >= 1 && numHashes <= 4096,
                NearDupOptions.NUM_HASHES.key(),
                "must be between 1 and 4096, got " + numHashes);
        Optional<Integer> bands = config.getOptional(NearDupOptions.BANDS);
        Optional<Integer> rows = config.getOptional(NearDupOptions.ROWS);
        require(
                bands.isPresent() == rows.isPresent(),
                NearDupOptions.BANDS.key() + "/" + NearDupOptions.ROWS.key(),
                "set both or neither (neither: chosen from the threshold)");
        LshParams banding;
        if (bands.isPresent()) {
            require(
                    bands.get() >= 1 && rows.get() >= 1,
                    NearDupOptions.BANDS.key(),
                    "bands and rows must be at least 1");
            banding = new LshParams(bands.get(), rows.get());
            require(
                    banding.numHashesUsed() <= numHashes,
                    NearDupOptions.BANDS.key(),
                    "bands x rows = "
                            + banding.numHashesUsed()
                            + " exceeds "
                            + NearDupOptions.NUM_HASHES.key()
                            + " = "
                            + numHashes);
        } else {
            double fp = config.get(NearDupOptions.FP_WEIGHT);
            double fn = config.get(NearDupOptions.FN_WEIGHT);
            require(
                    fp >= 0 && fn >= 0 && fp + fn > 0,
                    NearDupOptions.FP_WEIGHT.key(),
                    "weights must be >= 0 and not both 0");
            banding = LshParams.suggest(threshold, numHashes, fp, fn);
        }
        ShingleOptions.Kind kind = config.get(NearDupOptions.SHINGLE_KIND);
        int size =
                config.getOptional(NearDupOptions.SHINGLE_SIZE)
                        .orElse(
                                kind == ShingleOptions.Kind.WORD
                                        ? ShingleOptions.DEFAULT_WORD_SIZE
                                        : ShingleOptions.DEFAULT_CHAR_SIZE);
        require(
                size >= 1 && size <= ShingleOptions.MAX_SIZE,
                NearDupOptions.SHINGLE_SIZE.key(),
                "must be between 1 and " + ShingleOptions.MAX_SIZE + ", got " + size);
        ShingleOptions shingles =
                new ShingleOptions(
                        kind,
                        size,
                        config.get(NearDupOptions.STOP_WORDS),
                        config.get(NearDupOptions.STEMMING),
                        ShingleOptions.DEFAULT_SEED);
        int capacity = config.get(NearDupOptions.BUCKET_CAPACITY);
        require(
                capacity >= 1 && capacity <= 100_000,
                NearDupOptions.BUCKET_CAPACITY.key(),
                "must be between 1 and 100000, got " + capacity);
        Duration retention = config.get(NearDupOptions.RETENTION);
        require(
                !retention.isNegative() && !retention.isZero(),
                NearDupOptions.RETENTION.key(),
                "must be positive, got " + retention);
        long maxBytes = config.get(NearDupOptions.MAX_DOCUMENT_SIZE).getBytes();
        require(
                maxBytes >= 1024 && maxBytes <= 512L * 1024 * 1024,
                NearDupOptions.MAX_DOCUMENT_SIZE.key(),
                "must be between 1kb and 512mb, got " + maxBytes + " bytes");
        InputFields fields =
                new InputFields(
                        nonBlank(
                                config.get(NearDupOptions.FIELD_ID), NearDupOptions.FIELD_ID.key()),
                        nonBlank(
                                config.get(NearDupOptions.FIELD_CONTENT),
                                NearDupOptions.FIELD_CONTENT.key()),
                        config.get(NearDupOptions.FIELD_URL),
                        config.get(NearDupOptions.FIELD_CONTENT_TYPE),
                        config.get(NearDupOptions.FIELD_FETCHED_AT),
                        config.get(NearDupOptions.FIELD_DELETED));
        int bits = config.get(NearDupOptions.SIGNATURE_BITS);
        require(
                bits == 1 || bits == 2 || bits == 4 || bits == 8 || bits == 16,
                NearDupOptions.SIGNATURE_BITS.key(),
                "must be 1, 2, 4, 8 or 16, got " + bits);
        Duration skew = config.get(NearDupOptions.MAX_CLOCK_SKEW);
        require(
                !skew.isNegative(),
                NearDupOptions.MAX_CLOCK_SKEW.key(),
                "must not be negative, got " + skew);
        Duration outOfOrderness = config.get(NearDupOptions.MAX_OUT_OF_ORDERNESS);
        require(
                !outOfOrderness.isNegative(),
                NearDupOptions.MAX_OUT_OF_ORDERNESS.key(),
                "must not be negative (0 for inputs in event-time order), got " + outOfOrderness);
        Duration idle = config.get(NearDupOptions.IDLE_TIMEOUT);
        require(
                !idle.isNegative() && !idle.isZero(),
                NearDupOptions.IDLE_TIMEOUT.key(),
                "must be positive, got " + idle);
        return new NearDupSettings(
                threshold,
                numHashes,
                banding,
                config.get(NearDupOptions.ALGORITHM),
                shingles,
                capacity,
                retention,
                (int) maxBytes,
                fields,
                bits,
                skew,
                config.get(NearDupOptions.FUTURE_TIMESTAMPS),
                outOfOrderness,
                idle,
                config.get(NearDupOptions.ORDER_BUFFER).getBytes(),
                config.get(NearDupOptions.PENDING_BUFFER).getBytes());
    }

    private static String nonBlank(String value, String key) {
        require(value != null && !value.isBlank(), key, "must not be blank");
        return value;
    }

    private static void require(boolean ok, String key, String message) {
        if (!ok) {
            throw new IllegalArgumentException("invalid option " + key + ": " + message);
        }
    }

    /** A new sketcher for these settings (not thread-safe: one per operator instance). */
    public DocumentSketcher newSketcher() {
        return new DocumentSketcher(
                shingleOptions(),
                MinHash.create(algorithm, numHashes, MinHash.DEFAULT_SEED),
                new Banding(banding()));
    }

    public ShingleOptions shingleOptions() {
        return new ShingleOptions(
                shingleKind, shingleSize, stopWords, stemming, ShingleOptions.DEFAULT_SEED);
    }

    public LshParams banding() {
        return new LshParams(bands, rows);
    }

    public double threshold() {
        return threshold;
    }

    public int numHashes() {
        return numHashes;
    }

    public int bands() {
        return bands;
    }

    public int rows() {
        return rows;
    }

    public MinHashAlgorithm algorithm() {
        return algorithm;
    }

    public int bucketCapacity() {
        return bucketCapacity;
    }

    public long retentionMillis() {
        return retentionMillis;
    }

    public int maxDocumentBytes() {
        return maxDocumentBytes;
    }

    public InputFields fields() {
        return fields;
    }

    /** b, the bits of each MinHash value a bucket keeps per member. */
    public int signatureBits() {
        return signatureBits;
    }

    /**
     * Bytes of waiting band records a bucket subtask keeps on the heap ({@link
     * NearDupOptions#ORDER_BUFFER}).
     */
    public long orderBufferBytes() {
        return orderBufferBytes;
    }

    /**
     * Heap bytes per verdict subtask for verdicts being assembled ({@link
     * NearDupOptions#PENDING_BUFFER}).
     */
    public long pendingBufferBytes() {
        return pendingBufferBytes;
    }

    /** The parser of input records, with these field names, size limit and clock-skew rule. */
    public DocumentParser parser() {
        return new DocumentParser(fields, maxDocumentBytes, maxClockSkewMillis, futureTimestamps);
    }

    /** Watermarks of an unbounded input (see {@link DocumentWatermarks}). */
    public WatermarkStrategy<ParsedRecord> watermarks() {
        return DocumentWatermarks.boundedOutOfOrderness(
                Duration.ofMillis(maxOutOfOrdernessMillis), Duration.ofMillis(idleTimeoutMillis));
    }

    /** One line describing the settings, for logs and the CLI. */
    @Override
    public String toString() {
        return String.format(
                "threshold=%.2f K=%d %s (effective threshold %.3f) minhash=%s shingles=%s/%d%s%s"
                        + " bucket-capacity=%d signature-bits=%d retention=%s",
                threshold,
                numHashes,
                banding(),
                banding().effectiveThreshold(),
                algorithm,
                shingleKind,
                shingleSize,
                stopWords ? " stop-words" : "",
                stemming == Tokenizer.Stemming.NONE ? "" : " stem=" + stemming,
                bucketCapacity,
                signatureBits,
                Duration.ofMillis(retentionMillis));
    }
}
