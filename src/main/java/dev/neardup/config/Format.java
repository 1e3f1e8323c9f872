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

    /**
     * The shortest run, in seconds, whose documents per second the text outputs print: in a shorter
     * one the JVM's and the job's start-up, a few seconds, would be most of the rate.
     */
    public static final double MIN_SECONDS_FOR_A_RATE = 10;

    /** {@code n} and a noun: "1 document", "2 documents"; the plural adds an s. */
    public static String count(long n, String singular) {
        return count(n, singular, singular + "s");
    }

    /** {@code n} and a noun: "1 copy", "2 copies". */
    public static String count(long n, String singular, String plural) {
        return n + " " + (n == 1 ? singular : plural);
    }

    /**
     * "1,234 documents/s" for {@code documents} in {@code seconds}, or null when the run is shorter
     * than {@link #MIN_SECONDS_FOR_A_RATE}.
     */
    public static String rate(long documents, double seconds) {
        if (!(seconds >= MIN_SECONDS_FOR_A_RATE)) {
            return null;
        }
        return String.format(Locale.ROOT, "%,.0f documents/s", documents / seconds);
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
