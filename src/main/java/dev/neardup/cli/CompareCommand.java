package dev.neardup.cli;

import dev.neardup.io.Json;
import dev.neardup.lsh.Banding;
import dev.neardup.lsh.LshParams;
import dev.neardup.pipeline.NearDupOptions;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.runtime.NeardupException;
import dev.neardup.sketch.BottomKContainment;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import dev.neardup.text.ContentType;
import dev.neardup.text.HtmlText;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import dev.neardup.text.Tokenizer;
import dev.neardup.tools.Format;
import dev.neardup.tools.compare.CosineComparison;
import dev.neardup.tools.compare.DocumentReader;
import dev.neardup.tools.compare.JobDecision;
import dev.neardup.tools.tune.Tuning;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code neardup compare A B}: the exact similarity of two documents (Jaccard and containment of
 * their shingle sets), the MinHash estimate with its standard error, and, apart from those, what
 * the streaming job would do with the pair ({@link JobDecision}).
 */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        header = "Compare two documents: exact similarity, and what the job would do.",
        description = {
            "Compares two documents: exact Jaccard similarity and containment of their shingle"
                    + " sets, the MinHash estimate of the Jaccard similarity with its standard"
                    + " error; with --similarity cosine also the exact cosine of their"
                    + " term-frequency vectors, the SimHash estimate and Hamming distance.",
            "",
            "Then what 'neardup run' with these options would do with the pair: the bands (or"
                    + " cosine's tables) in which they collide, the estimate its buckets verify"
                    + " them with (b-bit MinHash for Jaccard, cos(pi h / D) for cosine) against"
                    + " the threshold, and one line: whether the job would alert the pair, and"
                    + " why.",
            "",
            "A document is a file, '-' for standard input (at most one of the two), a file: URL"
                    + " or an http(s):// URL. HTML is reduced to its visible text first.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  neardup compare page.html page-copy.html",
            "  neardup compare --shingle char --stem porter a.txt b.txt",
            "  neardup compare --similarity cosine --max-hamming 3 a.html b.html",
            "  curl -s https://example.org/ | neardup compare - mirror.html --json"
        })
final class CompareCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @ParentCommand Neardup parent;

    @Parameters(
            index = "0",
            paramLabel = "A",
            description = "The first document: a file, '-', a file: URL or an http(s):// URL.")
    String first;

    @Parameters(index = "1", paramLabel = "B", description = "The second document, as A.")
    String second;

    @Option(
            names = "--content-type",
            paramLabel = "auto|html|text",
            converter = EnumConverter.ContentTypeConverter.class,
            defaultValue = "auto",
            description =
                    "How to read the documents: html, text, or auto to decide from the HTTP"
                            + " Content-Type, the file extension (html, htm, xhtml or txt) or the"
                            + " content itself. Default: ${DEFAULT-VALUE}.")
    DocumentReader.ContentTypeOption contentType = DocumentReader.ContentTypeOption.AUTO;

    @Mixin SketchOptions sketch;

    @Mixin SimilarityOptions similarity;

    @Option(
            names = {"-t", "--threshold"},
            paramLabel = "T",
            defaultValue = "0.8",
            description =
                    "Jaccard similarity from which a pair is a near-duplicate, strictly between 0"
                            + " and 1; also chooses the LSH banding. Default: ${DEFAULT-VALUE}.")
    double threshold;

    @Option(
            names = "--bands",
            paramLabel = "B",
            description =
                    "LSH bands (with --rows). Default: chosen from the threshold as 'neardup run'"
                            + " and 'neardup tune' choose them.")
    Integer bands;

    @Option(names = "--rows", paramLabel = "R", description = "LSH rows per band (with --bands).")
    Integer rows;

    @Option(
            names = "--signature-bits",
            paramLabel = "B",
            description =
                    "Bits of each MinHash value the job's buckets keep to verify a pair (1, 2,"
                            + " 4, 8 or 16): the estimate the job's answer rests on. Default:"
                            + " ${bundle:neardup.bucket.signature-bits}.")
    Integer signatureBits;

    @Option(names = "--json", description = "Print the result as one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        if (!(threshold > 0 && threshold < 1)) {
            throw NeardupException.usage(
                    "threshold must be a Jaccard similarity strictly between 0 and 1, got "
                            + Format.plain(threshold));
        }
        if (first.equals("-") && second.equals("-")) {
            throw NeardupException.usage(
                    "only one of A and B can be '-' (standard input is read only once)");
        }
        ShingleOptions shingleOptions = sketch.shingleOptions();
        MinHash minHash = sketch.minHash();
        LshParams params = Tuning.banding(threshold, minHash.numHashes(), bands, rows);
        Banding banding = new Banding(params);

        PrintWriter err = spec.commandLine().getErr();
        String name = spec.qualifiedName();
        InputStream stdin = parent != null ? parent.stdin() : System.in;
        DocumentReader reader =
                new DocumentReader(
                        stdin,
                        "neardup/" + VersionProvider.version(),
                        w -> err.println(name + ": " + w));
        Analysis a = analyse(reader.read(first, contentType), shingleOptions, minHash);
        Analysis b = analyse(reader.read(second, contentType), shingleOptions, minHash);
        err.flush();

        Comparison c = new Comparison(a, b, minHash.numHashes(), params, banding);
        NearDupSettings settings = jobSettings();
        CosineComparison cosine = similarity.cosine() ? cosine(settings, a, b) : null;
        JobDecision job =
                new JobDecision(
                        settings,
                        a.doc.content(),
                        a.doc.type(),
                        a.tokens,
                        b.doc.content(),
                        b.doc.type(),
                        b.tokens);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> o = c.toJson();
            if (cosine != null) {
                o.put("cosine", cosine.toJson());
            }
            o.put("job", job.toJson());
            out.println(Json.pretty(o));
        } else {
            printText(c, out);
            if (cosine != null) {
                cosine.printText(out);
            }
            job.printText(
                    out,
                    (bands != null
                                    ? "bands x rows, given with --bands and --rows"
                                    : "bands x rows, as 'neardup tune --threshold "
                                            + Format.plain(threshold)
                                            + "' chooses")
                            + "; P(candidate) at the exact Jaccard is "
                            + Format.probability(c.params.probability(c.jaccard)));
        }
        out.flush();
        return 0;
    }

    /** One document's shingles and signature. */
    private record Analysis(
            DocumentReader.Document doc,
            int tokens,
            int shingles,
            ShingleSet set,
            long[] signature,
            long[] hashes) {

        Map<String, Object> toJson() {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("source", doc.source());
            o.put("contentType", SketchOptions.name(doc.type()));
            o.put("contentTypeFrom", doc.typeReason());
            o.put("tokens", tokens);
            o.put("shingles", shingles);
            o.put("distinctShingles", set.size());
            return o;
        }
    }

    /**
     * The job's settings for these options: the shingling and the similarity family; for Jaccard
     * also the threshold, the banding and the signature bits (cosine keeps its --max-hamming, and
     * --containment is its own threshold).
     */
    private NearDupSettings jobSettings() {
        Configuration conf = new Configuration();
        sketch.applyTo(conf);
        similarity.applyTo(conf);
        if (!similarity.cosine() && !similarity.containment()) {
            conf.set(NearDupOptions.THRESHOLD, threshold);
            if (bands != null) {
                conf.set(NearDupOptions.BANDS, bands);
                conf.set(NearDupOptions.ROWS, rows);
            }
        }
        if (signatureBits != null) {
            conf.set(NearDupOptions.SIGNATURE_BITS, signatureBits);
        }
        return JobOptions.settings(conf);
    }

    /** The cosine family's comparison, with the job's settings for these options. */
    private CosineComparison cosine(NearDupSettings settings, Analysis a, Analysis b) {
        return new CosineComparison(
                settings, a.doc.content(), a.doc.type(), b.doc.content(), b.doc.type());
    }

    private static Analysis analyse(
            DocumentReader.Document doc, ShingleOptions options, MinHash minHash) {
        String text =
                doc.type() == ContentType.HTML
                        ? HtmlText.visibleText(doc.content())
                        : doc.content();
        int tokens =
                new Tokenizer(options.removeStopWords(), options.stemming())
                        .tokenize(text)
                        .tokenCount();
        long[] hashes = new Shingler(options).shingleHashes(text);
        return new Analysis(
                doc,
                tokens,
                hashes.length,
                ShingleSet.of(hashes),
                minHash.signature(hashes),
                hashes);
    }

    /** Everything both outputs show. */
    private final class Comparison {
        final Analysis a;
        final Analysis b;
        final int numHashes;
        final LshParams params;
        final int intersection;
        final int union;
        final double jaccard;
        final double containmentAinB;
        final double containmentBinA;
        final int sketchSize;
        final BottomKContainment.Estimate containmentEstimate;
        final double estimate;
        final double standardError;
        final int firstAgreeingBand;
        final boolean nearDuplicate;

        Comparison(Analysis a, Analysis b, int numHashes, LshParams params, Banding banding) {
            this.a = a;
            this.b = b;
            this.numHashes = numHashes;
            this.params = params;
            this.intersection = a.set.intersectionSize(b.set);
            this.union = a.set.size() + b.set.size() - intersection;
            this.jaccard = Similarity.jaccard(a.set, b.set);
            this.containmentAinB = Similarity.containment(a.set, b.set);
            this.containmentBinA = Similarity.containment(b.set, a.set);
            this.sketchSize =
                    similarity.sketchSize != null
                            ? similarity.sketchSize
                            : NearDupOptions.CONTAINMENT_SKETCH_SIZE.defaultValue();
            this.containmentEstimate =
                    BottomKContainment.containment(
                            BottomKContainment.pack(
                                    BottomKContainment.sample(a.hashes, sketchSize), sketchSize),
                            BottomKContainment.pack(
                                    BottomKContainment.sample(b.hashes, sketchSize), sketchSize));
            this.estimate = Similarity.estimateJaccard(a.signature, b.signature);
            // The estimator's standard error at the true similarity, which is known here.
            this.standardError = Similarity.standardError(jaccard, numHashes);
            this.firstAgreeingBand = banding.firstAgreeingBand(a.signature, b.signature);
            this.nearDuplicate = estimate >= threshold;
        }

        Map<String, Object> toJson() {
            Map<String, Object> options = new LinkedHashMap<>();
            options.put("shingle", SketchOptions.name(sketch.shingleKind()));
            options.put("shingleSize", sketch.shingleSize());
            options.put("stopwords", sketch.stopWords());
            options.put("stem", SketchOptions.name(sketch.stem()));
            options.put("numHashes", numHashes);
            options.put("algorithm", SketchOptions.name(sketch.algorithm()));
            options.put("threshold", threshold);

            Map<String, Object> o = new LinkedHashMap<>();
            o.put("options", options);
            o.put("a", a.toJson());
            o.put("b", b.toJson());
            o.put("intersection", intersection);
            o.put("union", union);
            o.put("jaccard", jaccard);
            o.put("containmentAInB", containmentAinB);
            o.put("containmentBInA", containmentBinA);
            o.put("estimatedContainmentAInB", containmentEstimate.aInB());
            o.put("estimatedContainmentBInA", containmentEstimate.bInA());
            o.put("containmentSketchSize", sketchSize);
            o.put("containmentSampleA", containmentEstimate.sampleA());
            o.put("containmentSampleB", containmentEstimate.sampleB());
            o.put("estimate", estimate);
            o.put("standardError", standardError);
            o.put("bands", params.bands());
            o.put("rows", params.rows());
            o.put("candidateProbability", params.probability(jaccard));
            o.put("candidate", firstAgreeingBand >= 0);
            o.put("firstAgreeingBand", firstAgreeingBand >= 0 ? firstAgreeingBand : null);
            o.put("nearDuplicate", nearDuplicate);
            return o;
        }
    }

    private void printText(Comparison c, PrintWriter out) {
        out.println("Shingling: " + sketch.describe());
        out.println();
        printDocument(out, "A", c.a);
        printDocument(out, "B", c.b);
        out.println();
        line(
                out,
                "exact Jaccard",
                Format.fixed(c.jaccard),
                c.intersection
                        + " shared of "
                        + c.union
                        + " distinct shingles"
                        + (c.union == 0 ? " (two empty sets count as identical)" : ""));
        line(out, "containment A in B", Format.fixed(c.containmentAinB), "share of A's in B");
        line(out, "containment B in A", Format.fixed(c.containmentBinA), "share of B's in A");
        BottomKContainment.Estimate e = c.containmentEstimate;
        line(
                out,
                "estimated A in B",
                Format.fixed(e.aInB()),
                estimateNote(e.aInBSample(), e.sampleA(), "A", c.sketchSize));
        line(
                out,
                "estimated B in A",
                Format.fixed(e.bInA()),
                estimateNote(e.bInASample(), e.sampleB(), "B", c.sketchSize));
        line(
                out,
                "MinHash estimate",
                Format.fixed(c.estimate),
                String.format(
                        Locale.ROOT,
                        "+/- %.4f standard error at the exact Jaccard (%s, K = %d)",
                        c.standardError,
                        SketchOptions.name(sketch.algorithm()),
                        c.numHashes));
    }

    /** How a containment estimate was made and how far off it may be. */
    private static String estimateNote(
            dev.neardup.sketch.SampleEstimate sample, int k, String of, int sketchSize) {
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
                SketchOptions.name(d.doc.type()),
                d.doc.typeReason(),
                d.tokens,
                d.shingles,
                d.shingles == 1 ? "shingle" : "shingles",
                d.set.size());
        if (d.tokens == 0) {
            out.println("   note: no tokens (empty, or no visible text); its shingle set is empty");
        } else if (d.tokens
                < (sketch.shingleKind() == SketchOptions.ShingleKind.WORD
                        ? sketch.shingleSize()
                        : 1)) {
            out.println(
                    "   note: fewer tokens than the shingle size; the whole text is one shingle");
        }
    }

    private static void line(PrintWriter out, String label, String value, String note) {
        out.printf(Locale.ROOT, "%-19s %-7s %s%n", label, value, note);
    }
}
