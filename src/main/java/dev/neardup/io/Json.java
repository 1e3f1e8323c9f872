package dev.neardup.io;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.UncheckedIOException;
import java.time.Instant;

/** The project's JSON settings: one thread-safe mapper for input and output records. */
public final class Json {

    /** Thread-safe once configured. */
    public static final ObjectMapper MAPPER =
            JsonMapper.builder()
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .serializationInclusion(JsonInclude.Include.ALWAYS)
                    .build();

    static {
        // Documents can be megabytes of text: lift Jackson's default 20 MB string limit to what
        // neardup.max-document-size allows at most.
        MAPPER.getFactory()
                .setStreamReadConstraints(
                        StreamReadConstraints.builder()
                                .maxStringLength(Integer.MAX_VALUE)
                                .maxNestingDepth(200)
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

    /** ISO-8601 UTC text of an epoch-millisecond instant. */
    public static String isoTime(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }
}
