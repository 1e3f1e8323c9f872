package dev.neardup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.neardup.lsh.LshParams;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import dev.neardup.tools.bench.SyntheticText;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java examples of docs/library.md, compiled and run as the page shows them: each {@code java}
 * block is read from the page, put in a method whose parameters are the inputs it names ({@code
 * html}, {@code htmlA}, {@code textA}, {@code textB}), compiled against the project's classes and
 * run, and the results it computes are checked. A page example that no longer compiles, or whose
 * results are wrong, fails here.
 */
class LibraryUsageTest {

    static final Path PAGE = Path.of("docs", "library.md");

    /** What each example computes that the test checks: variables of the page's code. */
    private static final List<String> FIRST_RESULTS = List.of("a");

    private static final List<String> SECOND_RESULTS =
            List.of(
                    "sketcher",
                    "banding",
                    "estimate",
                    "candidate",
                    "exact",
                    "hamming",
                    "cosine",
                    "aInB");

    @TempDir Path dir;

    @Test
    void thePageHasTheTwoJavaExamplesThisTestRuns() throws IOException {
        List<String> blocks = javaBlocks(Files.readString(PAGE, StandardCharsets.UTF_8));
        assertThat(blocks).hasSize(2);
        assertThat(blocks.get(1)).contains("SimHash").contains("ModMSketch");
    }

    @Test
    void theFirstExampleSketchesAPage() throws Exception {
        String textA = SyntheticText.prose(11, 4000);
        Map<String, Object> r = run(0, FIRST_RESULTS, textA);

        Object sketch = r.get("a");
        assertThat(sketch).isInstanceOf(dev.neardup.lsh.DocumentSketcher.Sketch.class);
        assertThat(((dev.neardup.lsh.DocumentSketcher.Sketch) sketch).signature()).hasSize(128);
    }

    @Test
    void theSecondExampleEstimatesWhatTheExactMeasuresGive() throws Exception {
        String textA = SyntheticText.prose(11, 4000);
        String textB = textA.replace(" the ", " a ");
        Map<String, Object> r = run(1, SECOND_RESULTS, textA);

        Shingler shingler = new Shingler(ShingleOptions.defaults());
        ShingleSet a = ShingleSet.of(shingler.shingleHashes(textA));
        ShingleSet b = ShingleSet.of(shingler.shingleHashes(textB));
        double exact = Similarity.jaccard(a, b);

        assertThat(((dev.neardup.lsh.Banding) r.get("banding")).params())
                .isEqualTo(new LshParams(11, 11));
        assertThat((double) r.get("exact")).isEqualTo(exact).isBetween(0.5, 0.99);
        assertThat((double) r.get("estimate")).isCloseTo(exact, within(0.15));
        // Below 0.6 a pair is an LSH candidate with probability < 4% (S-curve of 11 x 11).
        if (exact < 0.6) {
            assertThat((boolean) r.get("candidate")).isFalse();
        }
        // The navigation bar adds one shingle window's worth of difference at most.
        dev.neardup.lsh.DocumentSketcher sketcher =
                (dev.neardup.lsh.DocumentSketcher) r.get("sketcher");
        assertThat(
                        Similarity.estimateJaccard(
                                sketcher.sketch(textA).signature(),
                                sketcher.sketch(
                                                "<html><body><nav>Home</nav><p>"
                                                        + textA
                                                        + "</p></body></html>",
                                                dev.neardup.text.ContentType.HTML)
                                        .signature()))
                .isGreaterThan(0.9);
        assertThat((int) r.get("hamming")).isBetween(0, 64);
        assertThat((double) r.get("cosine"))
                .isCloseTo(
                        tfCosine(shingler.shingleHashes(textA), shingler.shingleHashes(textB)),
                        within(0.2));
        assertThat((double) r.get("aInB")).isCloseTo(Similarity.containment(a, b), within(0.15));
    }

    /**
     * Compiles the page's {@code index}-th java block in a method of the inputs it uses, runs it
     * and returns the values of {@code results}, local variables of the block.
     */
    private Map<String, Object> run(int index, List<String> results, String textA)
            throws Exception {
        String textB = textA.replace(" the ", " a ");
        String htmlA = "<html><body><nav>Home</nav><p>" + textA + "</p></body></html>";
        String block = javaBlocks(Files.readString(PAGE, StandardCharsets.UTF_8)).get(index);
        String name = "LibraryPageExample" + index;
        StringBuilder src = new StringBuilder();
        src.append("import dev.neardup.lsh.*;\nimport dev.neardup.sketch.*;\n")
                .append("import dev.neardup.text.*;\n")
                .append("public class ")
                .append(name)
                .append(" {\n  public static java.util.Map<String, Object> run(")
                .append("String html, String htmlA, String textA, String textB) {\n")
                .append(block)
                .append("\n    java.util.Map<String, Object> out = new java.util.HashMap<>();\n");
        for (String r : results) {
            src.append("    out.put(\"").append(r).append("\", ").append(r).append(");\n");
        }
        src.append("    return out;\n  }\n}\n");
        Path source = dir.resolve(name + ".java");
        Files.writeString(source, src, StandardCharsets.UTF_8);

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK's compiler").isNotNull();
        StringWriter diagnostics = new StringWriter();
        boolean compiled =
                javac.getTask(
                                diagnostics,
                                null,
                                null,
                                List.of(
                                        "-classpath",
                                        classPath(),
                                        "-d",
                                        dir.toString(),
                                        "-proc:none",
                                        "-Xlint:none"),
                                null,
                                javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)
                                        .getJavaFileObjects(source.toFile()))
                        .call();
        assertThat(compiled)
                .as("java block %d of %s compiles:%n%s%n%s", index + 1, PAGE, diagnostics, src)
                .isTrue();
        try (URLClassLoader loader =
                new URLClassLoader(
                        new URL[] {dir.toUri().toURL()}, LibraryUsageTest.class.getClassLoader())) {
            Method run =
                    loader.loadClass(name)
                            .getMethod(
                                    "run", String.class, String.class, String.class, String.class);
            @SuppressWarnings("unchecked")
            Map<String, Object> out =
                    (Map<String, Object>) run.invoke(null, htmlA, htmlA, textA, textB);
            return new HashMap<>(out);
        }
    }

    /** The cosine of two bags of shingle hashes, each weighted by its count. */
    private static double tfCosine(long[] a, long[] b) {
        Map<Long, Integer> ta = new HashMap<>();
        Map<Long, Integer> tb = new HashMap<>();
        for (long h : a) {
            ta.merge(h, 1, Integer::sum);
        }
        for (long h : b) {
            tb.merge(h, 1, Integer::sum);
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (Map.Entry<Long, Integer> e : ta.entrySet()) {
            dot += (double) e.getValue() * tb.getOrDefault(e.getKey(), 0);
            na += (double) e.getValue() * e.getValue();
        }
        for (int c : tb.values()) {
            nb += (double) c * c;
        }
        return dot / Math.sqrt(na * nb);
    }

    /** The test class path: Surefire's, or this JVM's. */
    private static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        if (cp == null || cp.isBlank()) {
            cp = System.getProperty("java.class.path");
        }
        String classes =
                new File(
                                dev.neardup.lsh.Banding.class
                                        .getProtectionDomain()
                                        .getCodeSource()
                                        .getLocation()
                                        .getPath())
                        .getPath();
        return classes + File.pathSeparator + cp;
    }

    /** The bodies of the page's fenced {@code java} blocks, in order. */
    static List<String> javaBlocks(String page) {
        List<String> blocks = new ArrayList<>();
        StringBuilder current = null;
        for (String line : page.split("\n", -1)) {
            if (current == null) {
                if (line.strip().equals("```java")) {
                    current = new StringBuilder();
                }
            } else if (line.strip().equals("```")) {
                blocks.add(current.toString());
                current = null;
            } else {
                current.append(line).append('\n');
            }
        }
        return blocks;
    }
}
