package dev.neardup.config;

import static dev.neardup.config.ConfigException.require;

import dev.neardup.lsh.BlockParams;
import dev.neardup.lsh.SimHashSketcher;
import dev.neardup.sketch.SimHash;
import java.util.Locale;
import java.util.Optional;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Cosine similarity: the threshold's k, the SimHash block layout (D bits, the tables' radius k_t, B
 * blocks), the verification bits and what a document's vector is made of. The threshold is cos(pi k
 * / D); the tables find every pair within Hamming distance k_t, at least k.
 *
 * @param blocks D, k_t and B (C(B, k_t) tables)
 * @param maxHamming k, which sets the threshold cos(pi k / D); at most the tables' radius k_t
 * @param features what a document's vector is made of
 * @param verifyBits V, the Gaussian hyperplane bits that judge candidates (0: the D bits do), or
 *     with {@link CosineVerify#EXACT} screen them in the buckets (0: every candidate is verified)
 * @param verify how candidates are judged: on the bits, or on the exact cosine of the
 *     term-frequency vectors
 */
public record CosineSettings(
        BlockParams blocks,
        int maxHamming,
        SimHashSketcher.Features features,
        int verifyBits,
        CosineVerify verify)
        implements ModeSettings {

    /** V by default with {@link CosineVerify#BITS}: the bits judge pairs. */
    public static final int DEFAULT_VERIFY_BITS = 256;

    /**
     * V by default with {@link CosineVerify#EXACT}: the bits screen candidates; 384 let through
     * 4.5% of the unrelated pairs at cosine 0.93 (21% at 256, 0.9% at 512), the fastest on a crawl
     * whose unrelated pages sit there.
     */
    public static final int DEFAULT_SCREEN_BITS = 384;

    public CosineSettings {
        if (maxHamming < 0 || maxHamming > blocks.maxHamming()) {
            throw new IllegalArgumentException(
                    "k must be between 0 and the tables' radius %s, got %s"
                            .formatted(blocks.maxHamming(), maxHamming));
        }
    }

    /** Tables of radius k, judged as {@code verify} says. */
    public CosineSettings(
            BlockParams blocks,
            SimHashSketcher.Features features,
            int verifyBits,
            CosineVerify verify) {
        this(blocks, blocks.maxHamming(), features, verifyBits, verify);
    }

    /**
     * Tables of radius k, judged on V verification bits, or on the D-bit fingerprint when V is 0.
     */
    public CosineSettings(BlockParams blocks, SimHashSketcher.Features features, int verifyBits) {
        this(blocks, features, verifyBits, CosineVerify.BITS);
    }

    /** Tables of radius k, without verification bits: pairs are judged on the D-bit fingerprint. */
    public CosineSettings(BlockParams blocks, SimHashSketcher.Features features) {
        this(blocks, features, 0);
    }

    /** k_t, the Hamming distance within which the tables find every pair (at least k). */
    public int tableHamming() {
        return blocks.maxHamming();
    }

    /** Whether candidates are judged on the exact cosine of their term-frequency vectors. */
    public boolean exact() {
        return verify == CosineVerify.EXACT;
    }

    /**
     * The cosine options: D, k (from {@code neardup.max-hamming}, else from an explicit {@code
     * neardup.threshold} as the largest k whose cosine reaches it, else 3), the tables' radius k_t
     * ({@code neardup.simhash.table-hamming}, at least k, default k) and the block layout for k_t
     * (explicit B, else {@link BlockParams#suggestForCorpus} for the stated corpus size and at most
     * one random candidate per document).
     */
    public static CosineSettings from(ReadableConfig config) {
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
                        + k.map(v -> String.format(Locale.ROOT, "%.4f", cosineOf(v, bits)))
                                .orElse("?")
                        + " for k = "
                        + k.orElse(0)
                        + " at D = "
                        + bits
                        + ")");
        int maxHamming =
                k.isPresent()
                        ? k.get()
                        : threshold.isPresent()
                                ? SimHash.maxHamming(threshold.get(), bits)
                                : NearDupOptions.MAX_HAMMING.defaultValue();
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
                        + String.format(Locale.ROOT, "%.3f", cosineOf(maxHamming, bits))
                        + ", which orthogonal vectors reach. Near-duplicates are a few percent of"
                        + " the bits apart: 3 of 64 (cosine 0.989), 10 of 256");
        CosineVerify verify = config.get(NearDupOptions.SIMHASH_VERIFY);
        int verifyBits =
                config.getOptional(NearDupOptions.SIMHASH_VERIFY_BITS)
                        .orElse(
                                verify == CosineVerify.EXACT
                                        ? DEFAULT_SCREEN_BITS
                                        : DEFAULT_VERIFY_BITS);
        require(
                verifyBits >= 0 && verifyBits <= SimHash.MAX_BITS && verifyBits % 64 == 0,
                NearDupOptions.SIMHASH_VERIFY_BITS.key(),
                "must be a multiple of 64 from 0 ("
                        + (verify == CosineVerify.EXACT
                                ? "verify every candidate"
                                : "judge pairs on the " + bits + "-bit fingerprint")
                        + ") to "
                        + SimHash.MAX_BITS
                        + ", got "
                        + verifyBits);
        int tableHamming = tableHamming(config, bits, maxHamming, verify, verifyBits);
        String radius =
                tableHamming == maxHamming
                        ? "k = " + maxHamming
                        : "the tables' radius "
                                + NearDupOptions.SIMHASH_TABLE_HAMMING.key()
                                + " = "
                                + tableHamming;
        BlockParams layout;
        Optional<Integer> blocks = config.getOptional(NearDupOptions.SIMHASH_BLOCKS);
        String blocksKey = NearDupOptions.SIMHASH_BLOCKS.key();
        if (blocks.isPresent()) {
            require(
                    blocks.get() > tableHamming && blocks.get() <= bits,
                    blocksKey,
                    ("must exceed %s (so that a pair within that distance agrees on at least"
                                    + " one block) and be at most %s, got %s")
                            .formatted(radius, bits, blocks.get()));
            try {
                layout = new BlockParams(bits, tableHamming, blocks.get());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "invalid option " + blocksKey + ": " + e.getMessage());
            }
        } else {
            layout =
                    BlockParams.suggestForCorpus(
                            bits,
                            tableHamming,
                            config.get(NearDupOptions.SIMHASH_CORPUS_SIZE),
                            1.0);
        }
        return new CosineSettings(
                layout,
                maxHamming,
                config.get(NearDupOptions.SIMHASH_FEATURES),
                verifyBits,
                verify);
    }

    /**
     * k_t from {@code neardup.simhash.table-hamming}, else k: at least k (the tables must find
     * every pair the threshold accepts) and below D / 2; above k only where something other than
     * the fingerprint judges the pairs it adds.
     */
    private static int tableHamming(
            ReadableConfig config, int bits, int maxHamming, CosineVerify verify, int verifyBits) {
        Optional<Integer> given = config.getOptional(NearDupOptions.SIMHASH_TABLE_HAMMING);
        if (given.isEmpty()) {
            return maxHamming;
        }
        int kt = given.get();
        String key = NearDupOptions.SIMHASH_TABLE_HAMMING.key();
        require(
                kt >= maxHamming,
                key,
                ("must be at least k = %s (%s): the tables must find every pair within the"
                                + " threshold's distance, got %s")
                        .formatted(maxHamming, NearDupOptions.MAX_HAMMING.key(), kt));
        require(
                2 * kt < bits,
                key,
                "must be below half the fingerprint length (%s of %s bits), got %s"
                        .formatted(bits / 2, bits, kt));
        require(
                kt == maxHamming || verify == CosineVerify.EXACT || verifyBits > 0,
                key,
                ("%s above k = %s finds pairs further apart than k, and with %s=BITS and %s=0"
                                + " the fingerprint judges them: it would reject every pair the"
                                + " wider tables add. Keep it at %s, or judge on verification"
                                + " bits or the exact cosine")
                        .formatted(
                                kt,
                                maxHamming,
                                NearDupOptions.SIMHASH_VERIFY.key(),
                                NearDupOptions.SIMHASH_VERIFY_BITS.key(),
                                maxHamming));
        return kt;
    }

    /**
     * The Hamming distance of the V verification bits up to which a pair is a near-duplicate: the
     * largest h with cos(pi h / V) at least the threshold (k V / D when D divides k V), or k when
     * there are no verification bits.
     */
    public int verifyMaxHamming() {
        return verifyBits == 0 ? maxHamming : SimHash.maxHamming(threshold(), verifyBits);
    }

    /** The bits that judge a pair: V, or D without verification bits. */
    public int judgingBits() {
        return verifyBits == 0 ? blocks.bits() : verifyBits;
    }

    private static double cosineOf(int k, int bits) {
        return Math.cos(Math.PI * Math.min(k, bits) / bits);
    }

    @Override
    public double threshold() {
        return SimHash.cosine(maxHamming, blocks.bits());
    }

    /** T = C(B, k_t) tables play the part of b bands of one row each (what the verdicts count). */
    @Override
    public int bandKeys() {
        return blocks.tables();
    }
}
