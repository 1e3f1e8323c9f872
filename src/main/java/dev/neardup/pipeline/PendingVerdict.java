package dev.neardup.pipeline;

import java.util.Arrays;

/**
 * A verdict being assembled by {@link VerdictFunction} for one document version: how many input
 * records announced it, the candidates its buckets compared it with, and its matches so far
 * (parallel arrays keep this a plain Flink POJO with no generic collections).
 */
public class PendingVerdict {
    public String docId;
    public String url;
    public long eventTime;

    /** Input records of this document version (a repeated record gets its own verdict). */
    public int records;

    public int candidates;
    public String[] matchIds = new String[0];
    public String[] matchUrls = new String[0];
    public double[] similarities = new double[0];
    public long[] matchEventTimes = new long[0];

    public PendingVerdict() {}

    /**
     * Adds a match, once per matched document (the same pair can collide in several bands).
     *
     * @return true when {@code id} was not a match yet
     */
    boolean addMatch(String id, String matchUrl, double similarity, long matchEventTime) {
        for (String existing : matchIds) {
            if (existing.equals(id)) {
                return false;
            }
        }
        int n = matchIds.length;
        matchIds = Arrays.copyOf(matchIds, n + 1);
        matchUrls = Arrays.copyOf(matchUrls, n + 1);
        similarities = Arrays.copyOf(similarities, n + 1);
        matchEventTimes = Arrays.copyOf(matchEventTimes, n + 1);
        matchIds[n] = id;
        matchUrls[n] = matchUrl;
        similarities[n] = similarity;
        matchEventTimes[n] = matchEventTime;
        return true;
    }
}
