package dev.neardup.pipeline;

/** A member of a band bucket, as kept in its keyed state: about 40 bytes plus the ids. */
public class BucketMember {
    public String docId;
    public String instance;
    public long eventTime;

    public BucketMember() {}

    public BucketMember(String docId, String instance, long eventTime) {
        this.docId = docId;
        this.instance = instance;
        this.eventTime = eventTime;
    }
}
