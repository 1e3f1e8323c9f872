package dev.neardup.pipeline.records;

import dev.neardup.pipeline.MatchList;
import dev.neardup.pipeline.samples.SampleStoreFunction;
import dev.neardup.similarity.Estimate;

/**
 * A message to the verdict operator about one document version (id and event time, see {@link
 * #key}): the signature operator announcing the document ({@link #ANNOUNCE}, one per input record)
 * or a deletion of it ({@link #DELETE}, one per input record), or a band bucket reporting what it
 * found for it ({@link #MATCHES}: how many members it compared the document with, and the verified
 * matches that are earlier than it). Every bucket a document reaches reports once ({@link
 * #reports}, several at once from one subtask). In containment mode the buckets verify nothing
 * themselves: a report says how many candidates it sent to the {@link SampleStoreFunction} ({@link
 * #forwarded}), and the store sends one {@link #RESULT} for each. Serialized by {@link
 * RecordSerializers.VerdictEventSerializer} between operators; a Flink POJO (arrays, no
 * collections) inside the sample intake's state ({@link SampleStoreRecord}).
 */
public class VerdictEvent {
    /** The signature operator read this document: one per input record. */
    public static final int ANNOUNCE = 0;

    /** A bucket compared the document with members, or found that it duplicates one. */
    public static final int MATCHES = 1;

    /** The signature operator read a deletion of the document at {@link #eventTime}. */
    public static final int DELETE = 2;

    /** Containment: the store verified a candidate; a match is in {@link #matches}. */
    public static final int RESULT = 3;

    /**
     * A bucket found, as the document arrived (before the watermark passed it), verified matches
     * with members the watermark had passed (settled): alerted at once, in {@link #matches} as in a
     * MATCHES report; it counts as no report ({@link #reports} 0) and leaves the verdict to the
     * MATCHES reports.
     */
    public static final int EARLY = 4;

    public int kind;
    public String docId;
    public String url;
    public long eventTime;

    /** ANNOUNCE: where the input record came from (file:line, topic-partition@offset). */
    public String source;

    /** MATCHES: members compared with on arrival in this bucket (0 for a later-found match). */
    public int candidates;

    /**
     * MATCHES: how many of the document's band records this report covers (one report per document
     * and subtask), so the verdict operator knows when it has heard from all {@code records x
     * bands} of them; 0 for a match found later, when an earlier document arrived late.
     */
    public int reports;

    /** MATCHES, containment: candidates sent to the sample store, each to come back as a RESULT. */
    public int forwarded;

    /** MATCHES: the band of the first bucket in this report. */
    public int band;

    /** MATCHES: earlier documents that this one nearly duplicates, and their similarity. */
    public MatchList matches = new MatchList();

    /** MATCHES: the band in which each of {@link #matches} was found (parallel to it). */
    public int[] matchBands = new int[0];

    public VerdictEvent() {}

    /** The key of the verdict operator: one document version (a re-crawl is another). */
    public static String key(String docId, long eventTime) {
        return docId + '\u0000' + eventTime;
    }

    /** The key of a deletion at {@code eventTime}, apart from the document's version then. */
    public static String deletionKey(String docId, long eventTime) {
        return key(docId, eventTime) + "\u0000deleted";
    }

    public String key() {
        return kind == DELETE ? deletionKey(docId, eventTime) : key(docId, eventTime);
    }

    public static VerdictEvent announce(String docId, String url, long eventTime, String source) {
        VerdictEvent e = new VerdictEvent();
        e.kind = ANNOUNCE;
        e.docId = docId;
        e.url = url;
        e.eventTime = eventTime;
        e.source = source;
        return e;
    }

    public static VerdictEvent deletion(String docId, String url, long eventTime, String source) {
        VerdictEvent e = announce(docId, url, eventTime, source);
        e.kind = DELETE;
        return e;
    }

    public static VerdictEvent matches(String docId, String url, long eventTime, int band) {
        VerdictEvent e = announce(docId, url, eventTime, null);
        e.kind = MATCHES;
        e.band = band;
        return e;
    }

    /** Matches found as {@code docId} arrived, with settled members: alerted at once. */
    public static VerdictEvent early(String docId, String url, long eventTime, int band) {
        VerdictEvent e = matches(docId, url, eventTime, band);
        e.kind = EARLY;
        return e;
    }

    public static VerdictEvent result(String docId, String url, long eventTime, int band) {
        VerdictEvent e = matches(docId, url, eventTime, band);
        e.kind = RESULT;
        return e;
    }

    /**
     * Adds a match found in {@code matchBand} ({@link MatchList#add}: {@code clusterId}, null for
     * the match itself, and {@code clusterTime} are its cluster's first document).
     */
    public void addMatch(
            String id,
            String matchUrl,
            long matchEventTime,
            Estimate estimate,
            int matchBand,
            String clusterId,
            long clusterTime) {
        if (matches.add(id, matchUrl, matchEventTime, estimate, clusterId, clusterTime)) {
            matchBands = java.util.Arrays.copyOf(matchBands, matchBands.length + 1);
            matchBands[matchBands.length - 1] = matchBand;
        }
    }

    /** The band in which match {@code i} was found. */
    public int matchBand(int i) {
        return i < matchBands.length ? matchBands[i] : band;
    }
}
