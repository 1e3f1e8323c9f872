package dev.neardup.pipeline;

/** A live document's signature as kept by {@link SignatureStoreFunction}. */
public class StoredSignature {
    public String docId;
    public String instance;
    public String url;
    public long eventTime;
    public short[] signature;
    public long[] bandKeys;

    /** Number of bucket entries (over all bands) that currently hold this document id. */
    public int references;

    public StoredSignature() {}

    /** True when {@code e} is a newer version of the document than this one. */
    boolean isOlderThan(SignatureEvent e) {
        return e.eventTime > eventTime
                || (e.eventTime == eventTime && comparePositions(e.instance, instance) > 0);
    }

    /**
     * Orders record positions (file:line, topic-partition@offset) of one source by their number: a
     * longer position is a larger number; equal lengths compare as text. Plain text order would put
     * line 10 before line 9.
     */
    static int comparePositions(String a, String b) {
        int byLength = Integer.compare(a.length(), b.length());
        return byLength != 0 ? byLength : a.compareTo(b);
    }

    void copyFrom(SignatureEvent e) {
        docId = e.docId;
        instance = e.instance;
        url = e.url;
        eventTime = e.eventTime;
        signature = e.signature;
        bandKeys = e.bandKeys;
    }
}
