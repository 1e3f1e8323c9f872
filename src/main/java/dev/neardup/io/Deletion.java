package dev.neardup.io;

/**
 * A valid deletion, after parsing and validation: the document {@link #id} is gone from the crawl
 * as of {@link #eventTime}. From a Kafka tombstone (a record with a null value, keyed by the id) or
 * a JSON line {@code {"id": "...", "deleted": true}}. A Flink POJO.
 */
public class Deletion {
    /** The id of the deleted document. */
    public String id;

    /** Where this record came from (file:line, topic-partition@offset): unique per record. */
    public String instance;

    /** URL, or null (a tombstone has none; a deletion line may give one). */
    public String url;

    /**
     * Event time in epoch milliseconds: the line's fetchedAt, else the Kafka record timestamp, else
     * (a line of a file or standard input) the line's position. The versions of the document up to
     * this time are deleted.
     */
    public long eventTime;

    public Deletion() {}

    public Deletion(String id, String instance, String url, long eventTime) {
        this.id = id;
        this.instance = instance;
        this.url = url;
        this.eventTime = eventTime;
    }
}
