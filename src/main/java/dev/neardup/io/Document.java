package dev.neardup.io;

/**
 * A valid input document, after parsing and validation. A Flink POJO (public fields, no-arg
 * constructor) so its serializer can evolve.
 */
public class Document {
    /** The document id from the input (a re-crawl of a page keeps its id). */
    public String id;

    /** Where this record came from (file:line, topic-partition@offset): unique per record. */
    public String instance;

    /** URL, or null. */
    public String url;

    /** The content, HTML or plain text. */
    public String content;

    /** Declared MIME type, or null (then sniffed). */
    public String contentType;

    /**
     * Event time in epoch milliseconds: fetchedAt, else the Kafka record time or the line position.
     */
    public long eventTime;

    public Document() {}

    public Document(
            String id,
            String instance,
            String url,
            String content,
            String contentType,
            long eventTime) {
        this.id = id;
        this.instance = instance;
        this.url = url;
        this.content = content;
        this.contentType = contentType;
        this.eventTime = eventTime;
    }
}
