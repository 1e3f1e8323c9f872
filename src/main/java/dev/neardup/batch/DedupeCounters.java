package dev.neardup.batch;

import java.util.function.ToLongFunction;
import org.apache.flink.api.common.accumulators.Accumulator;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.metrics.Counter;

/**
 * The dedupe job's counters. Each is a Flink accumulator (what {@link DedupeJob.Result} reports at
 * the end, on a cluster too) that also counts in a metric of its operator, of the same name, which
 * is live while the job runs: from those, {@link #snapshot} tells the progress display which stage
 * the job is in and how many records it has passed.
 */
public final class DedupeCounters {

    private DedupeCounters() {}

    /**
     * The counter {@code name} of this task, added on first use (operators share names). Its stage
     * counts as started from now on ({@link #snapshot}).
     */
    static LongCounter counter(RuntimeContext context, String name) {
        Accumulator<?, ?> existing = context.getAccumulator(name);
        if (existing != null) {
            return (LongCounter) existing;
        }
        LongCounter counter = new Mirrored(context.getMetricGroup().counter(name));
        context.addAccumulator(name, counter);
        return counter;
    }

    /** A stage of the job as the progress display names it, in the order the job runs them. */
    public enum Stage {
        STARTING("starting"),
        READING("reading and sketching"),
        VERSIONS("latest versions"),
        BUCKETS("band buckets"),
        COMPONENTS("connected components"),
        CLUSTERS("clusters"),
        ;

        private final String label;

        Stage(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * What the job has done so far.
     *
     * @param stage the furthest stage whose tasks have started
     * @param round the furthest component round started (0-based), or -1
     */
    public record Snapshot(
            Stage stage,
            long documents,
            long bandEntries,
            long comparisons,
            long pairs,
            int round,
            long clustered) {

        /** The count that grows in this stage: what the rate of a progress report is over. */
        public long stageRecords() {
            return switch (stage) {
                case STARTING -> 0;
                case READING, VERSIONS -> documents;
                case BUCKETS -> bandEntries;
                case COMPONENTS -> pairs;
                case CLUSTERS -> clustered;
            };
        }
    }

    /**
     * The counts of a running job, from its metrics: {@code count} gives the sum of the metrics of
     * a name, -1 when no task registered one yet.
     */
    public static Snapshot snapshot(ToLongFunction<String> count) {
        int round = -1;
        while (count.applyAsLong(DedupeJob.unstable(round + 1)) >= 0) {
            round++;
        }
        Stage stage = Stage.STARTING;
        if (count.applyAsLong(DedupeJob.CLUSTERS) >= 0) {
            stage = Stage.CLUSTERS;
        } else if (round >= 0) {
            stage = Stage.COMPONENTS;
        } else if (count.applyAsLong(DedupeJob.BAND_ENTRIES) >= 0) {
            stage = Stage.BUCKETS;
        } else if (count.applyAsLong(DedupeJob.SUPERSEDED) >= 0) {
            stage = Stage.VERSIONS;
        } else if (count.applyAsLong(DedupeJob.DOCUMENTS) >= 0) {
            stage = Stage.READING;
        }
        return new Snapshot(
                stage,
                Math.max(0, count.applyAsLong(DedupeJob.DOCUMENTS)),
                Math.max(0, count.applyAsLong(DedupeJob.BAND_ENTRIES)),
                Math.max(0, count.applyAsLong(DedupeJob.COMPARISONS)),
                Math.max(0, count.applyAsLong(DedupeJob.PAIRS)),
                round,
                Math.max(0, count.applyAsLong(DedupeJob.CLUSTERED)));
    }

    /**
     * An accumulator that also counts in a metric. Its copies (the snapshots Flink sends to the
     * JobManager, merged there with the other tasks') are of this class too, as Flink requires, and
     * count in no metric.
     */
    private static final class Mirrored extends LongCounter {
        private static final long serialVersionUID = 1L;
        private final transient Counter metric;

        Mirrored(Counter metric) {
            this.metric = metric;
        }

        @Override
        public void add(long value) {
            super.add(value);
            if (metric != null) {
                metric.inc(value);
            }
        }

        @Override
        public LongCounter clone() {
            Mirrored copy = new Mirrored(null);
            copy.merge(this);
            return copy;
        }

        @Override
        public void add(Long value) {
            add(value.longValue());
        }
    }
}
