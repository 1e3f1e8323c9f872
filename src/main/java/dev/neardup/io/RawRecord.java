package dev.neardup.io;

/**
 * An input record as it arrived, before any parsing: the payload bytes and where they came from. A
 * Flink POJO.
 */
public class RawRecord {
    /** The payload; when {@link #truncated}, only its first bytes. */
    public byte[] payload;

    /** Where the record came from: file:line or topic-partition@offset. Unique per record. */
    public String source;

    /** True when the reader stopped keeping bytes because the record was too large. */
    public boolean truncated;

    /** Size of the whole record in bytes (equal to payload.length unless truncated). */
    public long size;

    /** The source's timestamp for the record in epoch ms (Kafka), or -1. */
    public long timestamp = -1;

    /**
     * The record's place in a file or standard-input run, from 1: its line number plus the lines of
     * the inputs before its file (in the order given); -1 for Kafka records. The event time of a
     * line without {@code fetchedAt} ({@link DocumentLinesFormat}).
     */
    public long position = -1;

    /** Kafka topic the record came from, or null. */
    public String topic;

    /** Kafka partition, or -1. */
    public int partition = -1;

    /** Kafka offset, or -1. */
    public long offset = -1;

    /**
     * True for a Kafka tombstone: a record whose value is null (then {@link #payload} is empty and
     * {@link #key} names the document to delete).
     */
    public boolean tombstone;

    /** The Kafka record key of a tombstone (null when it has none, and for other records). */
    public byte[] key;

    public RawRecord() {}

    public RawRecord(byte[] payload, String source) {
        this.payload = payload;
        this.source = source;
        this.size = payload.length;
    }
}
