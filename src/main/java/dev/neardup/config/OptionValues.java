package dev.neardup.config;

import java.time.Duration;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;

/**
 * Durations and memory sizes as neardup reads and writes them, in one place for every flag and for
 * the {@code neardup.*} options of {@code -D} and configuration files: a value must name its unit
 * ({@code 30d}, {@code 5m}, {@code 10s}, {@code 500ms}, ISO-8601 {@code PT30S}; {@code 1kb}, {@code
 * 32mb}). Flink reads a bare number as milliseconds or bytes, so {@code --retention 30} would be 30
 * ms: here it is an error that names the accepted forms. Only 0 needs no unit.
 */
public final class OptionValues {

    /** The forms a duration takes, for messages. */
    public static final String DURATION_FORMS =
            "give a unit: 30d, 12h, 5m, 10s, 500ms, or ISO-8601 like PT30S";

    /** The forms a memory size takes, for messages. */
    public static final String SIZE_FORMS = "give a unit: 512b, 1kb, 32mb, 1gb";

    private static final Pattern BARE_NUMBER = Pattern.compile("[+-]?\\d+(\\.\\d*)?");

    private OptionValues() {}

    /**
     * A duration with its unit.
     *
     * @param name what the value is for (a flag or an option key), for the message
     * @throws IllegalArgumentException naming {@code name} and the accepted forms
     */
    public static Duration duration(String name, String text) {
        return parse(
                name,
                text,
                "a duration",
                DURATION_FORMS,
                value -> {
                    Duration d = TimeUtils.parseDuration(value);
                    if (d.isNegative()) {
                        throw new IllegalArgumentException("negative");
                    }
                    return d;
                });
    }

    /**
     * A memory size with its unit.
     *
     * @param name what the value is for (a flag or an option key), for the message
     * @throws IllegalArgumentException naming {@code name} and the accepted forms
     */
    public static MemorySize memorySize(String name, String text) {
        return parse(name, text, "a memory size", SIZE_FORMS, MemorySize::parse);
    }

    private static <T> T parse(
            String name, String text, String what, String forms, Function<String, T> parser) {
        String value = text == null ? "" : text.strip();
        if (bareNonZero(value)) {
            throw new IllegalArgumentException(name + ": '" + value + "' has no unit; " + forms);
        }
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw new IllegalArgumentException(
                    name + ": '" + value + "' is not " + what + "; " + forms);
        }
    }

    private static boolean bareNonZero(String value) {
        return BARE_NUMBER.matcher(value).matches() && Double.parseDouble(value) != 0;
    }

    /** A duration as the flags take it, in its largest whole unit: 30d, 12h, 5m, 10s, 500ms. */
    public static String format(Duration d) {
        return largestUnit(
                d.toMillis(),
                new long[] {86_400_000L, 3_600_000L, 60_000L, 1000L, 1L},
                new String[] {"d", "h", "m", "s", "ms"});
    }

    /** A number as the flags take it, without trailing zeros: 0.8, 4, 1e-7 as 0.0000001. */
    public static String format(double x) {
        if (!Double.isFinite(x)) {
            return Double.toString(x);
        }
        String s = java.math.BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
        return s.equals("-0") ? "0" : s;
    }

    /** A memory size as the flags take it, in its largest whole unit: 8mb, 1gb, 512b. */
    public static String format(MemorySize size) {
        return largestUnit(
                size.getBytes(),
                new long[] {1L << 40, 1L << 30, 1L << 20, 1L << 10, 1L},
                new String[] {"tb", "gb", "mb", "kb", "b"});
    }

    private static String largestUnit(long value, long[] units, String[] names) {
        for (int i = 0; i < units.length; i++) {
            if (value % units[i] == 0 && (value != 0 || i == units.length - 1)) {
                return value / units[i] + names[i];
            }
        }
        throw new AssertionError("the last unit divides every value");
    }
}
