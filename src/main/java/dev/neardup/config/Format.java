package dev.neardup.config;

import java.util.Locale;

/** Number formatting for the text outputs: locale-independent, short and readable. */
public final class Format {

    private Format() {}

    /** A number the user gave, as short as it is exact: 0.8, 128, 0.125. */
    public static String plain(double x) {
        return OptionValues.format(x);
    }

    /** Four decimals: 0.8445. */
    public static String fixed(double x) {
        return String.format(Locale.ROOT, "%.4f", x);
    }

    /** Four decimals, or three significant digits in scientific notation below 0.001. */
    public static String small(double x) {
        if (x != 0 && Math.abs(x) < 1e-3) {
            return String.format(Locale.ROOT, "%.2e", x);
        }
        return fixed(x);
    }

    /** A probability: four decimals, scientific below 0.0001, and never 1.0000 unless it is 1. */
    public static String probability(double p) {
        if (p > 0 && p < 1e-4) {
            return String.format(Locale.ROOT, "%.1e", p);
        }
        if (p < 1 && p >= 0.99995) {
            return "> 0.9999";
        }
        return fixed(p);
    }
}
