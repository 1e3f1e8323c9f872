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

    @org.junit.jupiter.api.Test
    void aCorpusDealtIntoWarcFilesHasEveryPageOnceEachFileInFetchOrder(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        BenchCorpus corpus = new BenchCorpus(50, 300, 0.2);
        BenchCorpus.Written written = corpus.write(dir.resolve("crawl.warc.gz"), 3);
        assertThat(written.files())
                .extracting(f -> f.getFileName().toString())
                .containsExactly("crawl-0.warc.gz", "crawl-1.warc.gz", "crawl-2.warc.gz");
        java.util.Map<String, String> byUrl = new java.util.HashMap<>();
        for (int k = 0; k < 3; k++) {
            long last = Long.MIN_VALUE;
            try (dev.neardup.io.warc.WarcRecordReader r =
                    dev.neardup.io.warc.WarcRecordReader.open(
                            written.files().get(k),
                            dev.neardup.io.warc.WarcReadSettings.defaults())) {
                dev.neardup.io.warc.WarcOutcome o;
                while ((o = r.read()) != null) {
                    dev.neardup.io.warc.WarcDocument d = (dev.neardup.io.warc.WarcDocument) o;
                    int i = Integer.parseInt(d.url().substring("https://example.org/".length()));
                    assertThat(i % 3).as("page %s in file %s", i, k).isEqualTo(k);
                    assertThat(d.fetchedAt())
                            .isEqualTo(BenchCorpus.FIRST_FETCH.plusSeconds(i).toEpochMilli())
                            .isGreaterThan(last);
                    last = d.fetchedAt();
                    byUrl.put(d.url(), d.content());
                }
            }
        }
        assertThat(byUrl).hasSize(50);
        for (int i = 0; i < 50; i++) {
            assertThat(byUrl.get("https://example.org/" + i).strip())
                    .isEqualTo(corpus.text(i).strip());
        }
    }

    @org.junit.jupiter.api.Test
    void aCorpusInOneJsonLinesFileIsUndatedAndInSeveralDated(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        BenchCorpus corpus = new BenchCorpus(10, 100, 0.0);
        BenchCorpus.Written one = corpus.write(dir.resolve("one.jsonl"), 1);
        assertThat(java.nio.file.Files.readAllLines(one.files().get(0)))
                .hasSize(10)
                .noneMatch(l -> l.contains("fetchedAt"));
        BenchCorpus.Written two = corpus.write(dir.resolve("two.jsonl"), 2);
        assertThat(two.files())
                .extracting(f -> f.getFileName().toString())
                .containsExactly("two-0.jsonl", "two-1.jsonl");
        assertThat(java.nio.file.Files.readAllLines(two.files().get(1)))
                .hasSize(5)
                .allMatch(l -> l.contains("\"fetchedAt\":\"2026-01-01T00:00:0"))
                .first()
                .asString()
                .contains("\"id\":\"doc-1\"");
        assertThat(two.bytes()).isEqualTo(one.bytes());
    }
}
