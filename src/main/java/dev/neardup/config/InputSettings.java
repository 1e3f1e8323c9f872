package dev.neardup.config;

import dev.neardup.io.DocumentParser;
import dev.neardup.io.InputFields;
import java.io.Serializable;
import org.apache.flink.configuration.ReadableConfig;

/**
 * What the parser of input records needs: the field names, the size limit and the clock-skew rule.
 */
public record InputSettings(
        int maxDocumentBytes,
        InputFields fields,
        long maxClockSkewMillis,
        DocumentParser.FutureTimestamps futureTimestamps)
        implements Serializable {

    public static InputSettings from(ReadableConfig config) {
        return new InputSettings(
                (int) config.get(NearDupOptions.MAX_DOCUMENT_SIZE).getBytes(),
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
        return new DocumentParser(fields, maxDocumentBytes, maxClockSkewMillis, futureTimestamps);
    }
}
