package dev.neardup.io;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;

/**
 * The counters of one source subtask that its file readers share: each is registered once in the
 * source's metric group, however many files, formats and readers (after a restore) count in it. A
 * metric group keeps the first metric of a name and drops the next, so a reader that registered its
 * own would lose its counts when a second file is read.
 */
public final class SourceCounters {

    /** The counter of blank lines skipped (JSON Lines). */
    public static final String BLANK_LINES = "blankLinesSkipped";

    /** The counters of records skipped, one per reason (WARC, WET and ARC). */
    public static final String SKIPPED = "recordsSkipped";

    /** The name of the metric group variable that holds a skip's reason. */
    public static final String REASON = "reason";

    /** Counters that count nowhere (outside a job). */
    public static final SourceCounters NONE = new SourceCounters(null);

    private final MetricGroup source;
    private Counter blankLines;
    private final Map<String, Counter> skipped = new HashMap<>();

    /** Counters registered in {@code source}; none when it is null. */
    public SourceCounters(MetricGroup source) {
        this.source = source;
    }

    /** The counter of blank lines skipped. */
    public synchronized Counter blankLines() {
        if (blankLines == null) {
            blankLines = source == null ? new SimpleCounter() : source.counter("blankLinesSkipped");
        }
        return blankLines;
    }

    /** The counter of records skipped for {@code reason}. */
    public synchronized Counter skipped(String reason) {
        return skipped.computeIfAbsent(
                reason,
                r ->
                        source == null
                                ? new SimpleCounter()
                                : source.addGroup(REASON, r).counter("recordsSkipped"));
    }
}
