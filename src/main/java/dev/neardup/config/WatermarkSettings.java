package dev.neardup.config;

import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.configuration.ReadableConfig;

/** The watermarks of an unbounded input: how late a document may come, when a split is idle. */
public record WatermarkSettings(Duration maxOutOfOrderness, Duration idleTimeout)
        implements Serializable {

    public static WatermarkSettings from(ReadableConfig config) {
        return new WatermarkSettings(
                config.get(NearDupOptions.MAX_OUT_OF_ORDERNESS),
                config.get(NearDupOptions.IDLE_TIMEOUT));
    }
}
