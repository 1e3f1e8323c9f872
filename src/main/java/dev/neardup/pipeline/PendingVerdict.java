package dev.neardup.pipeline;

import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.verdicts.VerdictOperator;

/**
 * A verdict being assembled by {@link VerdictOperator} for one document version: how many input
 * records announced it, the candidates its buckets compared it with, its matches so far, and the
 * documents alerted early as its matches.
 */
public class PendingVerdict {
    public String docId;
    public String url;
    public long eventTime;

    /** Input records of this document version (a repeated record gets its own verdict). */
    public int records;

    /**
     * Where each of the {@link #records} came from, in the order they were announced (shorter when
     * restored from state written before sources were kept: the rest have none).
     */
    public String[] sources = new String[0];

    /** Candidates compared, or {@link #DELETION} when this waits to become a DELETED verdict. */
    public int candidates;

    /** {@link #candidates} of a deletion waiting for the watermark (no new field: same state). */
    public static final int DELETION = -1;

    /**
     * Bucket reports received ({@link VerdictEvent#reports}); the verdict is due at records x
     * bands. -1 (the constructor's value, so also what state written before reports were counted
     * restores to) means "not counted": the verdict is due at the event-time timer.
     */
    public int reports = -1;

    public MatchList matches = new MatchList();

    /**
     * The documents already alerted early ({@link VerdictEvent#EARLY}) as matches of this one: not
     * alerted again when a bucket report names them, and not part of the verdict unless a report
     * does (empty when restored from state layouts before early alerts).
     */
    public String[] earlyAlerted = new String[0];

    public PendingVerdict() {}

    /**
     * Notes that {@code id} was alerted as a match of this document.
     *
     * @return true when it was not alerted before, early or from a bucket report
     */
    public boolean alertEarly(String id) {
        if (wasAlertedEarly(id) || java.util.Arrays.asList(matches.ids).contains(id)) {
            return false;
        }
        earlyAlerted = java.util.Arrays.copyOf(earlyAlerted, earlyAlerted.length + 1);
        earlyAlerted[earlyAlerted.length - 1] = id;
        return true;
    }

    /** Whether {@code id} was alerted early as a match of this document. */
    public boolean wasAlertedEarly(String id) {
        return earlyAlerted != null && java.util.Arrays.asList(earlyAlerted).contains(id);
    }

    /** Final: every bucket of every record reported (and the store verified all they sent). */
    public boolean complete(int bands) {
        return records > 0 && reports >= (long) records * bands;
    }

    /** Counts what {@code e} says about candidates verified after the buckets (none here). */
    public void countForwarded(VerdictEvent e) {}

    /** True when this is a deletion waiting for the watermark, not a document's verdict. */
    public boolean isDeletion() {
        return candidates == DELETION;
    }

    /** Records the source of one more input record of this document version. */
    public void addSource(String source) {
        sources = java.util.Arrays.copyOf(sources, sources.length + 1);
        sources[sources.length - 1] = source;
    }

    /** The source of record {@code i}, or null if unknown. */
    public String source(int i) {
        return sources != null && i < sources.length ? sources[i] : null;
    }

    /**
     * Adds match {@code i} of {@code from}, once per matched document (the same pair can collide in
     * several bands; a match reported again keeps the earlier of its reported clusters).
     *
     * @return true when {@code id} was not a match yet
     */
    public boolean addMatch(MatchList from, int i) {
        return matches.add(
                from.ids[i],
                from.urls[i],
                from.eventTimes[i],
                from.estimate(i),
                from.clusterId(i),
                from.clusterTime(i));
    }
}
