package dev.neardup.tools.compare;

import dev.neardup.config.Format;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.Setting;
import dev.neardup.io.Json;
import dev.neardup.lsh.Banding;
import dev.neardup.lsh.LshParams;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.similarity.JaccardTuning;
import dev.neardup.similarity.ModeReport;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.sketch.BottomKContainment;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.SampleEstimate;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import dev.neardup.text.ContentType;
import dev.neardup.text.HtmlText;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import dev.neardup.text.Tokenizer;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The {@code compare} tool: the exact similarity of two documents (Jaccard and containment of their
 * shingle sets), the MinHash estimate with its standard error, what the mode adds ({@link
 * SimilarityMode#comparison}: with cosine the exact cosine and the SimHash estimate), and what the
 * streaming job would do with the pair ({@link JobDecision}).
 */
public final class Compare {

    /**
     * The documents and the output of a comparison.
     *
     * @param first document A: a file, -, a file: URL or an http(s):// URL
     * @param second document B
     * @param stdin what - reads
     * @param userAgent the User-Agent of HTTP requests
     * @param warnings the prefix of warning lines on {@code err}
     */
    public record Options(
            String first,
            String second,
            DocumentReader.ContentTypeOption contentType,
            InputStream stdin,
            String userAgent,
            String warnings,
            boolean json) {}

    private final Options options;
    private final NearDupSettings settings;
    private final double threshold;
    private final boolean bandsGiven;
    private final LshParams params;
    private final int sketchSize;
    private final MinHash minHash;

    private Compare(
            Options options, ReadableConfig conf, LshParams banding, NearDupSettings settings) {
        this.options = options;
        this.settings = settings;
        this.threshold = conf.get(NearDupOptions.THRESHOLD);
        this.bandsGiven = conf.getOptional(NearDupOptions.BANDS).isPresent();
        this.params = banding;
        this.sketchSize = conf.get(NearDupOptions.CONTAINMENT_SKETCH_SIZE);
        this.minHash = settings.text().minHash();
    }

    /** The banding: --bands x --rows, or chosen from the threshold; a bad one is a usage error. */
    public static LshParams banding(ReadableConfig conf) {
        return JaccardTuning.banding(
                conf, conf.get(NearDupOptions.THRESHOLD), conf.get(NearDupOptions.NUM_HASHES));
    }

    /**
     * Compares the two documents: the result on {@code out}, warnings on {@code err}.
     *
     * @param conf the configuration: the settings, and the threshold, the banding ({@link
     *     #banding}) and the containment sample size of the Jaccard and containment comparison
     *     (their defaults in the modes without them)
     */
    public static void run(Options options, Configuration conf, PrintWriter out, PrintWriter err) {
        // The banding before the settings, so that --bands and --rows are refused in their words.
        LshParams banding = banding(conf);
        new Compare(options, conf, banding, EmbeddedJob.settings(conf)).run(out, err);
    }

    private void run(PrintWriter out, PrintWriter err) {
        DocumentReader reader =
                new DocumentReader(
                        options.stdin(),
                        options.userAgent(),
                        w -> err.println(options.warnings() + ": " + w));
        Analysis a = analyse(reader.read(options.first(), options.contentType()));
        Analysis b = analyse(reader.read(options.second(), options.contentType()));
        err.flush();

        Comparison c = compare(a, b);
        ModeReport mode =
                SimilarityMode.of(settings)
                        .comparison(a.doc.content(), a.doc.type(), b.doc.content(), b.doc.type());
        JobDecision job =
                new JobDecision(
                        settings,
                        a.doc.content(),
                        a.doc.type(),
                        a.tokens,
                        b.doc.content(),
                        b.doc.type(),
                        b.tokens);
        if (options.json()) {
            Map<String, Object> o = toJson(c);
            if (mode != null) {
                o.put(SimilarityMode.of(settings).name(), mode.toJson());
            }
            o.put("job", job.toJson());
            out.println(Json.pretty(o));
        } else {
            printText(c, out);
            if (mode != null) {
                mode.printText(out);
            }
            job.printText(
                    out,
                    (bandsGiven
                                    ? "bands x rows, given with --bands and --rows"
                                    : "bands x rows, as 'neardup tune --threshold "
                                            + Format.plain(threshold)
                                            + "' chooses")
                            + "; P(candidate) at the exact Jaccard is "
                            + Format.probability(params.probability(c.jaccard)));
        }
        out.flush();
    }

    /** The setting's value as the command line spells it: snowball, oph. */
    private static String flag(ConfigOption<?> option, Object value) {
        return Setting.forKey(option.key()).toFlag(value);
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** One document's shingles and signature. */
    private record Analysis(
            DocumentReader.Document doc,
            int tokens,
            ShingleSet set,
            long[] signature,
            long[] hashes) {

        Map<String, Object> toJson() {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("source", doc.source());
            o.put("contentType", name(doc.type()));
            o.put("contentTypeFrom", doc.typeReason());
            o.put("tokens", tokens);
            o.put("shingles", hashes.length);
            o.put("distinctShingles", set.size());
            return o;
        }
    }

    private Analysis analyse(DocumentReader.Document doc) {
        ShingleOptions options = settings.text().shingles();
        String text =
                doc.type() == ContentType.HTML
                        ? HtmlText.visibleText(doc.content())
                        : doc.content();
        int tokens =
                new Tokenizer(options.removeStopWords(), options.stemming())
                        .tokenize(text)
                        .tokenCount();
        long[] hashes = new Shingler(options).shingleHashes(text);
        return new Analysis(doc, tokens, ShingleSet.of(hashes), minHash.signature(hashes), hashes);
    }

    /** What both outputs show of the pair. */
    private record Comparison(
            Analysis a,
            Analysis b,
            int intersection,
            int union,
            double jaccard,
            double estimate,
            BottomKContainment.Estimate containmentEstimate) {}

    private Comparison compare(Analysis a, Analysis b) {
        int intersection = a.set.intersectionSize(b.set);
        return new Comparison(
                a,
                b,
                intersection,
                a.set.size() + b.set.size() - intersection,
                Similarity.jaccard(a.set, b.set),
                Similarity.estimateJaccard(a.signature, b.signature),
                BottomKContainment.containment(sample(a), sample(b)));
    }

    private byte[] sample(Analysis d) {
        return BottomKContainment.pack(BottomKContainment.sample(d.hashes, sketchSize), sketchSize);
    }

    /** The estimator's standard error at the true similarity, which is known here. */
    private double standardError(Comparison c) {
        return Similarity.standardError(c.jaccard, minHash.numHashes());
    }

    private Map<String, Object> toJson(Comparison c) {
        ShingleOptions shingles = settings.text().shingles();
        Map<String, Object> options = new LinkedHashMap<>();
        options.put("shingle", name(shingles.kind()));
        options.put("shingleSize", shingles.size());
        options.put("stopwords", shingles.removeStopWords());
        options.put("stem", flag(NearDupOptions.STEMMING, shingles.stemming()));
        options.put("numHashes", minHash.numHashes());
        options.put("algorithm", flag(NearDupOptions.ALGORITHM, settings.text().algorithm()));
        options.put("threshold", threshold);

        int firstAgreeingBand = new Banding(params).firstAgreeingBand(c.a.signature, c.b.signature);
        BottomKContainment.Estimate e = c.containmentEstimate;
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("options", options);
        o.put("a", c.a.toJson());
        o.put("b", c.b.toJson());
        o.put("intersection", c.intersection);
        o.put("union", c.union);
        o.put("jaccard", c.jaccard);
        o.put("containmentAInB", Similarity.containment(c.a.set, c.b.set));
        o.put("containmentBInA", Similarity.containment(c.b.set, c.a.set));
        o.put("estimatedContainmentAInB", e.aInB());
        o.put("estimatedContainmentBInA", e.bInA());
        o.put("containmentSketchSize", sketchSize);
        o.put("containmentSampleA", e.sampleA());
        o.put("containmentSampleB", e.sampleB());
        o.put("estimate", c.estimate);
        o.put("standardError", standardError(c));
        o.put("bands", params.bands());
        o.put("rows", params.rows());
        o.put("candidateProbability", params.probability(c.jaccard));
        o.put("candidate", firstAgreeingBand >= 0);
        o.put("firstAgreeingBand", firstAgreeingBand >= 0 ? firstAgreeingBand : null);
        o.put("nearDuplicate", c.estimate >= threshold);
        return o;
    }

    private void printText(Comparison c, PrintWriter out) {
        ShingleOptions shingles = settings.text().shingles();
        out.println(
                "Shingling: "
                        + name(shingles.kind())
                        + " "
                        + shingles.size()
                        + "-shingles, "
                        + (shingles.removeStopWords() ? "stop words removed" : "stop words kept")
                        + ", "
                        + (shingles.stemming() == Tokenizer.Stemming.NONE
                                ? "no stemming"
                                : flag(NearDupOptions.STEMMING, shingles.stemming()) + " stemming")
                        + "; MinHash "
                        + flag(NearDupOptions.ALGORITHM, settings.text().algorithm())
                        + ", K = "
                        + minHash.numHashes());
        out.println();
        printDocument(out, "A", c.a);
        printDocument(out, "B", c.b);
        out.println();
        ModeReport.line(
                out,
                "exact Jaccard",
                Format.fixed(c.jaccard),
                c.intersection
                        + " shared of "
                        + c.union
                        + " distinct shingles"
                        + (c.union == 0 ? " (two empty sets count as identical)" : ""));
        ModeReport.line(
                out,
                "containment A in B",
                Format.fixed(Similarity.containment(c.a.set, c.b.set)),
                "share of A's in B");
        ModeReport.line(
                out,
                "containment B in A",
                Format.fixed(Similarity.containment(c.b.set, c.a.set)),
                "share of B's in A");
        BottomKContainment.Estimate e = c.containmentEstimate;
        ModeReport.line(
                out,
                "estimated A in B",
                Format.fixed(e.aInB()),
                estimateNote(e.aInBSample(), e.sampleA(), "A"));
        ModeReport.line(
                out,
                "estimated B in A",
                Format.fixed(e.bInA()),
                estimateNote(e.bInASample(), e.sampleB(), "B"));
        ModeReport.line(
                out,
                "MinHash estimate",
                Format.fixed(c.estimate),
                String.format(
                        Locale.ROOT,
                        "+/- %.4f standard error at the exact Jaccard (%s, K = %d)",
                        standardError(c),
                        flag(NearDupOptions.ALGORITHM, settings.text().algorithm()),
                        minHash.numHashes()));
    }

    /** How a containment estimate was made and how far off it may be. */
    private String estimateNote(SampleEstimate sample, int k, String of) {
        if (sample.exhaustive()) {
            return "exact: both bottom-" + sketchSize + " samples hold their whole sets";
        }
        return String.format(
                Locale.ROOT,
                "+/- %.4f from %d sampled shingles of %s (bottom-%d, as 'run --containment')",
                sample.standardError(),
                k,
                of,
                sketchSize);
    }

    private void printDocument(PrintWriter out, String label, Analysis d) {
        String source = d.doc.source();
        out.printf(
                Locale.ROOT, "%s  %s%n", label, source.equals("-") ? "- (standard input)" : source);
        out.printf(
                Locale.ROOT,
                "   %s (%s): %d tokens, %d %s, %d distinct%n",
                name(d.doc.type()),
                d.doc.typeReason(),
                d.tokens,
                d.hashes.length,
                d.hashes.length == 1 ? "shingle" : "shingles",
                d.set.size());
        if (d.tokens == 0) {
            out.println("   note: no tokens (empty, or no visible text); its shingle set is empty");
        } else if (settings.text().shingles().kind() == ShingleOptions.Kind.WORD
                && d.tokens < settings.text().shingles().size()) {
            out.println(
                    "   note: fewer tokens than the shingle size; the whole text is one shingle");
        }
    }
}
