package dev.neardup.config;

import java.io.Serializable;
import org.apache.flink.configuration.ReadableConfig;

/**
 * @param pendingBufferBytes heap bytes per verdict subtask for verdicts being assembled ({@link
 *     NearDupOptions#PENDING_BUFFER})
 */
public record VerdictSettings(long pendingBufferBytes) implements Serializable {

    public static VerdictSettings from(ReadableConfig config) {
        return new VerdictSettings(config.get(NearDupOptions.PENDING_BUFFER).getBytes());
    }
}
