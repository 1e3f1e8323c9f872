package dev.neardup.io;

/**
 * What the job's sources emit: an input record already parsed, either a valid {@link Document} or
 * the {@link DeadLetter} that explains why it is not one (exactly one of the two is set). Parsing
 * in the source lets the source assign each document its event time, so that watermarks are tracked
 * per Kafka partition and per file split. A Flink POJO.
 */
public class ParsedRecord {
    public Document document;
    public DeadLetter deadLetter;

    public ParsedRecord() {}

    public ParsedRecord(Document document, DeadLetter deadLetter) {
        if ((document == null) == (deadLetter == null)) {
            throw new IllegalArgumentException("exactly one of document and dead letter is set");
        }
        this.document = document;
        this.deadLetter = deadLetter;
    }

    /** The event time of a document; Long.MIN_VALUE (no time) for a dead letter. */
    public long eventTime() {
        return document != null ? document.eventTime : Long.MIN_VALUE;
    }
}
