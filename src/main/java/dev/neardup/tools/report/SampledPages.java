package dev.neardup.tools.report;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.neardup.config.NearDupSettings;
import dev.neardup.io.Document;
import dev.neardup.io.DocumentParser;
import dev.neardup.io.Json;
import dev.neardup.io.ParsedRecord;
import dev.neardup.io.RawRecord;
import dev.neardup.similarity.ModeEvaluation;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.text.ContentType;
import dev.neardup.text.HtmlText;
import dev.neardup.text.Shingler;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.URI;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.core.fs.FSDataInputStream;

/**
 * The pages a report shows, read in one pass over the input for the sampled ids only (memory is the
 * sample, not the corpus): each page's visible text as the job extracts it, cut to {@link
 * #TEXT_CHARS} characters, and its features (the job's shingle hashes of the whole page) for the
 * exact similarity of a pair.
 */
public final class SampledPages {

    /** The longest text shown of a page, in characters: about a screen of a side-by-side view. */
    public static final int TEXT_CHARS = 3000;

    /** A page read: what the report shows, and its features. */
    public record Loaded(Report.Page page, long[] features) {}

    private final Map<String, Loaded> pages;
    private final SimilarityMode mode;

    private SampledPages(Map<String, Loaded> pages, SimilarityMode mode) {
        this.pages = pages;
        this.mode = mode;
    }

    /**
     * Reads the documents with the given ids from the inputs (local paths or Flink filesystem URIs,
     * JSON Lines; or local WARC, WET and ARC files), with the job's reader, parser and text
     * settings.
     *
     * @param latest keep an id's last version (as {@code dedupe} and {@code run} do), else its
     *     first (as {@code evaluate} does)
     */
    public static SampledPages read(
            List<String> inputs, Set<String> ids, NearDupSettings settings, boolean latest)
            throws IOException {
        DocumentParser parser = settings.input().parser();
        Shingler shingler = new Shingler(SimilarityMode.of(settings).features());
        Map<String, Loaded> pages = new HashMap<>();
        String idField = settings.input().fields().id();
        int maxBytes = settings.input().maxDocumentBytes();
        for (String input : inputs) {
            org.apache.flink.core.fs.Path path = flinkPath(input);
            java.nio.file.Path local =
                    "file".equals(path.toUri().getScheme())
                            ? java.nio.file.Path.of(path.toUri())
                            : null;
            if (settings.input().isArchive(path.getName(), local)) {
                if (local == null) {
                    throw new IOException(
                            "the report reads WARC input from local files only: " + input);
                }
                // WARC records: every document through the job's reader (no quick id).
                settings.input()
                        .format(path.getName(), true, null, 0, null)
                        .read(
                                local,
                                (raw, r) -> {
                                    if (r.document != null
                                            && ids.contains(r.document.id)
                                            && (latest || !pages.containsKey(r.document.id))) {
                                        pages.put(r.document.id, load(r.document, shingler));
                                    }
                                });
                continue;
            }
            try (FSDataInputStream stream = path.getFileSystem().open(path)) {
                forEachLine(
                        stream,
                        maxBytes,
                        (buffer, from, to, line) -> {
                            // Most lines are not sampled: the id is read in place, the rest
                            // skipped; a sampled line is copied and parsed by the job's parser.
                            String quick = quickId(buffer, from, to - from, idField);
                            if (quick != null && !ids.contains(quick)) {
                                return;
                            }
                            RawRecord raw = new RawRecord();
                            raw.payload = Arrays.copyOfRange(buffer, from, to);
                            raw.size = to - from;
                            raw.source = path.getName() + ":" + line;
                            raw.position = line;
                            ParsedRecord r = parser.parseRecord(raw, line, Long.MAX_VALUE / 2);
                            if (r.document == null
                                    || !ids.contains(r.document.id)
                                    || (!latest && pages.containsKey(r.document.id))) {
                                return;
                            }
                            pages.put(r.document.id, load(r.document, shingler));
                        });
            }
        }
        return new SampledPages(pages, SimilarityMode.of(settings));
    }

    private static Loaded load(Document doc, Shingler shingler) {
        ContentType type = ContentType.detect(doc.contentType, doc.content);
        String text =
                (type == ContentType.HTML ? HtmlText.visibleText(doc.content) : doc.content)
                        .strip();
        long[] features;
        try {
            features = shingler.shingleHashes(doc.content, type);
        } catch (RuntimeException | StackOverflowError e) {
            features = new long[0]; // the job's dead letter INTERNAL_ERROR
        }
        boolean cut = text.length() > TEXT_CHARS;
        return new Loaded(
                new Report.Page(doc.id, doc.url, cut ? text.substring(0, TEXT_CHARS) : text, cut),
                features);
    }

    /** A line of the input, in place: bytes [from, to) of the buffer, its 1-based number. */
    private interface LineConsumer {
        void accept(byte[] buffer, int from, int to, long line) throws IOException;
    }

    /**
     * Each line of {@code in} as the job splits its input (at '\n', without a trailing '\r'; blank
     * lines and lines longer than {@code maxBytes}, which the job rejects, left out), in place in
     * one buffer: a line the consumer does not want is never copied.
     */
    private static void forEachLine(InputStream in, int maxBytes, LineConsumer consumer)
            throws IOException {
        byte[] buf = new byte[1 << 20];
        int start = 0; // where the current line starts
        int scan = 0; // where the search for its end goes on
        int end = 0; // the end of the bytes read
        long line = 0;
        boolean skipping = false; // the current line is too long: dropped up to its end
        boolean eof = false;
        while (true) {
            int nl = newline(buf, scan, end);
            if (nl == end && !eof) {
                if (skipping) {
                    start = end; // the long line's bytes so far are not kept
                }
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                }
                scan = end;
                if (end == buf.length) {
                    if (buf.length > maxBytes + 1) {
                        skipping = true;
                        start = 0;
                        end = 0;
                        scan = 0;
                    } else {
                        buf = Arrays.copyOf(buf, buf.length * 2);
                    }
                }
                int n = in.read(buf, end, buf.length - end);
                if (n < 0) {
                    eof = true;
                } else {
                    end += n;
                }
                continue;
            }
            if (nl == end && start == end) {
                return; // the end of the input, after a line end
            }
            line++;
            int to = nl > start && buf[nl - 1] == '\r' ? nl - 1 : nl;
            if (!skipping && to > start && to - start <= maxBytes && !blank(buf, start, to)) {
                consumer.accept(buf, start, to, line);
            }
            skipping = false;
            if (nl == end) {
                return; // the last line had no line end
            }
            start = nl + 1;
            scan = start;
        }
    }

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /**
     * The index of the first '\n' in {@code b[from, to)}, or {@code to}: eight bytes at a time (a
     * zero byte of {@code word ^ '\n'...} found by the carry trick of Mycroft, 1987).
     */
    static int newline(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONGS.get(b, i) ^ NEWLINES;
            long found = (x - ONES) & ~x & HIGHS;
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        while (i < to && b[i] != '\n') {
            i++;
        }
        return i;
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t') {
                return false;
            }
        }
        return true;
    }

    /**
     * The record's top-level id field as text, read with a streaming parser that skips the other
     * values without decoding them; null when it cannot tell (then the record is parsed in full).
     */
    private static String quickId(byte[] payload, int offset, int length, String field) {
        int bom =
                length >= 3
                                && (payload[offset] & 0xFF) == 0xEF
                                && (payload[offset + 1] & 0xFF) == 0xBB
                                && (payload[offset + 2] & 0xFF) == 0xBF
                        ? 3
                        : 0;
        try (JsonParser p =
                Json.MAPPER.getFactory().createParser(payload, offset + bom, length - bom)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals(field)) {
                    return value == JsonToken.VALUE_STRING || value == JsonToken.VALUE_NUMBER_INT
                            ? p.getText()
                            : null;
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A local path or a Flink filesystem URI, as {@code dedupe} takes its inputs. */
    private static org.apache.flink.core.fs.Path flinkPath(String input) {
        if (input.contains("://")) {
            return new org.apache.flink.core.fs.Path(URI.create(input));
        }
        return new org.apache.flink.core.fs.Path(java.nio.file.Path.of(input).toUri());
    }

    /** The page of {@code id}, or a placeholder when the input has no such document. */
    public Report.Page page(String id) {
        Loaded l = pages.get(id);
        return l != null ? l.page() : new Report.Page(id, null, "(not in the input)", false);
    }

    /** The url of {@code id}, or null. */
    public String url(String id) {
        Loaded l = pages.get(id);
        return l == null ? null : l.page().url();
    }

    /**
     * The exact similarity of two pages in the mode's own measure (Jaccard of the shingle sets,
     * cosine of the term vectors, containment), or NaN when one is missing.
     */
    public double exact(String a, String b) {
        Loaded x = pages.get(a);
        Loaded y = pages.get(b);
        if (x == null || y == null || x.features().length == 0 || y.features().length == 0) {
            return Double.NaN;
        }
        ModeEvaluation evaluation = mode.evaluation();
        evaluation.add(a, x.features());
        evaluation.add(b, y.features());
        return evaluation.model().exact(0, 1);
    }

    /** The pair view of {@code earlier} and {@code later}. */
    public Report.Pair pair(String earlier, String later, double estimated, boolean alerted) {
        return new Report.Pair(
                page(earlier), page(later), exact(earlier, later), estimated, alerted);
    }
}
