package dev.neardup.runtime;

import dev.neardup.config.OptionValues;
import java.time.Duration;

/** Durations given on the command line: checked, with their unit, before anything starts. */
public final class Durations {

    private Durations() {}

    /**
     * A duration flag's value, with its unit (30d, 12h, 10s, 500ms, ISO-8601 PT10S; see {@link
     * OptionValues#duration}); anything else is a usage error naming {@code flag}.
     */
    public static Duration parse(String flag, String text) {
        return NeardupException.usageIfInvalid(() -> OptionValues.duration(flag, text));
    }
}
