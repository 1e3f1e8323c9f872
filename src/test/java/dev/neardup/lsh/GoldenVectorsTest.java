package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.MinHashAlgorithm;
import dev.neardup.text.ContentType;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import dev.neardup.text.Tokenizer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Golden vectors: fixed documents and seeds must always give the same shingle hashes, signatures
 * and band keys, because band keys are the keys of the job's stored state and signatures are its
 * values. A failure here means a change would orphan every savepoint: if the change is deliberate,
 * it needs a new state version and a migration, and only then new vectors, written by running this
 * test with {@code -Dneardup.golden.update=true} and reviewed in the diff.
 */
class GoldenVectorsTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/vectors-v1.txt");

    private static final String ASCII_TEXT =
            "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor"
                    + " jugs! How vexingly quick daft zebras jump; 1984 was 40 years ago.";
    private static final String UNICODE_TEXT =
            "Straße, ﬁle und Ｆｕｌｌｗｉｄｔｈ — naïve café. Москва 東京 Ελλάδα co\u00ADoperate"
                    + " ΣΟΦΟΣ σοφος";
    private static final String HTML_PAGE =
            "<!DOCTYPE html><html><head><title>Golden</title><script>var x = 1;</script></head>"
                    + "<body><nav>Home | About</nav><p>The quick brown fox jumps over the lazy"
                    + " dog.</p><p>Pack my box &amp; five dozen liquor jugs.</p><!-- c --></body>"
                    + "</html>";

    @Test
    void vectorsMatchTheCommittedFile() throws IOException {
        String actual = render(compute());
        if (Boolean.getBoolean("neardup.golden.update")) {
            Files.createDirectories(GOLDEN.getParent());
            Files.writeString(GOLDEN, actual, StandardCharsets.UTF_8);
        }
        String expected = Files.readString(GOLDEN, StandardCharsets.UTF_8);
        assertThat(actual).isEqualTo(expected);
    }

    private static Map<String, String> compute() {
        Map<String, String> out = new LinkedHashMap<>();
        Map<String, ShingleOptions> options = new LinkedHashMap<>();
        options.put("word5", ShingleOptions.defaults());
        options.put("char9", ShingleOptions.chars(9));
        options.put(
                "word3-stop-porter",
                ShingleOptions.words(3)
                        .withStopWords(true)
                        .withStemming(Tokenizer.Stemming.PORTER));
        Map<String, String[]> docs = new LinkedHashMap<>();
        docs.put("ascii", new String[] {ASCII_TEXT, "TEXT"});
        docs.put("unicode", new String[] {UNICODE_TEXT, "TEXT"});
        docs.put("html", new String[] {HTML_PAGE, "HTML"});
        docs.put("short", new String[] {"Two words", "TEXT"});
        Banding banding = new Banding(new LshParams(16, 8));
        for (Map.Entry<String, ShingleOptions> o : options.entrySet()) {
            Shingler shingler = new Shingler(o.getValue());
            for (Map.Entry<String, String[]> d : docs.entrySet()) {
                String name = o.getKey() + "." + d.getKey();
                long[] shingles =
                        shingler.shingleHashes(
                                d.getValue()[0], ContentType.valueOf(d.getValue()[1]));
                out.put(name + ".normalized", shingler.normalize(textOf(d.getValue())));
                out.put(name + ".shingles", hex(shingles));
                for (MinHashAlgorithm algorithm : MinHashAlgorithm.values()) {
                    long[] signature =
                            MinHash.create(algorithm, 128, MinHash.DEFAULT_SEED)
                                    .signature(shingles);
                    String key = name + "." + algorithm.name().toLowerCase();
                    out.put(key + ".signature", hex(signature));
                    out.put(key + ".bandkeys", hex(banding.bandKeys(signature)));
                }
            }
        }
        return out;
    }

    private static String textOf(String[] doc) {
        return doc[1].equals("HTML") ? dev.neardup.text.HtmlText.visibleText(doc[0]) : doc[0];
    }

    private static String render(Map<String, String> vectors) {
        return vectors.entrySet().stream()
                        .map(e -> e.getKey() + " = " + e.getValue())
                        .collect(Collectors.joining("\n"))
                + "\n";
    }

    private static String hex(long[] values) {
        return LongStream.of(values)
                .mapToObj(v -> String.format("%016x", v))
                .collect(Collectors.joining(","));
    }
}
