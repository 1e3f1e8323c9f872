package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link DocumentParser} (Jackson's UTF-8 byte parser, fields read as they stream by) gives the
 * same result as {@link TreeDocumentParser} (strict decoding to a String, then a JsonNode tree),
 * the parser it replaced: same document, or same dead letter (reason, message, id, payload), on
 * hand-picked tricky records and on many random mutations of valid ones.
 *
 * <p>Except for three deliberate changes since (issue 12), which {@link #expected} applies to the
 * tree parser's result, and nothing else: an id of the wrong type is {@code INVALID_ID} (was {@code
 * MISSING_ID}), content of the wrong type {@code INVALID_CONTENT} (was {@code MISSING_CONTENT}),
 * both with ", got TYPE"; and a record nested too deeply has {@link DocumentParser#NESTING_MESSAGE}
 * instead of Jackson's message.
 */
class DocumentParserEquivalenceTest {

    private static final InputFields FIELDS =
            new InputFields("id", "content", "url", "contentType", "fetchedAt");
    private static final long NOW = 1_650_000_000_000L;
    private static final long HOUR = 3_600_000L;

    private final DocumentParser streaming =
            new DocumentParser(FIELDS, 1 << 20, HOUR, DocumentParser.FutureTimestamps.DEAD_LETTER);
    private final TreeDocumentParser tree =
            new TreeDocumentParser(
                    FIELDS, 1 << 20, HOUR, DocumentParser.FutureTimestamps.DEAD_LETTER);

    /** Null when both parsers agree, else what differs. */
    private String difference(byte[] payload) {
        RawRecord raw = new RawRecord(payload, "eq:1");
        raw.timestamp = NOW - 5;
        DocumentParser.Result a = tree.parse(raw, 7, NOW);
        DocumentParser.Result b = streaming.parse(raw, 7, NOW);
        String da = describe(issue30(expected(a, payload), b));
        String db = describe(b);
        return da.equals(db) ? null : "tree:      " + da + "\n  streaming: " + db;
    }

    /** The tree parser's result with the deliberate changes of issue 12 (see the class comment). */
    private static DocumentParser.Result expected(DocumentParser.Result tree, byte[] payload) {
        DeadLetter l = tree.deadLetter();
        if (l == null) {
            return tree;
        }
        if (l.reason.equals("MALFORMED_JSON")
                && l.message.startsWith("not valid JSON: Document nesting depth (")) {
            l.message = "not valid JSON: " + DocumentParser.NESTING_MESSAGE;
            return tree;
        }
        if (!l.reason.equals("MISSING_ID") && !l.reason.equals("MISSING_CONTENT")) {
            return tree;
        }
        // The record is a valid JSON object (the tree parser got to its fields).
        String text = new String(payload, StandardCharsets.UTF_8);
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(text.startsWith("\uFEFF") ? text.substring(1) : text);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        boolean id = l.reason.equals("MISSING_ID");
        JsonNode value = root.get(id ? "id" : "content");
        boolean wrongType =
                value != null
                        && !value.isNull()
                        && !value.isTextual()
                        && !(id && value.isIntegralNumber());
        if (wrongType) {
            l.reason = id ? "INVALID_ID" : "INVALID_CONTENT";
            l.message += ", got " + value.getNodeType().name().toLowerCase(Locale.ROOT);
        }
        return tree;
    }

    /**
     * Issue 30's deliberate changes: a fetchedAt outside 1990 to 9999 is a BAD_TIMESTAMP that names
     * the range (the tree parser took years 0000 to 9999); an id of only white space (no-break
     * spaces too) is MISSING_ID and one with a lone surrogate INVALID_ID (the tree parser accepted
     * both). Returns the streaming parser's result where the tree parser's document or dead letter
     * is one of these cases, else the tree parser's.
     */
    private static DocumentParser.Result issue30(
            DocumentParser.Result tree, DocumentParser.Result streaming) {
        DeadLetter l = streaming.deadLetter();
        if (l == null) {
            return tree;
        }
        Document d = tree.document();
        boolean range =
                l.reason.equals("BAD_TIMESTAMP")
                        && l.message.contains("' must be a time from 1990-01-01T00:00:00Z")
                        && (d != null
                                ? d.eventTime < DocumentParser.MIN_FETCHED_AT
                                : tree.deadLetter().reason.equals("BAD_TIMESTAMP"));
        boolean id =
                d != null
                        && (l.reason.equals("MISSING_ID") && DocumentParser.isBlankId(d.id)
                                || l.reason.equals("INVALID_ID")
                                        && DocumentParser.loneSurrogate(d.id) >= 0);
        return range || id ? streaming : tree;
    }

    private static String describe(DocumentParser.Result r) {
        if (r.document() != null) {
            Document d = r.document();
            return "document "
                    + List.of(
                            Objects.toString(d.id),
                            Objects.toString(d.instance),
                            Objects.toString(d.url),
                            Objects.toString(d.content),
                            Objects.toString(d.contentType),
                            Long.toString(d.eventTime));
        }
        DeadLetter l = r.deadLetter();
        return "dead letter "
                + List.of(
                        l.reason,
                        l.message,
                        Objects.toString(l.docId),
                        l.payload,
                        l.payloadEncoding,
                        Long.toString(l.payloadBytes),
                        Boolean.toString(l.payloadTruncated),
                        l.detectedAt);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            if (part instanceof String s) {
                out.writeBytes(utf8(s));
            } else if (part instanceof int[] ints) {
                for (int i : ints) {
                    out.write(i);
                }
            } else {
                out.writeBytes((byte[]) part);
            }
        }
        return out.toByteArray();
    }

    private static final String OK = "{\"id\":\"a\",\"content\":\"x y\"}";

    static List<byte[]> trickyRecords() {
        List<byte[]> out = new ArrayList<>();
        String[] texts = {
            OK,
            "",
            " ",
            "\t\r\n",
            "{",
            "}",
            "[",
            "[]",
            "[1,2",
            "[] x",
            "{}",
            "{} {}",
            OK + " x",
            OK + "{}",
            OK + "[]",
            OK + " 1",
            OK + " \"s\"",
            OK + " null",
            OK + "\n",
            OK + ",",
            OK + "]",
            OK + "}",
            "\"abc",
            "\"abc\"",
            "\"abc\" x",
            "42",
            "-0",
            "42x",
            "1.5e",
            "true",
            "tru",
            "nul",
            "null",
            "NaN",
            "{\"id\":\"a\",\"content\":\"x\"",
            "{\"id\":\"a\",\"content\":\"x",
            "{\"id\":\"a\",\"content\":\"x\\",
            "{\"id\":\"a\",\"content\":\"x\\q\"}",
            "{\"id\":\"a\",\"content\":\"x\\u12\"}",
            "{\"id\":\"a\",\"content\":\"x\\u12G4\"}",
            "{\"id\":\"a\",\"content\":\"x\\ud800\"}",
            "{\"id\":\"a\",\"content\":\"x\u0001\"}",
            "{\"id\":\"a\",\"content\":\"x\ty\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":\"a\u0000b\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":\"a\\x\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":\"a",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":[1,2,{\"v\":[true,false,null]}]}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":[1,2,{\"v\":[true,false,nul]}]}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":[1,2,}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":{\"a\":1,\"a\":2}}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":[{\"a\":1},{\"a\":2}]}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":1,\"u\":2}",
            "{\"id\":\"a\",\"id\":\"a\",\"content\":\"x y\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"content\":\"x y\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":1,\"fetchedAt\":1}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":01}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":-}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":1.}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":.5}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":+1}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":1e999999}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":" + "9".repeat(1001) + "}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":" + "9".repeat(1000) + "}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":0." + "9".repeat(1001) + "}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":Infinity}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":'s'}",
            "{\"id\":\"a\",\"content\":\"x y\",u:1}",
            "{\"id\":\"a\",\"content\":\"x y\",}",
            "{\"id\":\"a\",\"content\":\"x y\" \"u\":1}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\" 1}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":1 // c\n}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":1 /* c */}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":1 # c\n}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":[1 2]}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":{\"v\" 1}}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":[" + "[".repeat(198) + "]".repeat(198) + "]}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":[" + "[".repeat(199) + "]".repeat(199) + "]}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":[" + "[".repeat(300),
            "[".repeat(201) + "]".repeat(201),
            "[".repeat(200) + "]".repeat(200),
            "{\"id\":{\"a\":" + "[".repeat(250) + "]".repeat(250) + "},\"content\":\"x y\"}",
            "{\"id\":" + "[".repeat(199) + "]".repeat(199) + ",\"content\":\"x y\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":{\"t\":"
                    + "[".repeat(198)
                    + "]".repeat(198)
                    + "}}",
            "{\"id\":12,\"content\":\"x y\"}",
            "{\"id\":-0,\"content\":\"x y\"}",
            "{\"id\":-12,\"content\":\"x y\"}",
            "{\"id\":9223372036854775808,\"content\":\"x y\"}",
            "{\"id\":-9223372036854775809,\"content\":\"x y\"}",
            "{\"id\":2147483648,\"content\":\"x y\"}",
            "{\"id\":1.0,\"content\":\"x y\"}",
            "{\"id\":1e2,\"content\":\"x y\"}",
            "{\"id\":-0.0,\"content\":\"x y\"}",
            "{\"id\":true,\"content\":\"x y\"}",
            "{\"id\":null,\"content\":\"x y\"}",
            "{\"id\":[],\"content\":\"x y\"}",
            "{\"id\":{},\"content\":\"x y\"}",
            "{\"id\":\"\",\"content\":\"x y\"}",
            "{\"id\":\"\\u0020\",\"content\":\"x y\"}",
            "{\"id\":\"\\u2003\",\"content\":\"x y\"}",
            "{\"id\":\"\u00a0\",\"content\":\"x y\"}",
            "{\"id\":\"a\"}",
            "{\"id\":\"a\",\"content\":null}",
            "{\"id\":\"a\",\"content\":1}",
            "{\"id\":\"a\",\"content\":1.5}",
            "{\"id\":\"a\",\"content\":false}",
            "{\"id\":\"a\",\"content\":[\"x\"]}",
            "{\"id\":\"a\",\"content\":{\"x\":\"y\"}}",
            "{\"id\":\"a\",\"content\":\"\"}",
            "{\"id\":\"a\",\"content\":\"\\u2028\\u3000\"}",
            "{\"id\":\"a\",\"content\":\"\\u0000\"}",
            "{\"id\":\"a\",\"content\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83c\\udf0d\"}",
            "{\"content\":\"x y\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"url\":null,\"contentType\":null}",
            "{\"id\":\"a\",\"content\":\"x y\",\"url\":1}",
            "{\"id\":\"a\",\"content\":\"x y\",\"url\":1.5}",
            "{\"id\":\"a\",\"content\":\"x y\",\"url\":true}",
            "{\"id\":\"a\",\"content\":\"x y\",\"url\":[]}",
            "{\"id\":\"a\",\"content\":\"x y\",\"url\":{}}",
            "{\"id\":\"a\",\"content\":\"x y\",\"contentType\":false}",
            "{\"id\":\"a\",\"content\":\"x y\",\"url\":2,\"contentType\":false}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":null}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":1000}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":-0}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":-62167219200001}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":253402300800000}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":9223372036854775807}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":9223372036854775808}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":-99999999999999999999999}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":1.5}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":1e10}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":1E400}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":-1e400}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":0.0000000001}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":" + "1".repeat(60) + ".5}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":true}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":[1,\"b\",{\"c\":null}]}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":{\"t\":\"" + "z".repeat(200) + "\"}}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":\"yesterday\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":\"  2024-01-01T00:00:00Z \"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":\"\\\"q\\\" \\u00e9 \\n\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":\"\u00e9\u4e16 \\u0001\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":\"" + "w".repeat(100) + "\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":\"2024-01-01T00:00:00+01:00\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":\"2024-01-01T00:00:00\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":\"2099-01-01T00:00:00Z\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"fetchedAt\":4102444800000}",
            "\uFEFF" + OK,
            "\uFEFF",
            "\uFEFF ",
            "\uFEFF\uFEFF" + OK,
            " \uFEFF" + OK,
            OK + "\uFEFF",
            "{\"id\":\"a\",\"content\":\"x y\",\"\uFEFF\":1}",
            "{\"id\":\"\u00fc\",\"content\":\"Gr\u00fc\u00dfe \u4e16\u754c \ud83c\udf0d\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\u00e9:1}",
            "{\"id\":\"a\",\"content\":\"x y\"} \u00e9",
            "{\"id\":\"a\",\"content\":\"x y\"} \u4e16",
            "{\"id\":\"a\",\"content\":\"x y\"} \ud83c\udf0d",
            "\u00e9",
            "\u4e16\u754c",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":\u00e9}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":t\u00e9}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":tru\u00e9}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":1\u00e9}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":[\u4e16]}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":\"\\\u00e9\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"\u00e9\u00e9\":1,\"\u00e9\u00e9\":2}",
            "{\"\u00e9\":\"a\",\"content\":\"x y\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":\"\u2028\u2029\"}",
            "{\"id\":\"a\",\"content\":\"x y\",\"u\":\"\uffff\ufffe\"}",
            "\u0000" + OK,
            "\u0000{",
            "{\u0000",
            " \u0000",
            "\u0000\u0000\u0000{",
            "{\u0000\u0000\u0000",
            "\u0000\u0000{\u0000",
            "\u0000{\u0000\u0000",
            "{\"\u0000\":1}",
            "\u0000",
            "\u007f" + OK,
            "\u0085" + OK,
            "\u00a0" + OK,
        };
        for (String t : texts) {
            out.add(utf8(t));
        }
        int[][] invalid = {
            {0xC3, 0x28},
            {0xC0, 0xAF},
            {0xC1, 0xBF},
            {0xE0, 0x80, 0xAF},
            {0xE0, 0x9F, 0xBF},
            {0xED, 0xA0, 0x80},
            {0xED, 0xBF, 0xBF},
            {0xF0, 0x80, 0x80, 0xAF},
            {0xF0, 0x8F, 0xBF, 0xBF},
            {0xF4, 0x90, 0x80, 0x80},
            {0xF5, 0x80, 0x80, 0x80},
            {0xF8, 0x88, 0x80, 0x80, 0x80},
            {0xFF},
            {0xFE},
            {0x80},
            {0xBF},
            {0xC3},
            {0xE4, 0xB8},
            {0xF0, 0x9F, 0x8C},
            {0xF0, 0x9F},
            {0xE4, 0x41, 0x80},
            {0xF0, 0x9F, 0x41, 0x8D},
        };
        for (int[] bad : invalid) {
            out.add(concat(bad));
            out.add(concat("{\"id\":\"a\",\"content\":\"x ", bad, "y\"}"));
            out.add(concat("{\"id\":\"a\",\"content\":\"x y\",\"k", bad, "\":1}"));
            out.add(concat("{\"id\":\"a\",\"content\":\"x y\",\"u\":[\"", bad, "\"]}"));
            out.add(concat("{\"id\":\"a\",\"content\":\"x y\",\"u\":{\"v\":\"", bad, "\"}}"));
            out.add(concat("{\"id\":\"a\",\"content\":\"x y\"}", bad));
            out.add(concat("{\"id\":\"a\",\"content\":\"x y\"", bad));
            out.add(concat("{\"id\":\"a\",\"content\":\"x ", bad));
            out.add(concat("{\"id\":\"a\",\"content\":\"x y\",\"u\":", bad, "}"));
            out.add(concat(new int[] {0xEF, 0xBB, 0xBF}, bad, OK));
            out.add(concat("{\"id\":\"a\",\"content\":\"\u00e9\u4e16 ", bad, "\"}"));
        }
        out.add(concat(new int[] {0xEF, 0xBB}, OK));
        out.add(concat(new int[] {0xEF}, OK));
        out.add(concat(new int[] {0xFE, 0xFF}, OK));
        out.add(concat(new int[] {0xFF, 0xFE}, OK));
        out.add(utf8("{\"id\":\"a\",\"content\":\"" + "long content ".repeat(10_000) + "\"}"));
        return out;
    }

    @Test
    void trickyRecordsGiveTheSameResults() {
        List<String> differences = new ArrayList<>();
        for (byte[] payload : trickyRecords()) {
            String d = difference(payload);
            if (d != null) {
                differences.add(
                        new String(payload, StandardCharsets.ISO_8859_1)
                                        .replaceAll("(.{200}).*", "$1...")
                                + "\n  "
                                + d);
            }
        }
        assertThat(differences).as(String.join("\n\n", differences)).isEmpty();
    }

    private static final String[] SEEDS = {
        "{\"id\":\"p1\",\"url\":\"https://x.example/a\",\"contentType\":\"text/html\",\"content\":\"<p>Gr\u00fc\u00dfe"
            + " \u4e16\u754c \ud83c\udf0d \\\"q\\\" \\u00e9</p>\","
            + "\"fetchedAt\":\"2022-04-15T04:00:00Z\",\"extra\":{\"nested\":[1,-2.5e3,true,null,"
            + "\"s\u00e9\"]},\"n\":12}",
        "{\"id\":123,\"content\":\"plain ascii text here\",\"fetchedAt\":1649995200000}",
        "\uFEFF{\"content\":\"c\",\"id\":\"\u00fc\",\"u\":[{\"a\":{}},[]]}",
    };

    /** Bytes a mutation inserts: JSON syntax, white space, UTF-8 pieces valid and not. */
    private static final int[] MUTATION_BYTES = {
        '{', '}', '[', ']', ':', ',', '"', '\\', 'u', '0', '9', '-', '.', 'e', 't', 'n', 'x', ' ',
        '\n', '\t', 0x00, 0x01, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xA9, 0xE4, 0xB8, 0x96, 0xED, 0xA0,
        0xEF, 0xBB, 0xF0, 0x9F, 0xF4, 0x90, 0xFF
    };

    @Test
    void randomMutationsOfValidRecordsGiveTheSameResults() {
        SplittableRandom random = new SplittableRandom(11);
        List<String> differences = new ArrayList<>();
        for (int round = 0; round < 10_000; round++) {
            byte[] seed = utf8(SEEDS[random.nextInt(SEEDS.length)]);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(seed);
            byte[] bytes = out.toByteArray();
            int mutations = 1 + random.nextInt(3);
            for (int m = 0; m < mutations; m++) {
                bytes = mutate(bytes, random);
            }
            String d = difference(bytes);
            if (d != null && differences.size() < 20) {
                differences.add(new String(bytes, StandardCharsets.ISO_8859_1) + "\n  " + d);
            }
        }
        assertThat(differences).as(String.join("\n\n", differences)).isEmpty();
    }

    /**
     * The times-only read that measures an input's order ({@link DocumentParser#eventTime}) gives
     * every record that parses to a document or deletion the same event time, on the tricky
     * records, many mutations, and nested field paths; records it gives a time that {@code parse}
     * rejects are allowed (the order may count more records, never fewer).
     */
    @Test
    void theTimesOnlyReadGivesEveryDocumentItsTime() {
        List<byte[]> records = new ArrayList<>(trickyRecords());
        SplittableRandom random = new SplittableRandom(12);
        for (int round = 0; round < 10_000; round++) {
            byte[] bytes = utf8(SEEDS[random.nextInt(SEEDS.length)]);
            for (int m = 1 + random.nextInt(3); m > 0; m--) {
                bytes = mutate(bytes, random);
            }
            records.add(bytes);
        }
        DocumentParser nested =
                new DocumentParser(
                        new InputFields("doc.id", "doc.body", "url", "contentType", "meta.at"),
                        1 << 20,
                        HOUR,
                        DocumentParser.FutureTimestamps.DEAD_LETTER);
        List<byte[]> nestedRecords =
                List.of(
                        utf8("{\"doc\":{\"id\":\"a\",\"body\":\"x y\"},\"meta\":{\"at\":5}}"),
                        utf8(
                                "{\"meta\":{\"at\":\"2022-04-15T04:00:00Z\"},\"doc\":{\"id\":1,\"body\":\"z\"}}"),
                        utf8("{\"meta.at\":7,\"doc.id\":\"b\",\"doc.body\":\"w\"}"),
                        utf8("{\"doc\":{\"id\":\"c\",\"body\":\"v\"},\"meta\":{}}"),
                        utf8("{\"doc\":{\"id\":\"d\",\"body\":\"u\"},\"meta\":{\"at\":[1]}}"));
        int documents = 0;
        List<String> differences = new ArrayList<>();
        for (DocumentParser parser : List.of(streaming, nested)) {
            for (byte[] payload : parser == streaming ? records : nestedRecords) {
                RawRecord raw = new RawRecord(payload, "eq:1");
                raw.timestamp = NOW - 5;
                DocumentParser.Result r = parser.parse(raw, 7, NOW);
                long expected =
                        r.document() != null
                                ? r.document().eventTime
                                : r.deletion() != null ? r.deletion().eventTime : Long.MIN_VALUE;
                if (expected == Long.MIN_VALUE) {
                    continue;
                }
                documents++;
                long read = parser.eventTime(raw, 7, NOW);
                if (read != expected && differences.size() < 20) {
                    differences.add(
                            new String(payload, StandardCharsets.ISO_8859_1)
                                    + "\n  parse "
                                    + expected
                                    + ", times only "
                                    + read);
                }
            }
        }
        assertThat(documents).isGreaterThan(500);
        assertThat(differences).as(String.join("\n\n", differences)).isEmpty();
    }

    private static byte[] mutate(byte[] b, SplittableRandom random) {
        int at = random.nextInt(b.length + 1);
        byte x = (byte) MUTATION_BYTES[random.nextInt(MUTATION_BYTES.length)];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (random.nextInt(4)) {
            case 0 -> { // insert
                out.write(b, 0, at);
                out.write(x);
                out.write(b, at, b.length - at);
            }
            case 1 -> { // delete
                if (at == b.length) {
                    return b;
                }
                out.write(b, 0, at);
                out.write(b, at + 1, b.length - at - 1);
            }
            case 2 -> { // replace
                if (at == b.length) {
                    return b;
                }
                byte[] c = b.clone();
                c[at] = x;
                return c;
            }
            default -> { // truncate
                out.write(b, 0, at);
            }
        }
        return out.toByteArray();
    }
}
