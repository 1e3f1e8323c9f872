package dev.neardup.batch;

import dev.neardup.io.ClusterAssignment;
import dev.neardup.io.EncodedLine;
import dev.neardup.io.JsonLinesSink;

/**
 * A document's line of the clusters output (and of the keep output when it is kept), encoded in the
 * step that assigned its cluster, so that the one writer of a local output only copies bytes.
 *
 * @param line the line {@link JsonLinesSink} writes for the {@link ClusterAssignment}
 * @param keep the assignment's {@link ClusterAssignment#keep}
 */
public record ClusterLine(byte[] line, boolean keep) implements EncodedLine {

    /** The line of {@code a}. */
    public static ClusterLine of(ClusterAssignment a) {
        return new ClusterLine(JsonLinesSink.line(a), a.keep);
    }
}
