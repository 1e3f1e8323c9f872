package dev.neardup.io;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.ser.PropertyWriter;
import com.fasterxml.jackson.databind.ser.impl.SimpleBeanPropertyFilter;
import com.fasterxml.jackson.databind.ser.impl.SimpleFilterProvider;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * The project's JSON, with Jackson: one thread-safe mapper for input and output records ({@link
 * #write}: one line), and the indented layout of the tools' {@code --json} output ({@link
 * #pretty}).
 */
public final class Json {

    /**
     * The deepest nesting of arrays and objects an input record may have (the record's object is
     * level 1); deeper records are dead letters (MALFORMED_JSON). It bounds the parser's stack.
     */
    public static final int MAX_NESTING_DEPTH = 200;

    /** Thread-safe once configured. */
    public static final ObjectMapper MAPPER =
            JsonMapper.builder()
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .serializationInclusion(JsonInclude.Include.ALWAYS)
                    .filterProvider(
                            new SimpleFilterProvider()
                                    .addFilter(Alert.JSON_FILTER, new AlertFields()))
                    .build();

    /** Writes the fields of an alert's kind only: a pair's, or a cluster merge's. */
    private static final class AlertFields extends SimpleBeanPropertyFilter {
        @Override
        public void serializeAsField(
                Object pojo, JsonGenerator gen, SerializerProvider provider, PropertyWriter writer)
                throws Exception {
            if (pojo instanceof Alert a
                    && (a.isClusterMerge() ? Alert.PAIR_FIELDS : Alert.MERGE_FIELDS)
                            .contains(writer.getName())) {
                return;
            }
            writer.serializeAsField(pojo, gen, provider);
        }
    }

    static {
        // Documents can be megabytes of text: lift Jackson's default 20 MB string limit to what
        // neardup.max-document-size allows at most.
        MAPPER.getFactory()
                .setStreamReadConstraints(
                        StreamReadConstraints.builder()
                                .maxStringLength(Integer.MAX_VALUE)
                                .maxNestingDepth(MAX_NESTING_DEPTH)
                                .build());
    }

    /**
     * Parsers of input records: {@link #MAPPER}'s settings (duplicate detection, limits), but a
     * byte array is always read as UTF-8 by Jackson's UTF-8 byte parser. Jackson's own {@code
     * createParser(byte[])} guesses the encoding from the first bytes and reads a payload that
     * starts with a zero byte as UTF-16 or UTF-32; input records are UTF-8 (validated before) whose
     * byte order mark, if any, the caller skips.
     */
    static final JsonFactory UTF8_INPUT = new Utf8Factory(MAPPER.getFactory());

    private static final class Utf8Factory extends JsonFactory {
        private static final long serialVersionUID = 1L;

        Utf8Factory(JsonFactory settings) {
            super(settings, settings.getCodec());
        }

        @Override
        protected JsonParser _createParser(byte[] data, int offset, int len, IOContext context) {
            return new UTF8StreamJsonParser(
                    context,
                    _parserFeatures,
                    null,
                    _objectCodec,
                    _byteSymbolCanonicalizer.makeChild(_factoryFeatures),
                    data,
                    offset,
                    offset + len,
                    false);
        }
    }

    private Json() {}

    /** One-line JSON of an output record. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes single values as ASCII JSON (other characters as \\u escapes), for {@link #pretty}.
     */
    private static final ObjectWriter ASCII =
            MAPPER.writer().with(JsonWriteFeature.ESCAPE_NON_ASCII);

    /**
     * Indented JSON for the tools' {@code --json} output, meant for people as well as machines:
     * {@code value} as Jackson serialises it (maps in their iteration order, records, lists,
     * numbers, strings), laid out with two spaces per level and {@code "key": value}; a list of
     * scalars, and an object of scalars inside a list, on one line (a curve's points, one per
     * line). Non-finite numbers are written as null; the text is ASCII. No trailing newline.
     */
    public static String pretty(Object value) {
        StringBuilder out = new StringBuilder(256);
        pretty(MAPPER.valueToTree(value), out, 0, false);
        return out.toString();
    }

    private static void pretty(JsonNode node, StringBuilder out, int indent, boolean inline) {
        if (!node.isContainerNode()) {
            out.append(scalar(node));
            return;
        }
        boolean object = node.isObject();
        if (node.isEmpty()) {
            out.append(object ? "{}" : "[]");
            return;
        }
        boolean oneLine =
                (inline || !object) && node.valueStream().noneMatch(JsonNode::isContainerNode);
        out.append(object ? '{' : '[');
        var names = node.fieldNames(); // empty for an array
        String separator = "";
        for (JsonNode child : node) {
            out.append(separator);
            if (!oneLine) {
                newline(out, indent + 1);
            }
            if (object) {
                out.append(scalar(TextNode.valueOf(names.next()))).append(": ");
            }
            pretty(child, out, indent + 1, !object);
            separator = oneLine ? ", " : ",";
        }
        if (!oneLine) {
            newline(out, indent);
        }
        out.append(object ? '}' : ']');
    }

    private static String scalar(JsonNode node) {
        if (node.isNumber() && !Double.isFinite(node.doubleValue())) {
            return "null";
        }
        try {
            return ASCII.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void newline(StringBuilder out, int indent) {
        out.append('\n').append("  ".repeat(indent));
    }

    /**
     * ISO-8601 UTC text of an epoch-millisecond instant, as {@link Instant#toString}: the text up
     * to the seconds is kept for the last second formatted (a verdict and its alerts format the
     * same few seconds over and over), then the milliseconds, if any, and "Z" are appended.
     */
    public static String isoTime(long epochMillis) {
        long second = Math.floorDiv(epochMillis, 1000L);
        int millis = (int) Math.floorMod(epochMillis, 1000L);
        IsoSecond last = lastSecond;
        if (last == null || last.second != second) {
            String whole = Instant.ofEpochSecond(second).toString();
            last = new IsoSecond(second, whole.substring(0, whole.length() - 1));
            lastSecond = last;
        }
        if (millis == 0) {
            return last.text + 'Z';
        }
        char[] fraction = {
            '.',
            (char) ('0' + millis / 100),
            (char) ('0' + millis / 10 % 10),
            (char) ('0' + millis % 10),
            'Z'
        };
        return last.text.concat(new String(fraction));
    }

    /** An epoch second and its ISO-8601 text up to the seconds (immutable: shared by threads). */
    private record IsoSecond(long second, String text) {}

    private static volatile IsoSecond lastSecond;
}
