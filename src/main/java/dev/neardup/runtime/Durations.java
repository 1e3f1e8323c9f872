package dev.neardup.runtime;

import dev.neardup.config.OptionValues;
import java.time.Duration;

/** Durations given on the command line: checked, with their unit, before anything starts. */
public final class Durations {

    /** Flink's smallest checkpoint interval. */
    private static final Duration MIN_CHECKPOINT_INTERVAL = Duration.ofMillis(10);

    private Durations() {}

    /** A --checkpoint-interval, checked against Flink's minimum before anything starts. */
    public static Duration checkpointInterval(String text) {
        Duration interval = parse("--checkpoint-interval", text);
        if (interval.compareTo(MIN_CHECKPOINT_INTERVAL) < 0) {
            throw NeardupException.usage(
                    "--checkpoint-interval must be at least 10ms (Flink's minimum), got " + text);
        }
        return interval;
    }

    /**
     * A duration flag's value, with its unit (30d, 12h, 10s, 500ms, ISO-8601 PT10S; see {@link
     * OptionValues#duration}); anything else is a usage error naming {@code flag}.
     */
    public static Duration parse(String flag, String text) {
        try {
            return OptionValues.duration(flag, text);
        } catch (IllegalArgumentException e) {
            throw NeardupException.usage(e.getMessage());
        }
    }
}
