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

    /** When the first page of a corpus written as several files, or as WARC, was fetched. */
    static final java.time.Instant FIRST_FETCH = java.time.Instant.parse("2026-01-01T00:00:00Z");

    /**
     * Writes the corpus to {@code files} files named after {@code file} ({@code crawl.warc.gz} as
     * {@code crawl-0.warc.gz}, {@code crawl-1.warc.gz}, ... when there are several), page i to file
     * i mod files, as the parallel fetcher threads of a crawler write theirs: each file in fetch
     * order, the files overlapping in time. A file named {@code .warc} or {@code .warc.gz} gets
     * WARC response records (HTTP 200, text/plain, the page's url as target, one gzip member per
     * record when compressed), each fetched a second after the one before from {@link
     * #FIRST_FETCH}; else JSON Lines documents as {@link #write(Path)} writes them, with {@code
     * fetchedAt} when there are several files. Returns the files written and the bytes of content.
     */
    public Written write(Path file, int files) throws IOException {
        if (files < 1) {
            throw new IllegalArgumentException("files must be at least 1, got " + files);
        }
        String name = String.valueOf(file.getFileName());
        boolean warc = name.endsWith(".warc") || name.endsWith(".warc.gz");
        if (files == 1 && !warc) {
            return new Written(List.of(file), write(file));
        }
        List<Path> paths = new java.util.ArrayList<>();
        List<Sink> sinks = new java.util.ArrayList<>();
        long bytes = 0;
        try {
            for (int k = 0; k < files; k++) {
                Path p = files == 1 ? file : numbered(file, k);
                paths.add(p);
                sinks.add(warc ? new WarcSink(p, name.endsWith(".gz")) : new LinesSink(p));
            }
            for (int i = 0; i < size(); i++) {
                String text = text(i);
                bytes += text.getBytes(StandardCharsets.UTF_8).length;
                sinks.get(i % files)
                        .page(
                                "doc-" + i,
                                "https://example.org/" + i,
                                FIRST_FETCH.plusSeconds(i),
                                text);
            }
        } finally {
            for (Sink sink : sinks) {
                sink.close();
            }
        }
        return new Written(List.copyOf(paths), bytes);
    }

    /** The files a corpus went to, and the bytes of its content. */
    public record Written(List<Path> files, long bytes) {}

    /** {@code crawl.warc.gz} as {@code crawl-K.warc.gz}: the number before the first dot. */
    static Path numbered(Path file, int k) {
        String name = String.valueOf(file.getFileName());
        int dot = name.indexOf('.', 1);
        String numbered =
                dot < 0 ? name + "-" + k : name.substring(0, dot) + "-" + k + name.substring(dot);
        return file.resolveSibling(numbered);
    }

    private interface Sink extends java.io.Closeable {
        void page(String id, String url, java.time.Instant fetched, String text) throws IOException;
    }

    private static final class LinesSink implements Sink {
        private final BufferedWriter w;

        LinesSink(Path file) throws IOException {
            w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        }

        @Override
        public void page(String id, String url, java.time.Instant fetched, String text)
                throws IOException {
            w.write(line(id, url, fetched, text));
            w.write('\n');
        }

        @Override
        public void close() throws IOException {
            w.close();
        }
    }

    private static final class WarcSink implements Sink {
        private final org.netpreserve.jwarc.WarcWriter w;

        WarcSink(Path file, boolean gzip) throws IOException {
            w =
                    new org.netpreserve.jwarc.WarcWriter(
                            java.nio.channels.FileChannel.open(
                                    file,
                                    java.nio.file.StandardOpenOption.CREATE,
                                    java.nio.file.StandardOpenOption.TRUNCATE_EXISTING,
                                    java.nio.file.StandardOpenOption.WRITE),
                            gzip
                                    ? org.netpreserve.jwarc.WarcCompression.GZIP
                                    : org.netpreserve.jwarc.WarcCompression.NONE);
        }

        @Override
        public void page(String id, String url, java.time.Instant fetched, String text)
                throws IOException {
            byte[] body = text.getBytes(StandardCharsets.UTF_8);
            byte[] head =
                    ("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n"
                                    + "Content-Length: "
                                    + body.length
                                    + "\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII);
            byte[] http = new byte[head.length + body.length];
            System.arraycopy(head, 0, http, 0, head.length);
            System.arraycopy(body, 0, http, head.length, body.length);
            w.write(
                    new org.netpreserve.jwarc.WarcResponse.Builder(java.net.URI.create(url))
                            .date(fetched)
                            .body(org.netpreserve.jwarc.MediaType.HTTP_RESPONSE, http)
                            .build());
        }

        @Override
        public void close() throws IOException {
            w.close();
        }
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
