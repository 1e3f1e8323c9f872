package dev.neardup.tools.report;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.neardup.config.NearDupSettings;
import dev.neardup.io.Json;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.tools.plot.ClusterSizePlot;
import dev.neardup.tools.plot.SCurvePlot;
import dev.neardup.tools.rules.Rules;
import dev.neardup.tools.rules.RunOutputs;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The report of {@code run --report} on a file: the verdicts read once for the reported pairs (each
 * verdict's matches) and the cluster sizes (a cluster is named by its first document, the verdicts'
 * {@code clusterId}), once more for the members of the largest clusters, and the input once for the
 * sampled pages, and the URL rules of the verdicts ({@link Rules}, at the default bounds) with the
 * duplicate rate of each host. Memory: the sizes of the clusters with near-duplicates, the samples,
 * and every distinct URL of the verdicts (for the rules).
 */
public final class RunReport {

    /** What the report reads of a verdict: ids, url and matches with their estimates. */
    private record VerdictLine(
            String id, String cluster, String url, List<String> matches, double[] similarities) {}

    private RunReport() {}

    /**
     * Each verdict of the file, read with a streaming parser (the verdict's other fields skipped).
     */
    private static void verdicts(Path file, Consumer<VerdictLine> each) throws IOException {
        // One parser over the whole file: the verdicts are a sequence of root-level objects.
        try (InputStream in = Files.newInputStream(file);
                JsonParser p = Json.MAPPER.getFactory().createParser(in)) {
            while (p.nextToken() == JsonToken.START_OBJECT) {
                String id = null;
                String cluster = null;
                String url = null;
                List<String> matches = new ArrayList<>();
                List<Double> similarities = new ArrayList<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken value = p.nextToken();
                    switch (name) {
                        case "docId" -> id = p.getText();
                        case "clusterId" ->
                                cluster = value == JsonToken.VALUE_NULL ? null : p.getText();
                        case "url" -> url = value == JsonToken.VALUE_NULL ? null : p.getText();
                        case "matches" -> {
                            while (p.nextToken() == JsonToken.START_OBJECT) {
                                String match = null;
                                double similarity = Double.NaN;
                                while (p.nextToken() == JsonToken.FIELD_NAME) {
                                    String field = p.currentName();
                                    JsonToken v = p.nextToken();
                                    if (field.equals("docId")) {
                                        match = p.getText();
                                    } else if (field.equals("similarity") && v.isNumeric()) {
                                        similarity = p.getDoubleValue();
                                    } else {
                                        p.skipChildren();
                                    }
                                }
                                matches.add(match);
                                similarities.add(similarity);
                            }
                        }
                        default -> p.skipChildren();
                    }
                }
                each.accept(
                        new VerdictLine(
                                id,
                                cluster == null ? id : cluster,
                                url,
                                matches,
                                similarities.stream().mapToDouble(Double::doubleValue).toArray()));
            }
        }
    }

    /**
     * Writes the report of a finished run.
     *
     * @param name the input as given (a file, standard input, the sample crawl)
     * @param inputs the files the job read, in order
     * @param verdicts the verdicts the job wrote
     * @param summary the run's summary line
     */
    public static void write(
            Path report,
            int samples,
            NearDupSettings settings,
            String name,
            List<Path> inputs,
            Path verdicts,
            String summary)
            throws IOException {
        OutputReport out = new OutputReport(samples, settings, null);
        Map<String, Long> sizes = new HashMap<>();
        long[] documents = {0};
        verdicts(
                verdicts,
                v -> {
                    documents[0]++;
                    if (!v.cluster().equals(v.id())) {
                        sizes.merge(v.cluster(), 1L, Long::sum);
                    }
                    for (int i = 0; i < v.matches().size(); i++) {
                        out.pair(v.matches().get(i), v.id(), v.similarities()[i]);
                    }
                });
        // The first document of a cluster has the cluster's id for its own.
        sizes.replaceAll((cluster, n) -> n + 1);
        out.largest(sizes);
        verdicts(
                verdicts,
                v -> {
                    if (!out.shows(v.cluster())) {
                        return;
                    }
                    int first = v.matches().indexOf(v.cluster());
                    out.member(
                            v.cluster(),
                            v.id(),
                            v.url(),
                            first < 0 ? Double.NaN : v.similarities()[first]);
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
                        new Report.Fact("settings", SimilarityMode.of(settings).describe()),
                        new Report.Fact("result", summary));
        // The job wrote the verdicts: no line is skipped, and nothing is said.
        Rules.Learned learned =
                Rules.learn(
                        RunOutputs.read(null, verdicts, new PrintWriter(Writer.nullWriter())),
                        Rules.defaults());
        HtmlReport.write(
                out.build(
                                "neardup run: " + name,
                                facts,
                                settings,
                                inputs.stream().map(Path::toString).toList(),
                                List.of(figure))
                        .withTables(RulesTables.of(learned)),
                report);
    }
}
