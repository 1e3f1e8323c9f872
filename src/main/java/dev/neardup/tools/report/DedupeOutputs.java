package dev.neardup.tools.report;

import dev.neardup.runtime.DedupeRun;
import dev.neardup.tools.plot.ClusterSizePlot;
import java.util.List;

/**
 * The writers of what a dedupe draws after its job: the cluster-size histogram and the HTML report.
 * Lambdas, not method references: the job jar has no charts, and a method reference would load the
 * plot's and the report's classes on every run; these load them only when they write.
 */
public final class DedupeOutputs {

    private DedupeOutputs() {}

    /** Draws the cluster-size histogram ({@link ClusterSizePlot}). */
    public static DedupeRun.HistogramWriter histogram() {
        return (result, settings, file) -> ClusterSizePlot.write(result, settings, file);
    }

    /**
     * Writes the HTML report ({@link DedupeReport}).
     *
     * @param samples how many pairs the report shows per similarity range
     * @param given the inputs as given on the command line
     */
    public static DedupeRun.ReportWriter report(int samples, List<String> given) {
        return (file, result, settings, inputs, clusters, pairs) ->
                DedupeReport.write(file, samples, result, settings, given, inputs, clusters, pairs);
    }
}
