package dev.neardup.similarity;

import dev.neardup.config.ConfigException;
import dev.neardup.config.ContainmentSettings;
import dev.neardup.config.Format;
import dev.neardup.lsh.ContainmentBanding;
import dev.neardup.lsh.LshParams;
import dev.neardup.sketch.BottomKContainment;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The containment mode's tuning ({@code neardup tune --containment T}): the job's size-partitioned
 * bandings (LSH Ensemble), one per offset of the two documents' size partitions, with the
 * resemblance each is tuned for and P(candidate) of pairs contained at T and above at the size
 * ratios it serves. Text only: the bands come from T, {@code --max-size-ratio} and {@code
 * --num-hashes}.
 */
final class ContainmentTuning implements ModeTuning {

    private final ContainmentSettings settings;

    ContainmentTuning(ContainmentSettings settings, Set<String> flags, Integer superShingleKeys) {
        if (superShingleKeys != null) {
            throw new ConfigException(
                    "--super-shingles applies to Jaccard resemblance (MinHash), not to"
                            + " --containment");
        }
        if (List.of("--threshold", "--bands", "--rows", "--plot", "--json").stream()
                .anyMatch(flags::contains)) {
            throw new ConfigException(
                    "--threshold, --bands, --rows, --plot and --json are for Jaccard similarity;"
                            + " with --containment T the bands are tuned per pair of size"
                            + " partitions from T, --max-size-ratio and --num-hashes");
        }
        this.settings = settings;
    }

    @Override
    public void printText(PrintWriter out) {
        int numHashes = settings.numHashes();
        ContainmentBanding banding = settings.banding();
        out.printf(
                Locale.ROOT,
                "containment %.2f, K = %d, largest size ratio %s: documents are in size partitions"
                    + " [2^p, 2^(p+1)) shingles; a pair p and p + d apart is looked for with the"
                    + " banding of offset d, tuned for the resemblance of a page contained at %.2f"
                    + " in one min(2^(d+1), R) times larger:%n%n",
                banding.containment(),
                numHashes,
                Format.plain(banding.maxRatio()),
                banding.containment());
        out.println("| offset d | banding | tuned for resemblance | keys per document |");
        out.println("| ---: | --- | ---: | ---: |");
        LshParams[] perOffset = banding.bandings();
        for (int d = 0; d < perOffset.length; d++) {
            out.printf(
                    Locale.ROOT,
                    "| %d | %s | %.3f | %d |%n",
                    d,
                    perOffset[d],
                    banding.resemblanceThreshold(d),
                    (d == 0 ? 1 : 2) * perOffset[d].bands());
        }
        out.printf(
                Locale.ROOT,
                "%nkeys per document: %d (each a bucket member of 17 bytes plus the id: event"
                        + " time, fingerprint, id); the sample, %d bytes with --sketch-size %d, is"
                        + " kept once per document, by the sample store%n%nP(candidate) of a page"
                        + " of 1,000 shingles contained at c in a page r times larger:%n%n",
                banding.keysPerDocument(),
                BottomKContainment.packedBytes(settings.sketchSize()),
                settings.sketchSize());
        double[] cs = {banding.containment(), (1 + banding.containment()) / 2, 1.0};
        out.printf(
                Locale.ROOT,
                "| r | c = %.2f | c = %.2f | c = %.2f |%n| ---: | ---: | ---: | ---: |%n",
                cs[0],
                cs[1],
                cs[2]);
        for (double r : new double[] {1, 1.5, 2, 3, 4, 6, 8}) {
            if (r > 2 * banding.maxRatio()) {
                break;
            }
            out.printf(Locale.ROOT, "| %s |", Format.plain(r));
            for (double c : cs) {
                out.printf(
                        Locale.ROOT,
                        " %.4f |",
                        banding.candidateProbability(c, 1000, Math.round(1000 * r)));
            }
            out.println();
        }
    }

    /** Never asked for: the mode refuses --json. */
    @Override
    public Map<String, Object> toJson() {
        throw new UnsupportedOperationException("tune --containment has no JSON output");
    }
}
