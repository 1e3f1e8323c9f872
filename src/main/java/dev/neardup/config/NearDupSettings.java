package dev.neardup.config;

import java.io.Serializable;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The validated settings of one job, read from {@link NearDupOptions}: one immutable record per
 * concern, serializable so that they travel with the operators. {@link #from} fails fast with a
 * message naming the option and what to do.
 */
public record NearDupSettings(
        InputSettings input,
        TextSettings text,
        ModeSettings similarity,
        BucketSettings buckets,
        WatermarkSettings watermarks,
        VerdictSettings verdicts)
        implements Serializable {

    /**
     * Reads and validates the options.
     *
     * @throws IllegalArgumentException naming the offending option and its allowed values
     */
    public static NearDupSettings from(ReadableConfig config) {
        Setting.check(config);
        ModeSettings similarity = ModeSettings.from(config);
        TextSettings text = TextSettings.from(config);
        BucketSettings buckets = BucketSettings.from(config);
        return new NearDupSettings(
                InputSettings.from(config),
                text,
                similarity,
                buckets,
                WatermarkSettings.from(config),
                VerdictSettings.from(config));
    }

    /** These settings with early alerts off ({@link NearDupOptions#EARLY_ALERTS}). */
    public NearDupSettings withoutEarlyAlerts() {
        return new NearDupSettings(
                input,
                text,
                similarity,
                buckets,
                watermarks,
                new VerdictSettings(verdicts.pendingBufferBytes(), false));
    }
}
