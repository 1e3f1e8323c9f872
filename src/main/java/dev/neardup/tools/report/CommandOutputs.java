package dev.neardup.tools.report;

import dev.neardup.runtime.DedupeRun;
import dev.neardup.runtime.EmbeddedRun;
import dev.neardup.tools.plot.ClusterSizePlot;
import java.util.List;

/**
 * The writers of what {@code run} and {@code dedupe} draw after their jobs: the HTML reports and
 * the cluster-size histogram. Lambdas, not method references: the job jar has no charts, and a
 * method reference would load the plot's and the report's classes on every run; these load them
 * only when they write.
 */
public final class CommandOutputs {

    private CommandOutputs() {}

    /**
     * Writes the HTML report of a run ({@link RunReport}).
     *
     * @param samples how many pairs the report shows per similarity range
     * @param input what the run read, as the report names it
     */
    public static EmbeddedRun.ReportWriter runReport(int samples, String input) {
        return (file, settings, inputs, verdicts, summary) ->
                RunReport.write(file, samples, settings, input, inputs, verdicts, summary);
    }

    /** Draws the cluster-size histogram of a dedupe ({@link ClusterSizePlot}). */
    public static DedupeRun.HistogramWriter dedupeHistogram() {
        return (result, settings, file) -> ClusterSizePlot.write(result, settings, file);
    }

    /**
     * Writes the HTML report of a dedupe ({@link DedupeReport}).
     *
     * @param samples how many pairs the report shows per similarity range
     * @param given the inputs as given on the command line
     */
    public static DedupeRun.ReportWriter dedupeReport(int samples, List<String> given) {
        return (file, result, settings, inputs, clusters, pairs) ->
                DedupeReport.write(file, samples, result, settings, given, inputs, clusters, pairs);
    }
}
