package dev.neardup.tools.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.batch.ClusterStat;
import dev.neardup.batch.DedupeJob;
import dev.neardup.batch.DedupeSettings;
import dev.neardup.batch.DedupeSummary;
import dev.neardup.io.Json;
import dev.neardup.tools.plot.ClusterSizePlot;
import dev.neardup.tools.plot.SCurvePlot;
import dev.neardup.tools.rules.Rules;
import dev.neardup.tools.rules.RunOutputs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The report of {@code dedupe --report}: the clusters file read once for the members of the largest
 * clusters, the pairs file once for the pairs per band, the input once for the sampled pages.
 */
public final class DedupeReport {

    private DedupeReport() {}

    /**
     * Writes the report of a finished dedupe.
     *
     * @param inputs the job's inputs (local paths or filesystem URIs)
     * @param clusters the --clusters file the job wrote
     * @param pairs the pairs file the job wrote
     */
    public static void write(
            Path report,
            int samples,
            DedupeJob.Result result,
            DedupeSettings settings,
            List<String> given,
            List<String> inputs,
            Path clusters,
            Path pairs)
            throws IOException {
        // Exact verification is Jaccard's: then the candidates are LSH bands.
        OutputReport out =
                new OutputReport(
                        samples,
                        settings.job(),
                        settings.exact() ? settings.candidateBanding() : null);
        Map<String, Long> largest = new LinkedHashMap<>();
        for (ClusterStat c : result.largest()) {
            if (c.size() > 1) {
                largest.put(c.clusterId(), (long) c.size());
            }
        }
        out.largest(largest);
        lines(
                clusters,
                c -> {
                    String cluster = c.path("clusterId").asText();
                    if (out.shows(cluster)) {
                        out.member(
                                cluster, c.path("docId").asText(), text(c.get("url")), Double.NaN);
                    }
                });
        lines(
                pairs,
                p ->
                        out.pair(
                                p.path("duplicateOf").asText(),
                                p.path("docId").asText(),
                                p.path("similarity").asDouble()));
        List<Report.Fact> facts = new ArrayList<>();
        facts.add(new Report.Fact("input", String.join(" ", given)));
        facts.add(new Report.Fact("settings", settings.toString()));
        facts.add(new Report.Fact("result", DedupeSummary.lines(result, settings).get(0)));
        Report.Figure sizes =
                new Report.Figure(
                        "Clusters and the documents in them, per cluster size (log scale).",
                        SCurvePlot.svg(
                                ClusterSizePlot.create(
                                        result.clusterSizes(),
                                        String.format(
                                                java.util.Locale.ROOT,
                                                "%,d documents in %,d clusters; %s",
                                                result.clusteredDocuments(),
                                                result.clusters(),
                                                settings.batch().thresholdTitle()))));
        HtmlReport.write(
                out.build(
                                "neardup dedupe: " + String.join(" ", given),
                                facts,
                                settings.job(),
                                inputs,
                                List.of(sizes))
                        .withTables(
                                RulesTables.of(
                                        Rules.learn(
                                                RunOutputs.readDedupe(
                                                        clusters,
                                                        pairs,
                                                        new PrintWriter(Writer.nullWriter())),
                                                Rules.defaults()))),
                report);
    }

    /** Each JSON line of {@code file}, in order. */
    static void lines(Path file, Consumer<JsonNode> each) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    each.accept(Json.MAPPER.readTree(line));
                }
            }
        }
    }

    /** A JSON string, or null for null or a missing field. */
    static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
