package dev.neardup.pipeline;

/**
 * A message to the signature store, keyed by {@link #target} (a document id): a bucket registering
 * a member, releasing one, or asking to verify a new document against a member.
 */
public class SignatureEvent {
    /** A bucket took the document in: store its signature, count one more reference. */
    public static final int REGISTER = 0;

    /** A bucket dropped the document (evicted, expired or replaced): one reference less. */
    public static final int RELEASE = 1;

    /** A new document collided with {@link #target} in {@link #band}: verify the pair. */
    public static final int CANDIDATE = 2;

    public int kind;

    /** The stored document this message is about (the key). */
    public String target;

    /** REGISTER: the registered document; CANDIDATE: the new (querying) document. */
    public String docId;

    public String instance;
    public String url;
    public long eventTime;
    public short[] signature;
    public long[] bandKeys;

    /** CANDIDATE: the band in which the two collided. */
    public int band;

    public SignatureEvent() {}

    static SignatureEvent register(BandRecord r) {
        SignatureEvent e = fromRecord(REGISTER, r.docId, r);
        return e;
    }

    static SignatureEvent release(String target) {
        SignatureEvent e = new SignatureEvent();
        e.kind = RELEASE;
        e.target = target;
        return e;
    }

    static SignatureEvent candidate(String target, BandRecord query) {
        return fromRecord(CANDIDATE, target, query);
    }

    private static SignatureEvent fromRecord(int kind, String target, BandRecord r) {
        SignatureEvent e = new SignatureEvent();
        e.kind = kind;
        e.target = target;
        e.docId = r.docId;
        e.instance = r.instance;
        e.url = r.url;
        e.eventTime = r.eventTime;
        e.signature = r.signature;
        e.bandKeys = r.bandKeys;
        e.band = r.band;
        return e;
    }
}
