package dev.neardup.pipeline;

import java.util.Arrays;

/**
 * Matches of one document: earlier documents (id, URL, event time) and the estimated similarity to
 * each, as parallel arrays so that it stays a plain Flink POJO with no generic collections. Used by
 * the buckets' reports ({@link VerdictEvent}) and the verdicts being assembled ({@link
 * PendingVerdict}).
 */
public class MatchList {
    public String[] ids = new String[0];
    public String[] urls = new String[0];
    public long[] eventTimes = new long[0];
    public double[] similarities = new double[0];

    public MatchList() {}

    public int size() {
        return ids.length;
    }

    /** True when {@code id} is already a match. */
    public boolean contains(String id) {
        for (String existing : ids) {
            if (existing.equals(id)) {
                return true;
            }
        }
        return false;
    }

    /** Appends a match. */
    public void add(String id, String url, long eventTime, double similarity) {
        int n = ids.length;
        ids = Arrays.copyOf(ids, n + 1);
        urls = Arrays.copyOf(urls, n + 1);
        eventTimes = Arrays.copyOf(eventTimes, n + 1);
        similarities = Arrays.copyOf(similarities, n + 1);
        ids[n] = id;
        urls[n] = url;
        eventTimes[n] = eventTime;
        similarities[n] = similarity;
    }
}
