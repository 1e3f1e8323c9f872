package dev.neardup.tools.tune;

import dev.neardup.config.NearDupSettings;
import dev.neardup.io.Json;
import dev.neardup.lsh.SuperShingleParams;
import dev.neardup.runtime.NeardupException;
import dev.neardup.similarity.ModeTuning;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.tools.plot.SCurvePlot;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The {@code tune} tool: a mode's tuning ({@link ModeTuning}: the LSH banding for a Jaccard
 * threshold, cosine's block layout, containment's size-partitioned bandings) as text or JSON, and
 * the S-curve of a banding as a PNG or SVG chart.
 */
public final class Tuning {

    private Tuning() {}

    /** Draws the plot if asked ({@code plot} not null), and prints the tuning. */
    /** The super-shingle keys per document that {@code tune --super-shingles} shows by default. */
    public static final int DEFAULT_SUPER_SHINGLE_KEYS = SuperShingleParams.DEFAULT_MAX_KEYS;

    /**
     * Prints the tuning of the settings' mode ({@link SimilarityMode#tuning}).
     *
     * @param conf the configuration {@code settings} come from: which tuning options were given
     * @param flags the command-line flags given (long names); a mode refuses those it has no use
     *     for
     * @param superShingleKeys super-shingles' keys per document to show, or null for none
     */
    public static void print(
            NearDupSettings settings,
            ReadableConfig conf,
            Set<String> flags,
            Integer superShingleKeys,
            Path plot,
            boolean json,
            PrintWriter out) {
        print(
                SimilarityMode.of(settings).tuning(conf, flags, superShingleKeys),
                settings,
                plot,
                json,
                out);
    }

    static void print(
            ModeTuning tuning, NearDupSettings settings, Path plot, boolean json, PrintWriter out) {
        if (plot != null) {
            SCurvePlot.ImageFormat format = plotFormat(plot);
            try {
                SCurvePlot.write(
                        SCurvePlot.create(
                                tuning.sCurve(),
                                settings.similarity().threshold(),
                                settings.text().numHashes()),
                        plot,
                        format);
            } catch (IOException | RuntimeException e) {
                throw NeardupException.failure(
                        "cannot write plot "
                                + plot
                                + ": "
                                + NeardupException.oneLine(e.getMessage()),
                        e);
            }
        }
        if (json) {
            Map<String, Object> o = tuning.toJson();
            if (plot != null) {
                o.put("plot", plot.toString());
            }
            out.println(Json.pretty(o));
        } else {
            tuning.printText(out);
            if (plot != null) {
                out.println("wrote " + plot);
            }
        }
        out.flush();
    }

    /** The image format of {@code plot}; a name that cannot be written is a usage error. */
    private static SCurvePlot.ImageFormat plotFormat(Path plot) {
        SCurvePlot.ImageFormat format = SCurvePlot.ImageFormat.of(plot);
        if (format == null) {
            throw NeardupException.usage(
                    "--plot needs a file name ending in .png or .svg, got '" + plot + "'");
        }
        if (Files.isDirectory(plot)) {
            throw NeardupException.usage("--plot " + plot + " is a directory, not a file name");
        }
        Path dir = plot.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw NeardupException.usage(
                    "--plot " + plot + ": directory " + dir + " does not exist");
        }
        return format;
    }
}
