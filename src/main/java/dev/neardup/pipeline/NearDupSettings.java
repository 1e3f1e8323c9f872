package dev.neardup.pipeline;

import static dev.neardup.config.ConfigException.require;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.Setting;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.io.DocumentParser;
import dev.neardup.io.InputFields;
import dev.neardup.io.ParsedRecord;
import dev.neardup.lsh.Banding;
import dev.neardup.lsh.BlockParams;
import dev.neardup.lsh.ContainmentBanding;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.SimHashSketcher;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.MinHashAlgorithm;
import dev.neardup.sketch.SimHash;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Tokenizer;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ConfigOption;
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
    private final SimilarityFamily family;

    /** COSINE: D, k, B, the features; 0 and null for JACCARD. */
    private final int simHashBits;

    private final int maxHamming;
    private final int blocks;
    private final SimHashSketcher.Features features;

    /** CONTAINMENT: s, R and the tuning weights of the bandings; 0 for the other families. */
    private final int containmentSketchSize;

    private final double containmentMaxRatio;
    private final double fpWeight;
    private final double fnWeight;

    /** The cosine family's layout, or null for Jaccard. */
    private record Cosine(BlockParams blocks, SimHashSketcher.Features features) {}

    /** The containment mode's sketch size, size ratio and tuning weights, or null. */
    private record Containment(int sketchSize, double maxRatio, double fpWeight, double fnWeight) {}

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
            long pendingBufferBytes,
            Cosine cosine,
            Containment containment) {
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
        this.family =
                cosine != null
                        ? SimilarityFamily.COSINE
                        : containment != null
                                ? SimilarityFamily.CONTAINMENT
                                : SimilarityFamily.JACCARD;
        this.containmentSketchSize = containment == null ? 0 : containment.sketchSize();
        this.containmentMaxRatio = containment == null ? 0 : containment.maxRatio();
        this.fpWeight = containment == null ? 0 : containment.fpWeight();
        this.fnWeight = containment == null ? 0 : containment.fnWeight();
        this.simHashBits = cosine == null ? 0 : cosine.blocks().bits();
        this.maxHamming = cosine == null ? 0 : cosine.blocks().maxHamming();
        this.blocks = cosine == null ? 0 : cosine.blocks().blocks();
        this.features = cosine == null ? null : cosine.features();
    }

    /**
     * Reads and validates the options.
     *
     * @throws IllegalArgumentException naming the offending option and its allowed values
     */
    public static NearDupSettings from(ReadableConfig config) {
        Setting.check(config);
        SimilarityFamily family = config.get(NearDupOptions.SIMILARITY);
        Cosine cosine = family == SimilarityFamily.COSINE ? cosine(config) : null;
        if (family != SimilarityFamily.CONTAINMENT) {
            for (ConfigOption<?> only :
                    List.of(
                            NearDupOptions.CONTAINMENT_SKETCH_SIZE,
                            NearDupOptions.CONTAINMENT_MAX_RATIO)) {
                require(
                        config.getOptional(only).isEmpty(),
                        only.key(),
                        "applies to containment only: add "
                                + NearDupOptions.SIMILARITY.key()
                                + "=CONTAINMENT (--containment T), or remove it");
            }
        }
        if (cosine == null) {
            for (ConfigOption<?> only :
                    List.of(
                            NearDupOptions.MAX_HAMMING,
                            NearDupOptions.SIMHASH_BITS,
                            NearDupOptions.SIMHASH_BLOCKS)) {
                require(
                        config.getOptional(only).isEmpty(),
                        only.key(),
                        "applies to cosine similarity only: add "
                                + NearDupOptions.SIMILARITY.key()
                                + "=COSINE (--similarity cosine), or remove it");
            }
        }
        double threshold =
                cosine != null
                        ? SimHash.cosine(cosine.blocks().maxHamming(), cosine.blocks().bits())
                        : config.get(NearDupOptions.THRESHOLD);
        int numHashes = config.get(NearDupOptions.NUM_HASHES);
        Optional<Integer> bands = config.getOptional(NearDupOptions.BANDS);
        Optional<Integer> rows = config.getOptional(NearDupOptions.ROWS);
        require(
                bands.isPresent() == rows.isPresent(),
                NearDupOptions.BANDS.key() + "/" + NearDupOptions.ROWS.key(),
                "set both or neither (neither: chosen from the threshold)");
        LshParams banding;
        Containment containment = null;
        if (family == SimilarityFamily.CONTAINMENT) {
            require(
                    bands.isEmpty(),
                    NearDupOptions.BANDS.key() + "/" + NearDupOptions.ROWS.key(),
                    "with containment the bands are tuned per pair of size partitions from"
                            + " the threshold and "
                            + NearDupOptions.CONTAINMENT_MAX_RATIO.key()
                            + " (see 'neardup tune --containment T'); remove them");
            containment = containment(config, threshold, numHashes);
            // The size-partitioned keys play the part of b bands of one row (what verdicts count).
            banding =
                    new LshParams(
                            new ContainmentBanding(
                                            threshold,
                                            containment.maxRatio(),
                                            numHashes,
                                            containment.fpWeight(),
                                            containment.fnWeight())
                                    .keysPerDocument(),
                            1);
        } else if (cosine != null) {
            require(
                    bands.isEmpty(),
                    NearDupOptions.BANDS.key() + "/" + NearDupOptions.ROWS.key(),
                    "LSH bands are for Jaccard similarity; with cosine the tables come from "
                            + NearDupOptions.MAX_HAMMING.key()
                            + " and "
                            + NearDupOptions.SIMHASH_BLOCKS.key());
            // T tables play the part of b bands of one row each (what the verdicts count).
            banding = new LshParams(cosine.blocks().tables(), 1);
        } else if (bands.isPresent()) {
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
        ShingleOptions shingles =
                new ShingleOptions(
                        kind,
                        size,
                        config.get(NearDupOptions.STOP_WORDS),
                        config.get(NearDupOptions.STEMMING),
                        ShingleOptions.DEFAULT_SEED);
        int capacity = config.get(NearDupOptions.BUCKET_CAPACITY);
        Duration retention = config.get(NearDupOptions.RETENTION);
        long maxBytes = config.get(NearDupOptions.MAX_DOCUMENT_SIZE).getBytes();
        InputFields fields =
                new InputFields(
                        config.get(NearDupOptions.FIELD_ID),
                        config.get(NearDupOptions.FIELD_CONTENT),
                        config.get(NearDupOptions.FIELD_URL),
                        config.get(NearDupOptions.FIELD_CONTENT_TYPE),
                        config.get(NearDupOptions.FIELD_FETCHED_AT),
                        config.get(NearDupOptions.FIELD_DELETED));
        int bits = config.get(NearDupOptions.SIGNATURE_BITS);
        Duration skew = config.get(NearDupOptions.MAX_CLOCK_SKEW);
        Duration outOfOrderness = config.get(NearDupOptions.MAX_OUT_OF_ORDERNESS);
        Duration idle = config.get(NearDupOptions.IDLE_TIMEOUT);
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
                config.get(NearDupOptions.PENDING_BUFFER).getBytes(),
                cosine,
                containment);
    }

    /** The containment mode's options, validated. */
    private static Containment containment(ReadableConfig config, double threshold, int numHashes) {
        int s = config.get(NearDupOptions.CONTAINMENT_SKETCH_SIZE);
        double ratio = config.get(NearDupOptions.CONTAINMENT_MAX_RATIO);
        double fp = config.get(NearDupOptions.FP_WEIGHT);
        double fn = config.get(NearDupOptions.FN_WEIGHT);
        require(
                fp >= 0 && fn >= 0 && fp + fn > 0,
                NearDupOptions.FP_WEIGHT.key(),
                "weights must be >= 0 and not both 0");
        try {
            new ContainmentBanding(threshold, ratio, numHashes, fp, fn);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "invalid option "
                            + NearDupOptions.CONTAINMENT_MAX_RATIO.key()
                            + ": "
                            + e.getMessage());
        }
        return new Containment(s, ratio, fp, fn);
    }

    /**
     * The cosine family's options: D, k (from {@code neardup.max-hamming}, else from an explicit
     * {@code neardup.threshold} as the largest k whose cosine reaches it, else 3) and the block
     * layout (explicit B, else {@link BlockParams#suggestForCorpus} for the stated corpus size and
     * at most one random candidate per document).
     */
    private static Cosine cosine(ReadableConfig config) {
        int bits = config.get(NearDupOptions.SIMHASH_BITS);
        String bitsKey = NearDupOptions.SIMHASH_BITS.key();
        require(
                bits >= 64 && bits <= SimHash.MAX_BITS && bits % 64 == 0,
                bitsKey,
                "must be a multiple of 64 from 64 to " + SimHash.MAX_BITS + ", got " + bits);
        Optional<Integer> k = config.getOptional(NearDupOptions.MAX_HAMMING);
        Optional<Double> threshold = config.getOptional(NearDupOptions.THRESHOLD);
        String kKey = NearDupOptions.MAX_HAMMING.key();
        require(
                k.isEmpty() || threshold.isEmpty(),
                kKey,
                "set it or "
                        + NearDupOptions.THRESHOLD.key()
                        + ", not both: with cosine similarity the threshold is cos(pi k / D) ("
                        + k.map(
                                        v ->
                                                String.format(
                                                        java.util.Locale.ROOT,
                                                        "%.4f",
                                                        cosineOf(v, bits)))
                                .orElse("?")
                        + " for k = "
                        + k.orElse(0)
                        + " at D = "
                        + bits
                        + ")");
        int maxHamming;
        if (k.isPresent()) {
            maxHamming = k.get();
        } else if (threshold.isPresent()) {
            maxHamming = SimHash.maxHamming(threshold.get(), bits);
        } else {
            maxHamming = NearDupOptions.MAX_HAMMING.defaultValue();
        }
        require(
                maxHamming >= 0,
                kKey,
                "must be at least 0 (0: identical fingerprints only), got " + maxHamming);
        require(
                2 * maxHamming < bits,
                kKey,
                "must be below half the fingerprint length ("
                        + bits / 2
                        + " of "
                        + bits
                        + " bits): at k = "
                        + maxHamming
                        + " the threshold cos(pi k / D) would be "
                        + String.format(java.util.Locale.ROOT, "%.3f", cosineOf(maxHamming, bits))
                        + ", which orthogonal vectors reach. Near-duplicates are a few percent of"
                        + " the bits apart: 3 of 64 (cosine 0.989), 10 of 256");
        BlockParams layout;
        Optional<Integer> blocks = config.getOptional(NearDupOptions.SIMHASH_BLOCKS);
        String blocksKey = NearDupOptions.SIMHASH_BLOCKS.key();
        if (blocks.isPresent()) {
            require(
                    blocks.get() > maxHamming && blocks.get() <= bits,
                    blocksKey,
                    "must exceed k = "
                            + maxHamming
                            + " (so that a pair within distance k agrees on at least one block)"
                            + " and be at most "
                            + bits
                            + ", got "
                            + blocks.get());
            try {
                layout = new BlockParams(bits, maxHamming, blocks.get());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "invalid option " + blocksKey + ": " + e.getMessage());
            }
        } else {
            layout =
                    BlockParams.suggestForCorpus(
                            bits, maxHamming, config.get(NearDupOptions.SIMHASH_CORPUS_SIZE), 1.0);
        }
        return new Cosine(layout, config.get(NearDupOptions.SIMHASH_FEATURES));
    }

    private static double cosineOf(int k, int bits) {
        return Math.cos(Math.PI * Math.min(k, bits) / bits);
    }

    /** The similarity mode of these settings: what differs between the modes. */
    public SimilarityMode mode() {
        return SimilarityMode.of(this);
    }

    /** CONTAINMENT: the size-partitioned bandings. */
    public ContainmentBanding containmentBanding() {
        requireFamily(SimilarityFamily.CONTAINMENT);
        return new ContainmentBanding(
                threshold, containmentMaxRatio, numHashes, fpWeight, fnWeight);
    }

    /** CONTAINMENT: s, the bottom-s sample a bucket keeps per member. */
    public int containmentSketchSize() {
        requireFamily(SimilarityFamily.CONTAINMENT);
        return containmentSketchSize;
    }

    /** CONTAINMENT: R, the largest size ratio searched. */
    public double containmentMaxRatio() {
        requireFamily(SimilarityFamily.CONTAINMENT);
        return containmentMaxRatio;
    }

    /** Guards a family's own settings: asking cosine settings for a containment one is a bug. */
    private void requireFamily(SimilarityFamily expected) {
        if (family != expected) {
            throw new IllegalStateException(
                    "not " + expected.name().toLowerCase(Locale.ROOT) + " settings: " + family);
        }
    }

    /** The similarity family. */
    public SimilarityFamily family() {
        return family;
    }

    /** COSINE: D, the SimHash bits. */
    public int simHashBits() {
        requireFamily(SimilarityFamily.COSINE);
        return simHashBits;
    }

    /** COSINE: k, the largest Hamming distance of a match. */
    public int maxHamming() {
        requireFamily(SimilarityFamily.COSINE);
        return maxHamming;
    }

    /** COSINE: the block layout (B blocks, C(B, k) tables). */
    public BlockParams blockParams() {
        requireFamily(SimilarityFamily.COSINE);
        return new BlockParams(simHashBits, maxHamming, blocks);
    }

    /** COSINE: what a document's vector is made of. */
    public SimHashSketcher.Features simHashFeatures() {
        requireFamily(SimilarityFamily.COSINE);
        return features;
    }

    /** A new Jaccard sketcher for these settings (not thread-safe: one per operator instance). */
    public DocumentSketcher newSketcher() {
        if (family != SimilarityFamily.JACCARD) {
            throw new IllegalStateException(
                    "a MinHash sketcher for " + family + " settings: use mode().newSketcher()");
        }
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

    /**
     * The similarity from which documents are near-duplicates: the Jaccard threshold, or for cosine
     * cos(pi k / D).
     */
    public double threshold() {
        return threshold;
    }

    public int numHashes() {
        return numHashes;
    }

    /** Band keys per document: b bands, or for cosine the T tables. */
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
        return mode().describe();
    }
}
