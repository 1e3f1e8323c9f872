package dev.neardup.io;

/**
 * What the job's sources emit: an input record already parsed, either a valid {@link Document}, a
 * valid {@link Deletion} (a Kafka tombstone or a {@code "deleted": true} line), or the {@link
 * DeadLetter} that explains why it is neither (exactly one of the three is set). Parsing in the
 * source lets the source assign each record its event time, so that watermarks are tracked per
 * Kafka partition and per file split. A Flink POJO.
 */
public class ParsedRecord {
    public Document document;
    public DeadLetter deadLetter;
    public Deletion deletion;

    public ParsedRecord() {}

    public ParsedRecord(Document document, DeadLetter deadLetter) {
        this(document, deadLetter, null);
    }

    public ParsedRecord(Document document, DeadLetter deadLetter, Deletion deletion) {
        int set =
                (document != null ? 1 : 0)
                        + (deadLetter != null ? 1 : 0)
                        + (deletion != null ? 1 : 0);
        if (set != 1) {
            throw new IllegalArgumentException(
                    "exactly one of document, dead letter and deletion is set");
        }
        this.document = document;
        this.deadLetter = deadLetter;
        this.deletion = deletion;
    }

    /** The event time of a document or deletion; Long.MIN_VALUE (no time) for a dead letter. */
    public long eventTime() {
        if (document != null) {
            return document.eventTime;
        }
        return deletion != null ? deletion.eventTime : Long.MIN_VALUE;
    }
}
