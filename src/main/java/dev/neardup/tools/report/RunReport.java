package dev.neardup.tools.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.tools.plot.ClusterSizePlot;
import dev.neardup.tools.plot.SCurvePlot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report of {@code run --report} on a file: the verdicts read once for the reported pairs (each
 * verdict's matches) and the cluster sizes (a cluster is named by its first document, the verdicts'
 * {@code clusterId}), once more for the members of the largest clusters, and the input once for the
 * sampled pages. Memory: the sizes of the clusters with near-duplicates, and the samples.
 */
public final class RunReport {

    private RunReport() {}

    /**
     * Writes the report of a finished run.
     *
     * @param name the input as given (a file, standard input, the sample crawl)
     * @param input the file the job read
     * @param verdicts the verdicts the job wrote
     * @param summary the run's summary line
     */
    public static void write(
            Path report,
            int samples,
            NearDupSettings settings,
            String name,
            Path input,
            Path verdicts,
            String summary)
            throws IOException {
        OutputReport out = new OutputReport(samples);
        Map<String, Long> sizes = new HashMap<>();
        long[] documents = {0};
        DedupeReport.lines(
                verdicts,
                v -> {
                    documents[0]++;
                    String id = v.path("docId").asText();
                    String cluster = v.path("clusterId").asText(id);
                    if (!cluster.equals(id)) {
                        sizes.merge(cluster, 1L, Long::sum);
                    }
                    for (JsonNode m : v.path("matches")) {
                        out.pair(m.path("docId").asText(), id, m.path("similarity").asDouble());
                    }
                });
        // The first document of a cluster has the cluster's id for its own.
        sizes.replaceAll((cluster, n) -> n + 1);
        out.largest(sizes);
        DedupeReport.lines(
                verdicts,
                v -> {
                    String id = v.path("docId").asText();
                    String cluster = v.path("clusterId").asText(id);
                    if (!out.shows(cluster)) {
                        return;
                    }
                    double estimate = Double.NaN;
                    for (JsonNode m : v.path("matches")) {
                        if (m.path("docId").asText().equals(cluster)) {
                            estimate = m.path("similarity").asDouble();
                        }
                    }
                    out.member(cluster, id, DedupeReport.text(v.get("url")), estimate);
                });
        TreeMap<Integer, Integer> histogram = new TreeMap<>();
        long inClusters = 0;
        for (long n : sizes.values()) {
            histogram.merge((int) n, 1, Integer::sum);
            inClusters += n;
        }
        long singletons = documents[0] - inClusters;
        if (singletons > 0) {
            histogram.merge(1, (int) singletons, Integer::sum);
        }
        Report.Figure figure =
                new Report.Figure(
                        "Clusters and the documents in them, per cluster size (log scale), as the"
                                + " verdicts name them.",
                        SCurvePlot.svg(
                                ClusterSizePlot.create(
                                        histogram,
                                        String.format(
                                                Locale.ROOT,
                                                "%,d verdicts; %,d clusters with near-duplicates",
                                                documents[0],
                                                sizes.size()))));
        List<Report.Fact> facts =
                List.of(
                        new Report.Fact("input", name),
                        new Report.Fact("settings", settings.toString()),
                        new Report.Fact("result", summary));
        HtmlReport.write(
                out.build(
                        "neardup run: " + name,
                        facts,
                        settings,
                        null,
                        List.of(input.toString()),
                        List.of(figure)),
                report);
    }
}
