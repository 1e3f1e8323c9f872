package dev.neardup.config;

import java.io.Serializable;
import org.apache.flink.configuration.ReadableConfig;

/**
 * @param pendingBufferBytes heap bytes per verdict subtask for verdicts being assembled ({@link
 *     NearDupOptions#PENDING_BUFFER})
 * @param earlyAlerts whether a bucket alerts a page's matches with settled members as the page
 *     arrives ({@link NearDupOptions#EARLY_ALERTS})
 */
public record VerdictSettings(long pendingBufferBytes, boolean earlyAlerts)
        implements Serializable {

    public static VerdictSettings from(ReadableConfig config) {
        return new VerdictSettings(
                config.get(NearDupOptions.PENDING_BUFFER).getBytes(),
                config.get(NearDupOptions.EARLY_ALERTS));
    }
}
