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
                || (e.eventTime == eventTime && e.instance.compareTo(instance) > 0);
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
