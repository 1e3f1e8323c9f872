package dev.neardup.pipeline;

/**
 * A deletion on its way to the band buckets, broadcast to every bucket subtask (a tombstone has no
 * content, so its band keys are unknown): the versions of {@link #docId} with an event time up to
 * {@link #eventTime} leave the buckets. A Flink POJO.
 */
public class DeletionRecord {
    public String docId;

    /** Event time in epoch ms: versions of the document up to this time are deleted. */
    public long eventTime;

    public DeletionRecord() {}

    public DeletionRecord(String docId, long eventTime) {
        this.docId = docId;
        this.eventTime = eventTime;
    }
}
