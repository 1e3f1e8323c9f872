package dev.neardup.pipeline;

/**
 * Containment mode: what a band-bucket subtask sends the {@link SampleStoreFunction}, keyed there
 * by {@link #id}, all on one stream so that they keep their order per subtask: a document's sample
 * ({@link #SAMPLE}) when the subtask first keeps the document as a member, a candidate pair ({@link
 * #CANDIDATE}: a member and the document the bucket took in, with the document's sample) and a
 * deletion ({@link #DELETION}). A Flink POJO.
 */
public class SampleStoreRecord {
    /** A document version's sample, sent before any candidate of which it is the member. */
    public static final int SAMPLE = 0;

    /** A candidate pair: the store verifies it against the member's sample. */
    public static final int CANDIDATE = 1;

    /** A deletion of document {@link #id} at {@link #time}. */
    public static final int DELETION = 2;

    public int kind;

    /** The key: the document (SAMPLE, DELETION) or the bucket member (CANDIDATE). */
    public String id;

    /** The event time of {@link #id}'s version, or of the deletion. */
    public long time;

    /** The fingerprint of {@link #id}'s version ({@link BandRecord#fingerprint}). */
    public long fingerprint;

    /** SAMPLE: the document's URL. */
    public String url;

    /** The packed sample: SAMPLE, of {@link #id}; CANDIDATE, of the document {@link #docId}. */
    public byte[] sample;

    /** CANDIDATE: the document the bucket took in. */
    public String docId;

    public String docUrl;
    public long docTime;
    public long docFingerprint;

    /** CANDIDATE: the band of the bucket in which the two collided. */
    public int band;

    /**
     * CANDIDATE: true when the member is earlier than the document (the usual case): the result
     * goes to the document's verdict, which waits for it ({@link VerdictEvent#RESULT}). False when
     * the document arrived late, behind the buckets' watermark: a match then goes to the member's
     * verdict, as a later-found match that it does not wait for.
     */
    public boolean memberFirst;

    public SampleStoreRecord() {}

    static SampleStoreRecord sample(BandRecord doc) {
        SampleStoreRecord r = new SampleStoreRecord();
        r.kind = SAMPLE;
        r.id = doc.docId;
        r.time = doc.eventTime;
        r.fingerprint = doc.fingerprint;
        r.url = doc.url;
        r.sample = doc.signature;
        return r;
    }

    static SampleStoreRecord deletion(String id, long time) {
        SampleStoreRecord r = new SampleStoreRecord();
        r.kind = DELETION;
        r.id = id;
        r.time = time;
        return r;
    }

    static SampleStoreRecord candidate(
            String memberId,
            long memberTime,
            long memberFingerprint,
            BandRecord doc,
            boolean memberFirst) {
        SampleStoreRecord r = new SampleStoreRecord();
        r.kind = CANDIDATE;
        r.id = memberId;
        r.time = memberTime;
        r.fingerprint = memberFingerprint;
        r.sample = doc.signature;
        r.docId = doc.docId;
        r.docUrl = doc.url;
        r.docTime = doc.eventTime;
        r.docFingerprint = doc.fingerprint;
        r.band = doc.band;
        r.memberFirst = memberFirst;
        return r;
    }
}
