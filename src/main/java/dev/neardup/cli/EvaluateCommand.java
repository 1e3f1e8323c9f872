package dev.neardup.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.DocumentParser;
import dev.neardup.io.Json;
import dev.neardup.io.JsonLinesFormat;
import dev.neardup.io.RawRecord;
import dev.neardup.pipeline.EmbeddedJob;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.sketch.BbitMinHash;
import dev.neardup.sketch.ExactSimilarityJoin;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.text.ContentType;
import dev.neardup.text.Shingler;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.local.LocalDataInputStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code neardup evaluate}: how well the job finds near-duplicates in the user's own corpus,
 * against the exact answer: all pairs above a floor by an exact similarity join, then the real job
 * on the same input, then recall and precision.
 */
@Command(
        name = "evaluate",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        header = "Recall and precision on your own corpus, against the exact answer.",
        description = {
            "Evaluate neardup on a corpus (JSON Lines, as for 'run') against the exact answer:"
                    + " computes every pair of documents with exact Jaccard similarity >= --floor"
                    + " (prefix-filtering similarity join over the same shingles), runs the real"
                    + " job on the same input, and reports doc-level recall, pair precision,"
                    + " recall by similarity next to the S-curve's prediction, and the cost"
                    + " (candidates verified per document).",
            "Repeated ids (re-crawls) keep their first occurrence; records the job would reject"
                    + " are left out of both answers.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  neardup evaluate --input crawl.jsonl --plot recall.png",
            "  neardup evaluate --input crawl.jsonl --threshold 0.9 --bands 14 --rows 9 \\",
            "      --json"
        })
final class EvaluateCommand implements Callable<Integer> {

    @Option(
            names = {"--input", "-i"},
            paramLabel = "FILE",
            required = true,
            description = "JSON Lines file of documents.")
    Path input;

    @Mixin JobOptions job;

    @Option(
            names = "--floor",
            paramLabel = "J",
            defaultValue = "0.5",
            description = "Lowest exact similarity of the ground truth. Default: ${DEFAULT-VALUE}.")
    double floor;

    @Option(
            names = "--recall-similarity",
            paramLabel = "J",
            defaultValue = "0.9",
            description =
                    "Doc-level recall counts documents with an earlier document at least this"
                            + " similar. Default: ${DEFAULT-VALUE}.")
    double recallSimilarity;

    @Option(
            names = "--precision-similarity",
            paramLabel = "J",
            defaultValue = "0.7",
            description =
                    "Pair precision counts reported pairs at least this similar. Default:"
                            + " ${DEFAULT-VALUE}.")
    double precisionSimilarity;

    @Option(names = "--json", description = "Print the report as one JSON object.")
    boolean json;

    @Option(
            names = "--plot",
            paramLabel = "FILE.png|FILE.svg",
            description = "Draw measured recall per bucket over the predicted curves.")
    Path plot;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        for (double[] range :
                new double[][] {{floor, 0}, {recallSimilarity, 1}, {precisionSimilarity, 2}}) {
            if (!(range[0] > 0 && range[0] <= 1)) {
                throw CliException.usage("similarities must be in (0, 1], got " + range[0]);
            }
        }
        CliFiles.readableFile("input file", input.toString(), input);
        SCurvePlot.ImageFormat plotFormat = null;
        if (plot != null) {
            plotFormat = SCurvePlot.ImageFormat.of(plot);
            if (plotFormat == null) {
                throw CliException.usage("--plot must end in .png or .svg, got " + plot);
            }
        }
        Configuration conf = job.toConfiguration();
        NearDupSettings settings = JobOptions.settings(conf);
        if (settings.family() == dev.neardup.pipeline.SimilarityFamily.COSINE) {
            throw CliException.usage(
                    "evaluate measures Jaccard similarity only so far: --similarity cosine needs"
                            + " an exact cosine join, which it does not have yet (run the job"
                            + " with 'neardup run --similarity cosine' instead)");
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (WorkDir dir = WorkDir.of(null, "nd-eval-")) {
            Path cleaned = dir.path().resolve("input.jsonl");
            List<Evaluation.Doc> docs = readDocuments(settings, cleaned, err);
            if (docs.isEmpty()) {
                throw CliException.usage("no usable documents in " + input);
            }
            err.printf(Locale.ROOT, "neardup evaluate: exact join of %d documents%n", docs.size());
            long t0 = System.nanoTime();
            List<ShingleSet> sets = new ArrayList<>(docs.size());
            docs.forEach(d -> sets.add(d.shingles()));
            List<ExactSimilarityJoin.Pair> exact = ExactSimilarityJoin.allPairs(sets, floor);
            double joinSeconds = (System.nanoTime() - t0) / 1e9;

            err.println("neardup evaluate: running the job: " + settings);
            Path verdicts = dir.path().resolve("verdicts.jsonl");
            long t1 = System.nanoTime();
            EmbeddedJob.run(
                    EmbeddedJob.configuration(conf, dir.path(), Duration.ofSeconds(10)),
                    settings,
                    cleaned,
                    null,
                    verdicts.toString(),
                    null);
            double jobSeconds = (System.nanoTime() - t1) / 1e9;
            Map<String, Set<String>> matches = new HashMap<>();
            Map<String, Integer> candidates = new HashMap<>();
            for (String line : Files.readAllLines(verdicts, StandardCharsets.UTF_8)) {
                JsonNode v = Json.MAPPER.readTree(line);
                Set<String> ids = new HashSet<>();
                v.get("matches").forEach(m -> ids.add(m.get("docId").asText()));
                matches.put(v.get("docId").asText(), ids);
                candidates.put(v.get("docId").asText(), v.get("candidates").asInt());
            }
            Evaluation.Report report =
                    Evaluation.compute(
                            docs,
                            exact,
                            matches,
                            candidates,
                            floor,
                            recallSimilarity,
                            precisionSimilarity,
                            settings.banding(),
                            settings.numHashes(),
                            settings.threshold(),
                            settings.signatureBits());
            if (plot != null) {
                try {
                    SCurvePlot.write(
                            EvaluationPlot.create(
                                    report,
                                    settings.banding(),
                                    settings.numHashes(),
                                    settings.threshold()),
                            plot,
                            plotFormat);
                } catch (IOException e) {
                    throw CliException.failure(
                            "cannot write plot " + plot + ": " + e.getMessage(), e);
                }
            }
            print(out, report, settings, joinSeconds, jobSeconds, matches.size());
            if (plot != null && !json) {
                out.println("wrote " + plot);
            }
            return 0;
        }
    }

    /**
     * Reads the input as the job does (same reader, same parser, same text options), keeps the
     * first occurrence of each id with at least one shingle, and writes those records unchanged to
     * {@code cleaned}, the job's input. Deletions are left out too: the exact answer is about the
     * documents of the corpus.
     */
    private List<Evaluation.Doc> readDocuments(
            NearDupSettings settings, Path cleaned, PrintWriter err) throws IOException {
        DocumentParser parser = new DocumentParser(settings.fields(), settings.maxDocumentBytes());
        Shingler shingler = new Shingler(settings.shingleOptions());
        MinHash minHash = settings.newSketcher().minHash();
        List<Evaluation.Doc> docs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int rejected = 0;
        int deletions = 0;
        int repeated = 0;
        int noText = 0;
        StreamFormat.Reader<RawRecord> reader =
                new JsonLinesFormat(input.getFileName().toString(), settings.maxDocumentBytes())
                        .createReader(
                                new Configuration(), new LocalDataInputStream(input.toFile()));
        try (OutputStream out = Files.newOutputStream(cleaned)) {
            RawRecord raw;
            while ((raw = reader.read()) != null) {
                DocumentParser.Result r = parser.parse(raw, 0, 0);
                if (r.deletion() != null) {
                    deletions++;
                    continue;
                }
                if (r.document() == null) {
                    rejected++;
                    continue;
                }
                var doc = r.document();
                if (!seen.add(doc.id)) {
                    repeated++;
                    continue;
                }
                long[] hashes =
                        shingler.shingleHashes(
                                doc.content, ContentType.detect(doc.contentType, doc.content));
                if (hashes.length == 0) {
                    noText++;
                    continue;
                }
                docs.add(
                        new Evaluation.Doc(
                                doc.id,
                                ShingleSet.of(hashes),
                                BbitMinHash.fingerprint(minHash.signature(hashes))));
                out.write(raw.payload);
                out.write('\n');
            }
        } finally {
            reader.close();
        }
        err.printf(
                Locale.ROOT,
                "neardup evaluate: %d documents; left out: %d rejected records, %s%d repeated ids,"
                        + " %d without text%n",
                docs.size(),
                rejected,
                deletions == 0 ? "" : deletions + " deletions, ",
                repeated,
                noText);
        return docs;
    }

    private void print(
            PrintWriter out,
            Evaluation.Report r,
            NearDupSettings settings,
            double joinSeconds,
            double jobSeconds,
            int verdicts) {
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("input", input.toString());
            m.put("settings", settings.toString());
            m.put("floor", floor);
            m.put("report", r);
            m.put("exactJoinSeconds", joinSeconds);
            m.put("jobSeconds", jobSeconds);
            m.put("jobDocumentsPerSecond", verdicts / jobSeconds);
            out.println(Json.write(m));
            return;
        }
        out.printf(Locale.ROOT, "neardup evaluate  %s%n", input);
        out.printf(Locale.ROOT, "settings          %s%n", settings);
        out.printf(
                Locale.ROOT,
                "exact answer      %d pairs with Jaccard >= %.2f among %d documents (similarity"
                        + " join: %.1f s)%n",
                r.exactPairs(),
                floor,
                r.documents(),
                joinSeconds);
        out.printf(
                Locale.ROOT,
                "job               %d verdicts in %.1f s (%.0f documents/s), %.2f candidates"
                        + " verified per document%n",
                verdicts,
                jobSeconds,
                verdicts / jobSeconds,
                r.candidatesPerDocument());
        out.printf(
                Locale.ROOT,
                "doc-level recall  %s  (%d of %d documents with an earlier one at J >= %.2f were"
                        + " found duplicate)%n",
                ratio(r.documentRecall()),
                r.documentsFound(),
                r.documentsWithSimilarEarlier(),
                r.recallSimilarity());
        out.printf(
                Locale.ROOT,
                "pair precision    %s  (%d of %d reported pairs have exact J >= %.2f)%n",
                ratio(r.pairPrecision()),
                r.reportedPairsAbove(),
                r.reportedPairs(),
                r.precisionSimilarity());
        out.println();
        out.println(
                "recall by similarity (a pair is found when the job reported it, or the same"
                        + " pair of pages up to exact copies:");
        out.println(
                "documents with identical signatures stand for each other, and the job reports"
                        + " later pages against the first):");
        out.println(
                "  exact J        pairs    found   recall   S-curve P(candidate)   predicted"
                        + " P(found)");
        for (Evaluation.Bucket b : r.buckets()) {
            out.printf(
                    Locale.ROOT,
                    "  %.2f-%.2f  %8d %8d   %6s   %20s   %18s%n",
                    b.low(),
                    b.high(),
                    b.pairs(),
                    b.found(),
                    ratio(b.recall()),
                    ratio(b.predictedCandidate()),
                    ratio(b.predictedFound()));
        }
    }

    private static String ratio(double x) {
        return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.3f", x);
    }
}
