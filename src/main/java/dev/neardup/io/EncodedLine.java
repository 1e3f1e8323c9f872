package dev.neardup.io;

/**
 * A record whose JSON Lines line was encoded before it reached its {@link JsonLinesSink}: the sink
 * writes {@link #line} as it is. Encoding in the steps that make the records spreads the JSON work
 * over their subtasks instead of the one subtask of the sink. The bytes must be what {@link
 * JsonLinesSink#line} gives for the record.
 */
public interface EncodedLine {

    /** The line's bytes, UTF-8, with its line feed. */
    byte[] line();
}
