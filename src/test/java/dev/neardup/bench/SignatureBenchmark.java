package dev.neardup.bench;

import dev.neardup.lsh.Banding;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.LshParams;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.MinHashAlgorithm;
import dev.neardup.text.ContentType;
import dev.neardup.text.HtmlText;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import dev.neardup.tools.bench.SyntheticText;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The signature step: document -> tokens -> word 5-shingles -> K = 128 signature -> band keys, per
 * MinHash algorithm, for plain text and for HTML (visible-text extraction included). Throughput is
 * reported in operations (documents) per second; multiply by the document size for bytes/s (the
 * 'bytes' auxiliary counter below does it: its score is bytes per second).
 *
 * <p>Run: {@code mvn -Pjmh -DskipTests verify -Djmh.args="SignatureBenchmark"}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SignatureBenchmark {

    @Param({"OPH", "CLASSIC"})
    public MinHashAlgorithm algorithm;

    @Param({"TEXT", "HTML"})
    public ContentType input;

    /**
     * The script of the visible text: ASCII prose; the same prose with a few non-ASCII characters
     * per paragraph (curly quotes, an em dash, a copyright sign, "café", "naïve": a realistic
     * English page); GERMAN, the prose with umlauts and ß in about half of the words; CYRILLIC, the
     * prose transliterated letter by letter to Cyrillic (every token non-ASCII); CJK, Chinese
     * ideographs and Japanese kana derived from the same words, with no spaces between words of a
     * sentence.
     */
    @Param({"ASCII", "MOSTLY_ASCII", "GERMAN", "CYRILLIC", "CJK"})
    public String script;

    /** Size of the document's visible text, in bytes. */
    @Param({"32768"})
    public int textBytes;

    private String document;
    private long documentBytes;
    private DocumentSketcher sketcher;
    private Shingler shingler;
    private HtmlText htmlText;

    @Setup(Level.Trial)
    public void setUp() {
        document =
                input == ContentType.HTML
                        ? ScriptedText.transformHtml(SyntheticText.html(7, textBytes), script)
                        : ScriptedText.transform(SyntheticText.prose(7, textBytes), script);
        documentBytes = document.getBytes(StandardCharsets.UTF_8).length;
        MinHash minHash = MinHash.create(algorithm, 128, MinHash.DEFAULT_SEED);
        sketcher =
                new DocumentSketcher(
                        ShingleOptions.defaults(),
                        minHash,
                        new Banding(LshParams.suggest(0.8, 128)));
        shingler = new Shingler(ShingleOptions.defaults());
        htmlText = new HtmlText();
    }

    /** Counts input bytes, so JMH reports bytes/s next to documents/s. */
    @State(Scope.Thread)
    @org.openjdk.jmh.annotations.AuxCounters(
            org.openjdk.jmh.annotations.AuxCounters.Type.OPERATIONS)
    public static class Bytes {
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    @Benchmark
    public DocumentSketcher.Sketch sketch(Bytes counter) {
        counter.bytes += documentBytes;
        return sketcher.sketch(document, input);
    }

    /** Shingling alone (tokens and shingle hashes), to see where the time goes. */
    @Benchmark
    public void shinglesOnly(Bytes counter, Blackhole blackhole) {
        counter.bytes += documentBytes;
        blackhole.consume(shingler.shingleHashes(document, input));
    }

    /**
     * The HTML to visible text step alone (for TEXT input: plain text through the extractor, a
     * copy). Its bytes/s is the input's.
     */
    @Benchmark
    public int visibleTextOnly(Bytes counter) {
        counter.bytes += documentBytes;
        return htmlText.extract(document).length();
    }
}
