package dev.neardup.io;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The source's counters of input records that are no documents, one per reason: the metric {@link
 * WarcDocuments#SKIPPED} in the group {@link WarcDocuments#REASON}, registered when a reason is
 * first seen. The WARC readers of files and of Kafka messages count with it.
 */
final class SkippedRecords implements Consumer<String> {

    private final MetricGroup source;
    private final Map<String, Counter> counters = new HashMap<>();

    /** Counters in {@code source}; none (skips are not counted) when it is null. */
    SkippedRecords(MetricGroup source) {
        this.source = source;
    }

    /** Counts one record skipped for {@code reason}. */
    @Override
    public void accept(String reason) {
        if (source != null) {
            counters.computeIfAbsent(
                            reason,
                            r -> source.addGroup(WarcDocuments.REASON, r).counter("recordsSkipped"))
                    .inc();
        }
    }
}
