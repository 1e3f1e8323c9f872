package dev.neardup.io;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
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
