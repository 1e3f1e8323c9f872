package dev.neardup.testing;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A random vocabulary and Zipf-distributed draws from it, for the generated corpora (the word
 * frequencies of natural text follow Zipf's law, rank^-s). Deterministic for a given random source:
 * the corpora built on it are fixed by their seeds.
 */
final class ZipfWords {

    private ZipfWords() {}

    /**
     * {@code size} distinct lower-case words of {@code minLength} to {@code minLength + lengthSpan
     * - 1} letters.
     */
    static String[] vocabulary(SplittableRandom random, int size, int minLength, int lengthSpan) {
        Set<String> words = new HashSet<>();
        List<String> out = new ArrayList<>();
        while (out.size() < size) {
            int length = minLength + random.nextInt(lengthSpan);
            StringBuilder w = new StringBuilder();
            for (int i = 0; i < length; i++) {
                w.append((char) ('a' + random.nextInt(26)));
            }
            if (words.add(w.toString())) {
                out.add(w.toString());
            }
        }
        return out.toArray(new String[0]);
    }

    /** Cumulative Zipf weights: entry i is the sum of (r + 1)^-exponent for r = 0..i. */
    static double[] cumulative(int n, double exponent) {
        double[] cumulative = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1.0 / Math.pow(i + 1, exponent);
            cumulative[i] = sum;
        }
        return cumulative;
    }

    /** A rank drawn with probability proportional to its weight in {@code cumulative}. */
    static int draw(SplittableRandom random, double[] cumulative) {
        double u = random.nextDouble() * cumulative[cumulative.length - 1];
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] < u) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
