package dev.neardup.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.testing.JobFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bench corpus made from recipes is the one bench generated with all texts in memory. */
class BenchCorpusTest {

    /** The generator as bench had it: every text kept, near-duplicates edited from earlier ones. */
    private static List<String> inMemory(int documents, int size, double duplicateFraction) {
        SplittableRandom random = new SplittableRandom(2026);
        List<String> texts = new ArrayList<>(documents);
        for (int i = 0; i < documents; i++) {
            if (i > 10 && random.nextDouble() < duplicateFraction) {
                String[] words = texts.get(random.nextInt(i)).split(" ");
                for (int c = 0; c < Math.max(1, words.length / 50); c++) {
                    words[random.nextInt(words.length)] = "edit" + random.nextInt(1000);
                }
                texts.add(String.join(" ", words));
            } else {
                texts.add(SyntheticText.prose(random.nextLong(), size));
            }
        }
        return texts;
    }

    @Test
    void recipesGiveTheSameTextsAsTheInMemoryGenerator() {
        // A high duplicate fraction: near-duplicates of near-duplicates, several levels deep.
        List<String> expected = inMemory(3000, 600, 0.4);
        BenchCorpus corpus = new BenchCorpus(3000, 600, 0.4);
        assertThat(corpus.size()).isEqualTo(3000);
        assertThat(corpus.texts(corpus.size())).isEqualTo(expected);
        assertThat(expected.stream().filter(t -> t.contains("edit")).count())
                .as("near-duplicates in the corpus")
                .isGreaterThan(1000);
    }

    @Test
    void writesOneDocumentPerLine(@TempDir Path dir) throws Exception {
        BenchCorpus corpus = new BenchCorpus(500, 300, 0.1);
        Path file = dir.resolve("corpus.jsonl");
        long bytes = corpus.write(file);
        List<JsonNode> lines = JobFiles.read(file);
        assertThat(lines).hasSize(500);
        long total = 0;
        for (int i = 0; i < lines.size(); i++) {
            JsonNode d = lines.get(i);
            assertThat(d.get("id").asText()).isEqualTo("doc-" + i);
            assertThat(d.get("contentType").asText()).isEqualTo("text/plain");
            assertThat(d.get("content").asText()).isEqualTo(corpus.text(i));
            total += corpus.text(i).length();
        }
        assertThat(bytes).isEqualTo(total);
    }
}
