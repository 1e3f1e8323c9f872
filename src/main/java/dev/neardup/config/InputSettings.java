package dev.neardup.config;

import dev.neardup.io.DocumentParser;
import dev.neardup.io.FieldLimits;
import dev.neardup.io.InputFields;
import java.io.Serializable;
import org.apache.flink.configuration.ReadableConfig;

/**
 * What the parser of input records needs: the field names, the size limits and the clock-skew rule.
 */
public record InputSettings(
        FieldLimits limits,
        InputFields fields,
        long maxClockSkewMillis,
        DocumentParser.FutureTimestamps futureTimestamps)
        implements Serializable {

    public static InputSettings from(ReadableConfig config) {
        return new InputSettings(
                new FieldLimits(
                        (int) config.get(NearDupOptions.MAX_DOCUMENT_SIZE).getBytes(),
                        (int) config.get(NearDupOptions.MAX_ID_SIZE).getBytes(),
                        (int) config.get(NearDupOptions.MAX_URL_SIZE).getBytes()),
                new InputFields(
                        config.get(NearDupOptions.FIELD_ID),
                        config.get(NearDupOptions.FIELD_CONTENT),
                        config.get(NearDupOptions.FIELD_URL),
                        config.get(NearDupOptions.FIELD_CONTENT_TYPE),
                        config.get(NearDupOptions.FIELD_FETCHED_AT),
                        config.get(NearDupOptions.FIELD_DELETED)),
                config.get(NearDupOptions.MAX_CLOCK_SKEW).toMillis(),
                config.get(NearDupOptions.FUTURE_TIMESTAMPS));
    }

    /** The parser of input records, with these field names, size limit and clock-skew rule. */
    public DocumentParser parser() {
        return new DocumentParser(fields, limits, maxClockSkewMillis, futureTimestamps);
    }

    /** The largest record accepted. */
    public int maxDocumentBytes() {
        return limits.recordBytes();
    }
}
