package dev.neardup.runtime;

import dev.neardup.io.JsonLinesSink;
import dev.neardup.io.SourceCounters;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * The counts of a job run on this machine's embedded Flink, read from the job's metrics through an
 * in-process metric reporter that {@link #configure} adds: live while the job runs, and kept after
 * it ended or was cancelled; each run has its own; and the latency histograms' latest values
 * ({@link #percentiles}). Design: docs/design/local-runs.md.
 */
public final class JobCounts {

    /** The name of the reporter in the configuration: {@code metrics.reporter.NAME.*}. */
    static final String REPORTER = "neardup-counts";

    private static final String RUN = "run";
    private static final String OPERATOR = "<operator_name>";
    private static final Map<String, WeakReference<JobCounts>> RUNS = new ConcurrentHashMap<>();

    /** Documents sketched: the signature operator's {@code documentsIn}. */
    public static final String DOCUMENTS = "documentsIn";

    /** Blank lines the input's readers skipped. */
    public static final String BLANK_LINES = SourceCounters.BLANK_LINES;

    private final String id = UUID.randomUUID().toString();
    private volatile Reporter reporter = new Reporter();

    /** Makes the jobs started with {@code conf} report their metrics to this. */
    public JobCounts configure(Configuration conf) {
        RUNS.values().removeIf(r -> r.get() == null);
        RUNS.put(id, new WeakReference<>(this));
        conf.setString("metrics.reporter." + REPORTER + ".factory.class", Factory.class.getName());
        conf.setString("metrics.reporter." + REPORTER + "." + RUN, id);
        return this;
    }

    /** The sum of the counters {@code name} of all operators; 0 when none registered it. */
    public long count(String name) {
        return Math.max(0, reporter.sum(name, null, null));
    }

    /** The sum of the counters {@code name}, or -1 when no operator registered one yet. */
    public long countOrAbsent(String name) {
        return reporter.sum(name, null, null);
    }

    /**
     * The counters {@code name} of all operators, summed by the value of their metric group
     * variable {@code key} (a group added with {@code addGroup(key, value)}), in key order.
     */
    public Map<String, Long> countBy(String name, String key) {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (Entry e : reporter.entries) {
            String value = e.variables.get("<" + key + ">");
            if (value != null && e.is(name, null, null) && e.value() instanceof Long n) {
                out.merge(value, n, Long::sum);
            }
        }
        return out;
    }

    /** Records written by the sink named {@code sink} (its {@code numRecordsSend}). */
    public long written(String sink) {
        return Math.max(0, reporter.sum("numRecordsSend", sink, null));
    }

    /** Records of {@code category} written by the JSON Lines sink named {@code sink}. */
    public long written(String sink, Object category) {
        return Math.max(
                0, reporter.sum(JsonLinesSink.RECORDS_WRITTEN, sink, String.valueOf(category)));
    }

    /** The first records written by the JSON Lines sink named {@code sink}, of {@code type}. */
    public <R> List<R> first(String sink, Class<R> type) {
        return reporter.entries.stream()
                .filter(e -> e.is(JsonLinesSink.FIRST_RECORDS, sink, null))
                .flatMap(e -> e.value() instanceof List<?> l ? l.stream() : Stream.of())
                .filter(type::isInstance)
                .map(type::cast)
                .limit(JsonLinesSink.FIRST)
                .toList();
    }

    /**
     * The median and 99th percentile of the latency histograms {@code name} of all subtasks (each
     * over its latest values), in ms; null when none has a value yet.
     */
    public long[] percentiles(String name) {
        long[] all = new long[0];
        for (Entry e : reporter.entries) {
            if (e.is(name, null, null) && e.value() instanceof long[] values) {
                long[] merged = java.util.Arrays.copyOf(all, all.length + values.length);
                System.arraycopy(values, 0, merged, all.length, values.length);
                all = merged;
            }
        }
        if (all.length == 0) {
            return null;
        }
        java.util.Arrays.sort(all);
        return new long[] {at(all, 0.50), at(all, 0.99)};
    }

    private static long at(long[] sorted, double q) {
        return sorted[
                Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1))];
    }

    /** One metric of an operator: live while registered, its last value after. */
    private static final class Entry {
        final String name;
        final String operator;
        final String category;
        final Map<String, String> variables;
        volatile Metric metric;
        volatile Object last;

        Entry(String name, MetricGroup group, Metric metric) {
            this.name = name;
            Map<String, String> variables = group.getAllVariables();
            this.operator = variables.get(OPERATOR);
            this.category = variables.get("<" + JsonLinesSink.CATEGORY + ">");
            this.variables = Map.copyOf(variables);
            this.metric = metric;
        }

        /** Whether this is {@code name} of the operator {@code sink} (or its "NAME: Writer"). */
        boolean is(String name, String sink, String category) {
            return this.name.equals(name)
                    && (sink == null
                            || sink.equals(operator)
                            || (operator != null && operator.startsWith(sink + ":")))
                    && (category == null || category.equals(this.category));
        }

        Object value() {
            Metric m = metric;
            return m == null ? last : read(m);
        }

        void freeze() {
            Metric m = metric;
            if (m != null) {
                last = read(m);
                metric = null;
            }
        }

        private static Object read(Metric m) {
            if (m instanceof Histogram h) {
                return h.getStatistics().getValues();
            }
            return m instanceof Counter c ? (Object) c.getCount() : ((Gauge<?>) m).getValue();
        }
    }

    /** Keeps the counters (and the first-records gauges) of one cluster's operators. */
    static final class Reporter implements MetricReporter {
        final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();

        @Override
        public void open(MetricConfig config) {
            WeakReference<JobCounts> run = RUNS.get(config.getString(RUN, ""));
            JobCounts counts = run == null ? null : run.get();
            if (counts != null) {
                counts.reporter = this;
            }
        }

        @Override
        public void close() {}

        @Override
        public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
            if ((metric instanceof Counter
                            || name.equals(JsonLinesSink.FIRST_RECORDS)
                            || (metric instanceof Histogram && name.endsWith("Latency")))
                    && group.getAllVariables().containsKey(OPERATOR)) {
                entries.add(new Entry(name, group, metric));
            }
        }

        @Override
        public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
            entries.stream().filter(e -> e.metric == metric).forEach(Entry::freeze);
        }

        /** The sum of the matching counters, or -1 when there is none. */
        long sum(String name, String sink, String category) {
            long sum = -1;
            for (Entry e : entries) {
                if (e.is(name, sink, category) && e.value() instanceof Long n) {
                    sum = Math.max(sum, 0) + n;
                }
            }
            return sum;
        }
    }

    /** Creates the reporter; Flink finds it through {@code META-INF/services}. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new Reporter();
        }
    }
}
