package dev.neardup.batch;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.accumulators.Accumulator;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.RuntimeContext;

/**
 * The dedupe job's counters. Each is a Flink accumulator (what {@link DedupeJob.Result} reports at
 * the end, on a cluster too) that is also summed, while the job runs, in this JVM: when the job
 * runs on the embedded MiniCluster, that is the client's JVM, and {@link #snapshot()} tells the
 * progress display which stage the job is in and how many records it has passed. On a cluster the
 * JVM-wide sums live in the TaskManagers and the client sees none (the Flink web UI shows the job's
 * progress there).
 */
public final class DedupeCounters {

    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    private DedupeCounters() {}

    /**
     * The counter {@code name} of this task, added on first use (operators share names). Its stage
     * counts as started from now on ({@link #snapshot()}).
     */
    static LongCounter counter(RuntimeContext context, String name) {
        Accumulator<?, ?> existing = context.getAccumulator(name);
        if (existing != null) {
            return (LongCounter) existing;
        }
        LongCounter counter = new Mirrored(COUNTS.computeIfAbsent(name, k -> new AtomicLong()));
        context.addAccumulator(name, counter);
        return counter;
    }

    /** Forgets the counts of an earlier run in this JVM. */
    public static void reset() {
        COUNTS.clear();
    }

    /** The JVM-wide count {@code name}, or -1 when no task registered it yet. */
    static long count(String name) {
        AtomicLong c = COUNTS.get(name);
        return c == null ? -1 : c.get();
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
     * What the job has done so far in this JVM.
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

    /** The counts of the job running in this JVM. */
    public static Snapshot snapshot() {
        int round = -1;
        while (COUNTS.containsKey(DedupeJob.unstable(round + 1))) {
            round++;
        }
        Stage stage = Stage.STARTING;
        if (count(DedupeJob.CLUSTERS) >= 0) {
            stage = Stage.CLUSTERS;
        } else if (round >= 0) {
            stage = Stage.COMPONENTS;
        } else if (count(DedupeJob.BAND_ENTRIES) >= 0) {
            stage = Stage.BUCKETS;
        } else if (count(DedupeJob.SUPERSEDED) >= 0) {
            stage = Stage.VERSIONS;
        } else if (count(DedupeJob.DOCUMENTS) >= 0) {
            stage = Stage.READING;
        }
        return new Snapshot(
                stage,
                Math.max(0, count(DedupeJob.DOCUMENTS)),
                Math.max(0, count(DedupeJob.BAND_ENTRIES)),
                Math.max(0, count(DedupeJob.COMPARISONS)),
                Math.max(0, count(DedupeJob.PAIRS)),
                round,
                Math.max(0, count(DedupeJob.CLUSTERED)));
    }

    /**
     * An accumulator that also adds to a JVM-wide sum. Its copies (the snapshots Flink sends to the
     * JobManager, merged there with the other tasks') are of this class too, as Flink requires, and
     * add to no sum.
     */
    private static final class Mirrored extends LongCounter {
        private static final long serialVersionUID = 1L;
        private final transient AtomicLong sum;

        Mirrored(AtomicLong sum) {
            this.sum = sum;
        }

        @Override
        public void add(long value) {
            super.add(value);
            if (sum != null) {
                sum.addAndGet(value);
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
