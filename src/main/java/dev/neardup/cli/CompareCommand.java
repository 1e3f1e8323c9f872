package dev.neardup.cli;

import dev.neardup.config.Format;
import dev.neardup.config.NearDupOptions;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.runtime.NeardupException;
import dev.neardup.sketch.MinHash;
import dev.neardup.text.ShingleOptions;
import dev.neardup.tools.compare.Compare;
import dev.neardup.tools.compare.DocumentReader;
import dev.neardup.tools.compare.JobDecision;
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
        Compare.run(
                new Compare.Options(
                        first,
                        second,
                        contentType,
                        parent != null ? parent.stdin() : System.in,
                        "neardup/" + VersionProvider.version(),
                        spec.qualifiedName(),
                        threshold,
                        bands,
                        rows,
                        json,
                        shingleOptions,
                        minHash,
                        this::jobSettings,
                        similarity.cosine(),
                        similarity.sketchSize != null
                                ? similarity.sketchSize
                                : NearDupOptions.CONTAINMENT_SKETCH_SIZE.defaultValue(),
                        sketch.describe(),
                        SketchOptions.name(sketch.shingleKind()),
                        sketch.shingleSize(),
                        sketch.stopWords(),
                        SketchOptions.name(sketch.stem()),
                        SketchOptions.name(sketch.algorithm()),
                        sketch.shingleKind() == SketchOptions.ShingleKind.WORD
                                ? sketch.shingleSize()
                                : 1),
                spec.commandLine().getOut(),
                spec.commandLine().getErr());
        return 0;
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
}
