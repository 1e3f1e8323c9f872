package dev.neardup.testing;

import dev.neardup.tools.bench.SyntheticText;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A seeded crawl of bad and odd records (issue 30): valid pages and near-copies among malformed
 * JSON, invalid UTF-8, wrong types, a line just over a lowered size limit, deep nesting, HTML
 * bombs, out-of-range and odd times (an instant that overflowed a long, epoch seconds, the far
 * future), odd ids (a lone surrogate, only a no-break space, numbers, NUL), deletions, byte order
 * marks, CRLF line ends, blank lines, raw NUL bytes and repeated fields, in a shuffled order. Valid
 * documents have distinct ids, and deletions name ids no document has, so that every non-blank line
 * has exactly one outcome in every command. Size limits: ids, urls and a contentType at their
 * limit, one byte over it and of 1 MB (with the record limit at 2 MB).
 */
public final class FuzzCrawl {

    /** The size limit the crawl is made for ({@code -D neardup.max-document-size=2mb}). */
    public static final int MAX_BYTES = 2 * 1024 * 1024;

    /** The default limit of ids and urls, in UTF-8 bytes, that the size-limit records probe. */
    public static final int FIELD_BYTES = dev.neardup.io.FieldLimits.DEFAULT_ID_BYTES;

    /** The ids of the valid documents among the size-limit records (ids at their limit). */
    public final List<String> limitDocuments = new ArrayList<>();

    /** The lines of the file, without their line ends. */
    public final List<byte[]> lines = new ArrayList<>();

    /** Line ends, one per line: "\n" or "\r\n". */
    public final List<String> ends = new ArrayList<>();

    private final SplittableRandom random;
    private final long t0 = Instant.now().minus(Duration.ofDays(2)).toEpochMilli();
    private int next;

    /** The crawl with its size-limit records. */
    public FuzzCrawl(long seed, int pages) {
        this(seed, pages, true);
    }

    /**
     * @param sizeLimits whether to add the size-limit records (ids, urls and a contentType at their
     *     limit, one byte over and 1 MB), which leave every other line as it is, in the same order
     */
    public FuzzCrawl(long seed, int pages, boolean sizeLimits) {
        random = new SplittableRandom(seed);
        List<byte[]> out = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < pages; i++) {
            String text = SyntheticText.prose(seed * 1000 + i, 600 + random.nextInt(1500));
            texts.add(text);
            out.add(doc("page-" + i, text, iso(i)));
            if (i % 3 == 0) {
                out.add(doc("copy-" + i, text + " and one more line", iso(i + 1)));
            }
        }
        String page = texts.get(0);
        // Malformed JSON, and JSON that is not an object.
        for (String s :
                new String[] {
                    "{\"id\":",
                    "not json",
                    "{\"id\":\"a\",}",
                    "{'id':'a'}",
                    "[]",
                    "\"str\"",
                    "42",
                    "null",
                    "{\"id\":\"t\",\"content\":\"x y\"} trailing",
                    "}{",
                    "{\"id\":\"q\\x\"}"
                }) {
            out.add(utf8(s));
        }
        // Invalid UTF-8: a stray continuation byte, a cut sequence, an encoded surrogate.
        out.add(
                concat(
                        "{\"id\":\"bad-utf8-1\",\"content\":\"caf",
                        new byte[] {(byte) 0x80},
                        "\"}"));
        out.add(
                concat(
                        "{\"id\":\"bad-utf8-2\",\"content\":\"x",
                        new byte[] {(byte) 0xE2, (byte) 0x82},
                        "\"}"));
        out.add(
                concat(
                        "{\"id\":\"bad-utf8-3\",\"content\":\"",
                        new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                        "\"}"));
        out.add(new byte[] {(byte) 0xFF, (byte) 0xFE, '{', '}'});
        // Wrong types.
        for (String s :
                new String[] {
                    "{\"id\":true,\"content\":\"x y\"}",
                    "{\"id\":[1],\"content\":\"x y\"}",
                    "{\"id\":{\"a\":1},\"content\":\"x y\"}",
                    "{\"id\":1.5,\"content\":\"x y\"}",
                    "{\"id\":1e3,\"content\":\"x y\"}",
                    "{\"id\":\"wt-1\",\"content\":5}",
                    "{\"id\":\"wt-2\",\"content\":[\"x\"]}",
                    "{\"id\":\"wt-3\"}",
                    "{\"id\":\"wt-4\",\"content\":\"   \"}",
                    "{\"id\":\"wt-5\",\"content\":\"x y\",\"url\":5}",
                    "{\"id\":\"wt-6\",\"content\":\"x y\",\"contentType\":{}}",
                    "{\"id\":\"wt-7\",\"content\":\"x y\",\"fetchedAt\":true}",
                    "{\"id\":\"wt-8\",\"content\":\"x y\",\"fetchedAt\":{\"t\":1}}",
                    "{\"content\":\"no id here\"}",
                    "{\"id\":null,\"content\":\"x y\"}",
                    "{\"id\":\"wt-9\",\"content\":\"x y\",\"deleted\":\"yes\"}"
                }) {
            out.add(utf8(s));
        }
        // Odd times.
        for (String t :
                new String[] {
                    "\"+999999999-12-31T23:59:59Z\"",
                    "\"-999999999-01-01T00:00:00Z\"",
                    "\"+999999999-12-31T23:59:59+18:00\"",
                    "1700000000",
                    "0",
                    "-1",
                    "1e10",
                    "99999999999999999999",
                    "9223372036854775807",
                    "\"2026-13-45T00:00:00Z\"",
                    "\"1969-12-31T23:59:59Z\"",
                    "\"2999-01-01T00:00:00Z\"",
                    "\"yesterday\"",
                    "\"\""
                }) {
            out.add(
                    utf8(
                            "{\"id\":\"time-"
                                    + next++
                                    + "\",\"content\":\"x y z\",\"fetchedAt\":"
                                    + t
                                    + "}"));
        }
        // A fetchedAt in the future beyond the clock skew: FUTURE_TIMESTAMP.
        out.add(doc("future", page, Instant.now().plus(Duration.ofDays(3)).toString()));
        // Odd ids.
        for (String id :
                new String[] {
                    "\"\\ud800b\"",
                    "\"a\\udc00\"",
                    "\"\\u00a0\"",
                    "\"\\u3000\\u2007\"",
                    "\"\"",
                    "\" \"",
                    "\"\\t\\n\""
                }) {
            out.add(utf8("{\"id\":" + id + ",\"content\":\"x y z\"}"));
        }
        out.add(doc("\u0000nul-in-id", page + " nul", iso(3)));
        out.add(doc("emoji-\uD83D\uDE00", page + " emoji", iso(4)));
        out.add(doc("x".repeat(5000), SyntheticText.prose(seed + 77, 800), iso(5)));
        out.add(
                utf8(
                        "{\"id\":123456,\"content\":\""
                                + SyntheticText.prose(seed + 78, 500)
                                + "\"}"));
        out.add(utf8("{\"id\":-98765432109876543210,\"content\":\"numbers as ids are text\"}"));
        // Repeated fields.
        out.add(utf8("{\"id\":\"dup-a\",\"id\":\"dup-b\",\"content\":\"x y\"}"));
        out.add(utf8("{\"id\":\"dup-c\",\"content\":\"x y\",\"content\":\"z\"}"));
        // Deletions (of ids no document has), and a malformed one.
        out.add(utf8("{\"id\":\"ghost-1\",\"deleted\":true,\"fetchedAt\":\"" + iso(6) + "\"}"));
        out.add(utf8("{\"id\":\"ghost-2\",\"deleted\":true}"));
        out.add(utf8("{\"deleted\":true}"));
        // A line just over the size limit, and one just under it.
        out.add(doc("huge", "word ".repeat(MAX_BYTES / 5 + 10), iso(7)));
        out.add(doc("large", SyntheticText.prose(seed + 79, MAX_BYTES - 200), iso(8)));
        // Deep nesting: over the limit, and deep but within it.
        out.add(
                utf8(
                        "{\"id\":\"deep-1\",\"content\":\"x y\",\"u\":"
                                + "[".repeat(250)
                                + "]".repeat(250)
                                + "}"));
        out.add(
                utf8(
                        "{\"id\":\"deep-2\",\"content\":\"deep but fine here\",\"u\":"
                                + "[".repeat(150)
                                + "]".repeat(150)
                                + "}"));
        // HTML bombs and pages without text.
        out.add(html("bomb-1", "<div>".repeat(4000) + "a few words inside the nesting"));
        out.add(html("bomb-2", "&amp;&lt;&#x1F600;".repeat(2000) + " words"));
        out.add(html("bomb-3", "<table><tr><td>".repeat(1500) + "cell text"));
        out.add(html("script-only", "<script>" + "var a=1;".repeat(500) + "</script>"));
        out.add(html("comment-bomb", "<!--" + "-".repeat(3000) + " words never closed"));
        out.add(utf8("{\"id\":\"punct\",\"content\":\"!!! ??? ... ---\"}"));
        // Control characters, raw NUL bytes, a BOM.
        out.add(utf8("{\"id\":\"ctl\",\"content\":\"x\u0001y\"}"));
        out.add(concat("{\"id\":\"nul\",", new byte[] {0, 0}, "\"content\":\"x\"}"));
        out.add(
                concat(
                        new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                        doc("bom", page + " bom", iso(9))));
        out.add(utf8("\u00a0{\"id\":\"nbsp-before\",\"content\":\"x y\"}"));

        // Shuffle (Fisher-Yates), then blank lines in between, and line ends.
        for (int i = out.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            byte[] t = out.get(i);
            out.set(i, out.get(j));
            out.set(j, t);
        }
        if (sizeLimits) {
            SplittableRandom places = new SplittableRandom(seed ^ 0x5eed);
            for (byte[] line : sizeLimitRecords(seed)) {
                out.add(places.nextInt(out.size() + 1), line);
            }
        }
        String[] blanks = {"", " ", "\t", "  \t ", "\r"};
        for (byte[] line : out) {
            if (random.nextInt(8) == 0) {
                lines.add(utf8(blanks[random.nextInt(blanks.length)]));
                ends.add("\n");
            }
            lines.add(line);
            ends.add(random.nextInt(5) == 0 ? "\r\n" : "\n");
        }
    }

    /**
     * Ids and urls at their limit (ASCII and two-byte characters), one byte over it and of 1 MB, a
     * contentType over its limit, a deletion with a 1 MB id; the documents within the limits have
     * texts of their own, so that they match nothing else.
     */
    private List<byte[]> sizeLimitRecords(long seed) {
        String megabyte = "M1-" + "y".repeat(1 << 20);
        String atLimit = "L-" + "i".repeat(FIELD_BYTES - 2);
        String twoByteAtLimit = "L2-" + "\u00e9".repeat((FIELD_BYTES - 4) / 2) + "x";
        String url = "https://example.org/";
        String urlAtLimit = url + "u".repeat(FIELD_BYTES - url.length());
        List<byte[]> lines = new ArrayList<>();
        int n = 0;
        for (String[] idUrl :
                new String[][] {
                    {atLimit, null},
                    {twoByteAtLimit, null},
                    {atLimit + "+", null},
                    {megabyte, null},
                    {"limit-url-ok", urlAtLimit},
                    {"limit-url-over", urlAtLimit + "+"},
                    {"limit-url-1mb", url + megabyte},
                    {megabyte + "-both", url + megabyte}
                }) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", idUrl[0]);
            if (idUrl[1] != null) {
                json.put("url", idUrl[1]);
            }
            json.put("content", SyntheticText.prose(seed * 7919 + n++, 700));
            json.put("fetchedAt", Instant.ofEpochMilli(t0 + 3_600_000L + n).toString());
            lines.add(utf8(dev.neardup.io.Json.write(json)));
            if (utf8(idUrl[0]).length <= FIELD_BYTES
                    && (idUrl[1] == null || utf8(idUrl[1]).length <= FIELD_BYTES)) {
                limitDocuments.add(idUrl[0]);
            }
        }
        lines.add(
                utf8(
                        dev.neardup.io.Json.write(
                                Map.of(
                                        "id",
                                        "limit-type-1mb",
                                        "content",
                                        "some words",
                                        "contentType",
                                        "text/html; x=" + megabyte))));
        lines.add(utf8(dev.neardup.io.Json.write(Map.of("id", megabyte, "deleted", true))));
        return lines;
    }

    /** Lines (1-based) that are blank as the reader sees them: only spaces, tabs and CRs. */
    public boolean blank(int line) {
        for (byte b : lines.get(line - 1)) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    /** The whole file. */
    public byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < lines.size(); i++) {
            out.writeBytes(lines.get(i));
            out.writeBytes(utf8(ends.get(i)));
        }
        return out.toByteArray();
    }

    private String iso(int minutes) {
        return Instant.ofEpochMilli(t0 + minutes * 60_000L + random.nextInt(1000)).toString();
    }

    private static byte[] doc(String id, String content, String fetchedAt) {
        return utf8(
                dev.neardup.io.Json.write(
                        java.util.Map.of("id", id, "content", content, "fetchedAt", fetchedAt)));
    }

    private byte[] html(String id, String body) {
        return utf8(
                dev.neardup.io.Json.write(
                        java.util.Map.of(
                                "id",
                                id,
                                "content",
                                "<html><body>" + body,
                                "contentType",
                                "text/html",
                                "fetchedAt",
                                iso(10))));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            out.writeBytes(p instanceof String s ? utf8(s) : (byte[]) p);
        }
        return out.toByteArray();
    }
}
