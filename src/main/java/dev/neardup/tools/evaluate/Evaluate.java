package dev.neardup.tools.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.config.Format;
import dev.neardup.config.NearDupSettings;
import dev.neardup.eval.Evaluation;
import dev.neardup.io.DocumentLinesFormat;
import dev.neardup.io.InputFiles;
import dev.neardup.io.Json;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.NeardupException;
import dev.neardup.runtime.WorkDir;
import dev.neardup.similarity.ModeEvaluation;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.text.ContentType;
import dev.neardup.text.Shingler;
import dev.neardup.tools.plot.SCurvePlot;
import dev.neardup.tools.report.EvaluationReport;
import dev.neardup.tools.report.HtmlReport;
import dev.neardup.tools.report.Report;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Formatter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;

/**
 * The {@code evaluate} tool: how well the job finds near-duplicates in a corpus, against the exact
 * answer: all pairs above a floor by an exact similarity join, then the real job on the same input,
 * then recall and precision (as text or JSON, and a plot).
 */
public final class Evaluate {

    /**
     * @param floor the lowest exact similarity of the ground truth, or null for the default
     * @param recallSimilarity null for the default
     * @param precisionSimilarity null for the default
     * @param plot where to draw recall over the predicted curves, or null
     * @param report where to write the HTML report, or null
     * @param reportSamples the pairs the report shows per similarity band, missed and false
     */
    public record Options(
            List<Path> inputs,
            Double floor,
            Double recallSimilarity,
            Double precisionSimilarity,
            boolean json,
            Path plot,
            Path report,
            int reportSamples) {

        /** The inputs as shown: the file, or the files separated by commas. */
        public String input() {
            return inputs.stream().map(Path::toString).collect(Collectors.joining(", "));
        }
    }

    private Evaluate() {}

    /**
     * Evaluates the job with {@code settings} (from {@code conf}) on the input: the report on
     * {@code out}, the phases on {@code err}; {@code plotFormat} is the plot's, null without one.
     */
    public static void run(
            Options o,
            Configuration conf,
            NearDupSettings settings,
            SCurvePlot.ImageFormat plotFormat,
            PrintWriter out,
            PrintWriter err)
            throws Exception {
        ModeEvaluation mode = SimilarityMode.of(settings).evaluation();
        ModeEvaluation.Terms terms = mode.terms();
        double floorValue = Objects.requireNonNullElse(o.floor(), terms.floor());
        double recallAt = Objects.requireNonNullElse(o.recallSimilarity(), terms.recallAt());
        double precisionAt =
                Objects.requireNonNullElse(o.precisionSimilarity(), terms.precisionAt());
        for (double value : new double[] {floorValue, recallAt, precisionAt}) {
            if (!(value > 0 && value <= 1)) {
                throw NeardupException.usage("similarities must be in (0, 1], got " + value);
            }
        }
        try (WorkDir dir = WorkDir.of(null, "nd-eval-")) {
            Path cleaned = dir.path().resolve("input.jsonl");
            List<Evaluation.Doc> docs =
                    readDocuments(o.inputs(), settings, cleaned, err).stream()
                            .map(k -> mode.add(k.id(), k.hashes()))
                            .toList();
            if (docs.isEmpty()) {
                throw NeardupException.usage("no usable documents in " + o.input());
            }
            err.printf(
                    Locale.ROOT,
                    "neardup evaluate: exact %s join of %d documents%n",
                    terms.join(),
                    docs.size());
            long t0 = System.nanoTime();
            List<Evaluation.Truth> exact = mode.exactPairs(floorValue);
            double joinSeconds = (System.nanoTime() - t0) / 1e9;
            Evaluation.Model model = mode.model();

            err.println(
                    "neardup evaluate: running the job: " + SimilarityMode.of(settings).describe());
            Path verdicts = dir.path().resolve("verdicts.jsonl");
            long t1 = System.nanoTime();
            EmbeddedJob.run(
                    EmbeddedJob.configuration(
                            conf, dir.path(), EmbeddedJob.FILE_RUN_CHECKPOINT_INTERVAL),
                    settings,
                    cleaned,
                    null,
                    verdicts.toString(),
                    null);
            double jobSeconds = (System.nanoTime() - t1) / 1e9;
            Map<String, Set<String>> matches = new HashMap<>();
            Map<String, Integer> candidates = new HashMap<>();
            Map<String, Double> estimates = new HashMap<>();
            for (String line : Files.readAllLines(verdicts, StandardCharsets.UTF_8)) {
                JsonNode v = Json.MAPPER.readTree(line);
                Set<String> ids = new HashSet<>();
                String id = v.get("docId").asText();
                v.get("matches")
                        .forEach(
                                m -> {
                                    ids.add(m.get("docId").asText());
                                    if (o.report() != null) {
                                        estimates.put(
                                                EvaluationReport.key(id, m.get("docId").asText()),
                                                m.get("similarity").asDouble());
                                    }
                                });
                matches.put(id, ids);
                candidates.put(v.get("docId").asText(), v.get("candidates").asInt());
            }
            Evaluation.Report report =
                    Evaluation.compute(
                            docs,
                            exact,
                            model,
                            matches,
                            candidates,
                            floorValue,
                            recallAt,
                            precisionAt);
            if (o.plot() != null) {
                try {
                    SCurvePlot.write(EvaluationPlot.create(report, model), o.plot(), plotFormat);
                } catch (IOException e) {
                    throw NeardupException.failure(
                            "cannot write plot " + o.plot() + ": " + e.getMessage(), e);
                }
            }
            if (o.report() != null) {
                long t2 = System.nanoTime();
                Report html =
                        EvaluationReport.build(
                                new EvaluationReport.Inputs(
                                        "neardup evaluate: "
                                                + o.inputs().stream()
                                                        .map(p -> String.valueOf(p.getFileName()))
                                                        .collect(Collectors.joining(", ")),
                                        cleaned,
                                        settings,
                                        terms,
                                        docs,
                                        exact,
                                        model,
                                        report,
                                        matches,
                                        estimates,
                                        facts(
                                                o,
                                                report,
                                                settings,
                                                floorValue,
                                                joinSeconds,
                                                jobSeconds,
                                                matches.size())),
                                o.reportSamples());
                try {
                    HtmlReport.write(html, o.report());
                } catch (IOException e) {
                    throw NeardupException.failure(
                            "cannot write report " + o.report() + ": " + e.getMessage(), e);
                }
                err.printf(
                        Locale.ROOT,
                        "neardup evaluate: wrote %s (%,d bytes) in %.1f s%n",
                        o.report(),
                        Files.size(o.report()),
                        (System.nanoTime() - t2) / 1e9);
            }
            print(
                    o,
                    out,
                    report,
                    settings,
                    mode,
                    floorValue,
                    joinSeconds,
                    jobSeconds,
                    matches.size());
            if (o.plot() != null && !o.json()) {
                out.println("wrote " + o.plot());
            }
        }
    }

    /** A document of the evaluation: its place in the job's order, id and shingle hashes. */
    private record KeptDocument(long eventTime, String id, long[] hashes) {}

    /**
     * Reads the input as the job does (same reader, same parser, same text options), keeps the
     * first occurrence of each id with at least one shingle (feature), writes those records
     * unchanged to {@code cleaned} (a WARC record's document as its JSON line), the job's input,
     * and returns them in the job's order (event time, then id; an undated line's event time is its
     * position in the input, and the cleaned file keeps the lines' order, so the job orders them
     * the same way). Deletions are left out too: the exact answer is about the documents of the
     * corpus.
     */
    private static List<KeptDocument> readDocuments(
            List<Path> inputs, NearDupSettings settings, Path cleaned, PrintWriter err)
            throws IOException {
        // The job's reader and parser, clock-skew rule included: a record the job rejects
        // (FUTURE_TIMESTAMP) is not in the exact answer either.
        Shingler shingler = new Shingler(SimilarityMode.of(settings).features());
        List<KeptDocument> kept = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int[] left = new int[4]; // rejected, deletions, repeated, without text
        // Undated lines of a later file come after those of the files before it, as in the job.
        InputFiles files =
                settings.input()
                        .files(
                                InputFiles.Input.locals(inputs),
                                false,
                                null,
                                1,
                                DocumentLinesFormat.UndatedLines.POSITION);
        try (OutputStream out = Files.newOutputStream(cleaned)) {
            for (InputFiles.File file : files.files()) {
                file.format()
                        .read(
                                Path.of(file.path().toUri()),
                                (raw, r) -> {
                                    if (r.deletion != null) {
                                        left[1]++;
                                        return;
                                    }
                                    if (r.document == null) {
                                        left[0]++;
                                        return;
                                    }
                                    var doc = r.document;
                                    if (!seen.add(doc.id)) {
                                        left[2]++;
                                        return;
                                    }
                                    long[] hashes;
                                    try {
                                        hashes =
                                                shingler.shingleHashes(
                                                        doc.content,
                                                        ContentType.detect(
                                                                doc.contentType, doc.content));
                                    } catch (RuntimeException | StackOverflowError e) {
                                        left[0]++; // the job's dead letter INTERNAL_ERROR
                                        return;
                                    }
                                    if (hashes.length == 0) {
                                        left[3]++;
                                        return;
                                    }
                                    kept.add(new KeptDocument(doc.eventTime, doc.id, hashes));
                                    // A WARC record's document comes as its JSON line.
                                    out.write(raw.payload);
                                    out.write('\n');
                                });
            }
        }
        int rejected = left[0];
        int deletions = left[1];
        int repeated = left[2];
        int noText = left[3];
        kept.sort(
                Comparator.comparingLong(KeptDocument::eventTime).thenComparing(KeptDocument::id));
        // A re-crawl is left out: the exact answer and the scores take one version per id, the
        // first line read of it (the job compares no version with its own id's).
        err.printf(
                Locale.ROOT,
                "neardup evaluate: %s; left out: %s, %s%s (each id is evaluated at its first"
                        + " line), %d without text%n",
                Format.count(kept.size(), "document"),
                Format.count(rejected, "rejected record"),
                deletions == 0 ? "" : Format.count(deletions, "deletion") + ", ",
                Format.count(
                        repeated, "later line of a re-crawled id", "later lines of re-crawled ids"),
                noText);
        return kept;
    }

    /** " (1,234 documents/s)", or nothing for a job too short for its rate to mean its speed. */
    private static String rateOf(int verdicts, double jobSeconds) {
        String rate = Format.rate(verdicts, jobSeconds);
        return rate == null ? "" : " (" + rate + ")";
    }

    /** The summary of the HTML report. */
    private static List<Report.Fact> facts(
            Options o,
            Evaluation.Report r,
            NearDupSettings settings,
            double floorValue,
            double joinSeconds,
            double jobSeconds,
            int verdicts) {
        String s = r.similarity();
        return List.of(
                new Report.Fact("input", o.input()),
                new Report.Fact("settings", SimilarityMode.of(settings).describe()),
                new Report.Fact(
                        "exact answer",
                        String.format(
                                Locale.ROOT,
                                "%,d pairs with %s similarity >= %s among %,d documents"
                                        + " (similarity join: %.1f s)",
                                r.exactPairs(),
                                s,
                                ModeEvaluation.ratio(floorValue),
                                r.documents(),
                                joinSeconds)),
                new Report.Fact(
                        "job",
                        String.format(
                                Locale.ROOT,
                                "%,d verdicts in %.1f s%s",
                                verdicts,
                                jobSeconds,
                                rateOf(verdicts, jobSeconds))),
                new Report.Fact(
                        "doc-level recall",
                        String.format(
                                Locale.ROOT,
                                "%s (%,d of %,d documents with an earlier one at %s >= %s)",
                                ModeEvaluation.ratio(r.documentRecall()),
                                r.documentsFound(),
                                r.documentsWithSimilarEarlier(),
                                s,
                                ModeEvaluation.ratio(r.recallSimilarity()))),
                new Report.Fact(
                        "pair recall",
                        String.format(
                                Locale.ROOT,
                                "%s (%,d of %,d pairs at %s >= %s)",
                                ModeEvaluation.ratio(r.pairRecall()),
                                r.truePairsFound(),
                                r.truePairs(),
                                s,
                                ModeEvaluation.ratio(r.recallSimilarity()))),
                new Report.Fact(
                        "pair precision",
                        String.format(
                                Locale.ROOT,
                                "%s (%,d of %,d reported pairs have exact %s >= %s)",
                                ModeEvaluation.ratio(r.pairPrecision()),
                                r.reportedPairsAbove(),
                                r.reportedPairs(),
                                s,
                                ModeEvaluation.ratio(r.precisionSimilarity()))));
    }

    private static void print(
            Options o,
            PrintWriter out,
            Evaluation.Report r,
            NearDupSettings settings,
            ModeEvaluation mode,
            double floorValue,
            double joinSeconds,
            double jobSeconds,
            int verdicts) {
        if (o.json()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("input", o.input());
            m.put("settings", SimilarityMode.of(settings).describe());
            m.put("similarity", r.similarity());
            m.put("threshold", settings.similarity().threshold());
            m.put("floor", floorValue);
            m.put("report", r);
            m.put("exactJoinSeconds", joinSeconds);
            m.put("jobSeconds", jobSeconds);
            m.put("jobDocumentsPerSecond", verdicts / jobSeconds);
            out.println(Json.write(m));
            return;
        }
        Formatter f = new Formatter(out, Locale.ROOT);
        ModeEvaluation.Terms terms = mode.terms();
        String s = terms.symbol();
        String digits = terms.digits();
        f.format("neardup evaluate  %s%n", o.input());
        f.format("settings          %s%n", SimilarityMode.of(settings).describe());
        f.format(
                "exact answer      %d pairs with %s >= "
                        + digits
                        + " among %d documents"
                        + " (similarity join: %.1f s)%n",
                r.exactPairs(),
                terms.answer(),
                floorValue,
                r.documents(),
                joinSeconds);
        f.format(
                "job               %d verdicts in %.1f s%s, %.2f %s per document%n",
                verdicts,
                jobSeconds,
                rateOf(verdicts, jobSeconds),
                r.candidatesPerDocument(),
                terms.work());
        f.format(
                "doc-level recall  %s  (%d of %d documents with an earlier one at %s >= "
                        + digits
                        + " were found duplicate)%n",
                ModeEvaluation.ratio(r.documentRecall()),
                r.documentsFound(),
                r.documentsWithSimilarEarlier(),
                s,
                r.recallSimilarity());
        f.format(
                "pair recall       %s  (%d of %d pairs at %s >= " + digits + " were reported)%n",
                ModeEvaluation.ratio(r.pairRecall()),
                r.truePairsFound(),
                r.truePairs(),
                s,
                r.recallSimilarity());
        f.format(
                "pair precision    %s  (%d of %d reported pairs have exact %s >= " + digits + ")%n",
                ModeEvaluation.ratio(r.pairPrecision()),
                r.reportedPairsAbove(),
                r.reportedPairs(),
                s,
                r.precisionSimilarity());
        out.println();
        out.println(
                "recall by similarity (a pair is found when the job reported it, or the same"
                        + " pair of pages up to exact copies:");
        out.println(
                "documents with "
                        + terms.standIn()
                        + " stand for each other, and the job reports later pages against the"
                        + " first):");
        out.println(terms.header());
        for (Evaluation.Bucket b : r.buckets()) {
            out.println(mode.row(b));
        }
        out.printf(
                Locale.ROOT,
                "reported: the pairs the job reported whose exact %s is in the range; %d more are"
                        + " below %s%n",
                s,
                r.reportedBelowFloor(),
                String.format(Locale.ROOT, digits, floorValue));
    }
}
