package dev.neardup.similarity;

import dev.neardup.config.ConfigException;
import dev.neardup.config.CosineSettings;
import dev.neardup.config.Format;
import dev.neardup.config.NearDupOptions;
import dev.neardup.lsh.BlockParams;
import dev.neardup.sketch.SimHash;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The cosine mode's tuning ({@code neardup tune --similarity cosine}): the permuted-block layout
 * the job uses for (D, k), its table count, key widths, and the random candidates a document meets
 * in a corpus of n documents ({@link BlockParams}'s formulas), beside the neighbouring layouts.
 */
final class CosineTuning implements ModeTuning {

    private final CosineSettings settings;
    private final long corpusSize;
    private final boolean given;

    CosineTuning(
            CosineSettings settings,
            ReadableConfig conf,
            Set<String> flags,
            Integer superShingleKeys) {
        if (superShingleKeys != null) {
            throw new ConfigException(
                    "--super-shingles applies to Jaccard resemblance (MinHash), not to"
                            + " --similarity cosine");
        }
        if (flags.contains("--bands") || flags.contains("--rows") || flags.contains("--plot")) {
            throw new ConfigException(
                    "--bands, --rows and --plot are for Jaccard similarity; with --similarity"
                            + " cosine the tables come from --max-hamming (or"
                            + " --simhash-table-hamming) and --simhash-blocks");
        }
        this.settings = settings;
        this.corpusSize = conf.get(NearDupOptions.SIMHASH_CORPUS_SIZE);
        this.given = conf.getOptional(NearDupOptions.SIMHASH_BLOCKS).isPresent();
    }

    /**
     * The layouts from k_t + 1 blocks up to a few past the chosen one (at most 4,096 tables), k_t
     * the tables' radius.
     */
    List<BlockParams> layouts() {
        BlockParams chosen = settings.blocks();
        List<BlockParams> out = new ArrayList<>();
        int k = chosen.maxHamming();
        for (int b = k + 1; b <= chosen.bits() && b <= Math.max(chosen.blocks() + 2, k + 4); b++) {
            try {
                out.add(new BlockParams(chosen.bits(), k, b));
            } catch (IllegalArgumentException tooManyTables) {
                break;
            }
        }
        return out;
    }

    @Override
    public void printText(PrintWriter out) {
        BlockParams chosen = settings.blocks();
        int bits = chosen.bits();
        int k = settings.maxHamming();
        if (chosen.maxHamming() == k) {
            out.printf(
                    Locale.ROOT,
                    "Permuted-block tables for cosine similarity: %d-bit SimHash fingerprints,"
                            + " pairs within Hamming distance k = %d%n",
                    bits,
                    k);
        } else {
            out.printf(
                    Locale.ROOT,
                    "Permuted-block tables for cosine similarity: %d-bit SimHash fingerprints,"
                            + " every pair within Hamming distance %d (--simhash-table-hamming) a"
                            + " candidate, the threshold at k = %d%n",
                    bits,
                    chosen.maxHamming(),
                    k);
        }
        out.printf(
                Locale.ROOT,
                "threshold cos(pi k / D) = %.4f (angle %.1f degrees); %s%n",
                SimHash.cosine(k, bits),
                Math.toDegrees(SimHash.angle(k, bits)),
                chosen);
        out.println(
                given
                        ? "(blocks given with --simhash-blocks)"
                        : String.format(
                                Locale.ROOT,
                                "(chosen: the fewest tables with at most 1 random candidate per"
                                        + " document among --corpus-size %,d documents)",
                                corpusSize));
        out.println();
        out.println(
                "Each table keys a document by B - k of its B blocks; a pair within distance k"
                        + " differs in at most k blocks,");
        out.println(
                "so it shares the key of at least one table (pigeonhole): every such pair is a"
                        + " candidate, and the bucket");
        out.println(
                "checks its Hamming distance. Unrelated fingerprints share a key of w bits with"
                        + " probability 2^-w.");
        out.println();
        out.printf(
                Locale.ROOT,
                "  %-7s %-7s %-9s %-22s %s%n",
                "blocks",
                "tables",
                "key bits",
                "P(random candidate)",
                String.format(Locale.ROOT, "random candidates per document (n = %,d)", corpusSize));
        for (BlockParams p : layouts()) {
            out.printf(
                    Locale.ROOT,
                    "  %-7d %-7d %-9s %-22s %s%s%n",
                    p.blocks(),
                    p.tables(),
                    keyBits(p),
                    Format.small(p.randomCandidateProbability()),
                    Format.small(p.expectedRandomCandidates(corpusSize)),
                    p.blocks() == chosen.blocks() ? "   <- " + (given ? "given" : "chosen") : "");
        }
        out.println();
        int verify = settings.verifyBits();
        if (settings.exact()) {
            out.printf(
                    Locale.ROOT,
                    "Verification: exact; the cosine of the two term-frequency vectors judges each"
                            + " candidate (a match at cosine >= %.4f).%n",
                    settings.threshold());
            if (verify > 0) {
                out.printf(
                        Locale.ROOT,
                        "Screen: a candidate goes on to be verified when at most %d of %d Gaussian"
                                + " hyperplane bits differ.%n",
                        Verification.CosineExact.screenMaxHamming(settings.threshold(), verify),
                        verify);
            }
            out.printf(
                    Locale.ROOT,
                    "State: %d band records per document (one per table), each member keeping the"
                            + " document's id%s; the sample store keeps its term-frequency vector"
                            + " once, 12 bytes per distinct feature.%n",
                    chosen.tables(),
                    verify > 0 ? " and " + verify / 8 + " bytes of screen bits" : "");
            return;
        }
        if (verify > 0) {
            out.printf(
                    Locale.ROOT,
                    "Verification: %d Gaussian hyperplane bits judge each candidate: a match at"
                            + " Hamming distance <= %d of them (cosine >= %.4f).%n",
                    verify,
                    settings.verifyMaxHamming(),
                    settings.threshold());
        }
        out.printf(
                Locale.ROOT,
                "State: %d band records per document (one per table), each member keeping the %d"
                        + "-byte fingerprint%s: %d bytes of sketch per document.%n",
                chosen.tables(),
                bits / 8,
                verify > 0 ? " and " + verify / 8 + " bytes of verification bits" : "",
                chosen.tables() * (bits + verify) / 8);
    }

    @Override
    public Map<String, Object> toJson() {
        BlockParams chosen = settings.blocks();
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("similarity", "cosine");
        o.put("bits", chosen.bits());
        o.put("maxHamming", settings.maxHamming());
        o.put("tableHamming", settings.tableHamming());
        o.put("threshold", settings.threshold());
        o.put("verify", settings.verify().name());
        o.put("verifyBits", settings.verifyBits());
        o.put("verifyMaxHamming", settings.verifyMaxHamming());
        o.put(
                "sketchBytesPerDocument",
                settings.exact()
                        ? chosen.tables() * settings.verifyBits() / 8
                        : chosen.tables() * (chosen.bits() + settings.verifyBits()) / 8);
        o.put("corpusSize", corpusSize);
        o.put("blocksGiven", given);
        o.put("blocks", chosen.blocks());
        o.put("tables", chosen.tables());
        o.put("minKeyBits", chosen.minKeyWidth());
        o.put("maxKeyBits", chosen.maxKeyWidth());
        o.put("randomCandidateProbability", chosen.randomCandidateProbability());
        o.put("expectedRandomCandidates", chosen.expectedRandomCandidates(corpusSize));
        List<Object> layouts = new ArrayList<>();
        for (BlockParams p : layouts()) {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("blocks", p.blocks());
            l.put("tables", p.tables());
            l.put("minKeyBits", p.minKeyWidth());
            l.put("maxKeyBits", p.maxKeyWidth());
            l.put("expectedRandomCandidates", p.expectedRandomCandidates(corpusSize));
            layouts.add(l);
        }
        o.put("layouts", layouts);
        return o;
    }

    static String keyBits(BlockParams p) {
        return p.minKeyWidth() == p.maxKeyWidth()
                ? "" + p.minKeyWidth()
                : p.minKeyWidth() + "-" + p.maxKeyWidth();
    }
}
