package dev.neardup.tools.bench;

import dev.neardup.io.Json;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * The generated crawl of {@code neardup bench}: {@code documents} texts of about {@code
 * documentSize} bytes of prose ({@link SyntheticText#prose}); after the first eleven, each is with
 * probability {@code duplicateFraction} a near-duplicate of a random earlier one (one word in 50
 * replaced). A pure function of its parameters (seed 2026).
 *
 * <p>Texts are not kept: each document is a recipe (a prose seed, or an earlier document and its
 * edits) and its text is made again when needed, so a corpus of millions of documents is written in
 * little memory ({@link #write}).
 */
public final class BenchCorpus {

    private final int documentSize;
    private final long[] seeds;
    private final int[] parents;
    private final Map<Integer, int[]> edits = new java.util.HashMap<>();

    public BenchCorpus(int documents, int documentSize, double duplicateFraction) {
        this.documentSize = documentSize;
        this.seeds = new long[documents];
        this.parents = new int[documents];
        SplittableRandom random = new SplittableRandom(2026);
        for (int i = 0; i < documents; i++) {
            if (i > 10 && random.nextDouble() < duplicateFraction) {
                int parent = random.nextInt(i);
                int words = text(parent).split(" ").length;
                int count = Math.max(1, words / 50);
                int[] e = new int[2 * count];
                for (int c = 0; c < count; c++) {
                    e[2 * c] = random.nextInt(words);
                    e[2 * c + 1] = random.nextInt(1000);
                }
                parents[i] = parent;
                edits.put(i, e);
            } else {
                parents[i] = -1;
                seeds[i] = random.nextLong();
            }
        }
    }

    public int size() {
        return seeds.length;
    }

    /** The text of document {@code i}. */
    public String text(int i) {
        if (parents[i] < 0) {
            return SyntheticText.prose(seeds[i], documentSize);
        }
        String[] words = text(parents[i]).split(" ");
        int[] e = edits.get(i);
        for (int c = 0; c < e.length; c += 2) {
            words[e[c]] = "edit" + e[c + 1];
        }
        return String.join(" ", words);
    }

    /** The first {@code n} texts, in memory. */
    public List<String> texts(int n) {
        return IntStream.range(0, n).mapToObj(this::text).toList();
    }

    /**
     * Writes the corpus as JSON Lines documents ({@code id} doc-N, {@code url}, {@code contentType}
     * text/plain, {@code content}), one text in memory at a time; returns the bytes of content
     * written.
     */
    public long write(Path file) throws IOException {
        return write(file, size(), this::text);
    }

    /** Writes texts 0 to n - 1 of {@code texts} as {@link #write(Path)} does. */
    static long write(Path file, int n, IntFunction<String> texts) throws IOException {
        long bytes = 0;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < n; i++) {
                String text = texts.apply(i);
                bytes += text.getBytes(StandardCharsets.UTF_8).length;
                w.write(line("doc-" + i, "https://example.org/" + i, text));
                w.write('\n');
            }
        }
        return bytes;
    }

    /** One input line: a plain-text document. */
    public static String line(String id, String url, String content) {
        return line(id, url, null, content);
    }

    /** One input line: a plain-text document fetched at {@code fetchedAt} (if not null). */
    static String line(String id, String url, java.time.Instant fetchedAt, String content) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", id);
        doc.put("url", url);
        if (fetchedAt != null) {
            doc.put("fetchedAt", fetchedAt.toString());
        }
        doc.put("contentType", "text/plain");
        doc.put("content", content);
        return Json.write(doc);
    }
}
