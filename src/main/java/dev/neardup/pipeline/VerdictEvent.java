package dev.neardup.pipeline;

/**
 * A message to the verdict operator, keyed by {@link #instance} of the document being judged:
 * either a band bucket saying it has handled one band of the document (and how many candidates it
 * sent for verification), or the signature store reporting one verified candidate.
 */
public class VerdictEvent {
    /** A bucket handled band {@link #band} and sent {@link #candidates} candidates. */
    public static final int BAND_DONE = 0;

    /** One candidate verified: {@link #matchId} at {@link #similarity}. */
    public static final int RESULT = 1;

    public int kind;
    public String instance;
    public String docId;
    public String url;
    public long eventTime;
    public int band;

    /** BAND_DONE: candidates sent from this band. */
    public int candidates;

    /** RESULT: the candidate and its estimated similarity to the document. */
    public String matchId;

    public String matchUrl;
    public long matchEventTime;
    public double similarity;

    /** RESULT: similarity reached the threshold. */
    public boolean match;

    /**
     * RESULT: the lowest band in which the two documents share a bucket (from their band keys), or
     * -1 when unknown.
     */
    public int commonBand = -1;

    public VerdictEvent() {}
}
