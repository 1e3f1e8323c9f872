package dev.neardup.pipeline;

import dev.neardup.io.Alert;
import dev.neardup.io.Json;
import dev.neardup.io.Verdict;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Assembles the verdicts (keyed by document version: id and event time). It collects the
 * announcement of the document (one per input record) and the report of each of its band buckets,
 * and emits the verdict, one per input record, as soon as all of them have reported. A bucket takes
 * a document in when the event-time watermark passes it, in the order (event time, id), after every
 * earlier document (see {@link BandBucketOperator}), so its report is final; the verdict is final
 * and does not depend on arrival order. Counting reports, rather than waiting for the watermark
 * here too, matters: the announcement and the reports travel different paths, and a path that was
 * idle does not hold the watermark back when it resumes.
 *
 * <p>It also emits the {@link #ALERTS}: one per matched pair, as soon as the first bucket reports
 * it (a pair can collide in several bands), always from the later document to the earlier one.
 */
public class VerdictFunction extends KeyedProcessFunction<String, VerdictEvent, Verdict> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(VerdictFunction.class);

    /** Side output: near-duplicate alerts, one per (document version, matched document). */
    public static final OutputTag<Alert> ALERTS =
            new OutputTag<>("alerts", TypeInformation.of(Alert.class));

    /**
     * The verdict being assembled. Lives from the document's first message until its buckets have
     * all reported (the watermark passing it in the buckets: the out-of-orderness bound in Kafka
     * mode, the end of the input for files), then cleared together with its sweep timer.
     */
    private transient ValueState<PendingVerdict> pending;

    private transient Counter unique;
    private transient Counter duplicates;
    private transient Counter alerts;
    private transient Counter orphans;
    private transient Counter incomplete;

    private final int bands;
    private final long retentionMillis;

    public VerdictFunction(NearDupSettings settings) {
        this.bands = settings.bands();
        this.retentionMillis = settings.retentionMillis();
    }

    @Override
    public void open(OpenContext openContext) {
        pending =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "pending-verdict", PendingVerdict.class));
        var metrics = getRuntimeContext().getMetricGroup();
        unique = metrics.counter("uniqueDocuments");
        duplicates = metrics.counter("duplicateDocuments");
        alerts = metrics.counter("alerts");
        orphans = metrics.counter("orphanMatches");
        incomplete = metrics.counter("incompleteVerdicts");
    }

    @Override
    public void processElement(VerdictEvent e, Context ctx, Collector<Verdict> out)
            throws Exception {
        PendingVerdict p = pending.value();
        if (p == null) {
            p = new PendingVerdict();
            p.docId = e.docId;
            p.url = e.url;
            p.eventTime = e.eventTime;
            p.reports = 0;
            ctx.timerService().registerEventTimeTimer(sweepTime(e.eventTime));
        }
        if (e.kind == VerdictEvent.ANNOUNCE) {
            p.records++;
            p.addSource(e.source);
            p.url = e.url;
        } else {
            p.candidates += e.candidates;
            if (p.reports >= 0) {
                p.reports += e.reports;
            }
            long now = ctx.timerService().currentProcessingTime();
            MatchList m = e.matches;
            for (int i = 0; i < m.size(); i++) {
                if (p.addMatch(m.ids[i], m.urls[i], m.similarities[i], m.eventTimes[i])) {
                    alerts.inc();
                    ctx.output(ALERTS, alert(e, i, now));
                }
            }
        }
        if (p.records > 0 && p.reports >= (long) p.records * bands) {
            // Every bucket of every record has reported: the verdict is final.
            ctx.timerService().deleteEventTimeTimer(sweepTime(p.eventTime));
            pending.clear();
            emit(p, ctx.timerService().currentProcessingTime(), out);
            return;
        }
        pending.update(p);
    }

    /**
     * When a verdict still waiting is swept: the retention after its event time. A verdict waits
     * that long only if reports were lost, which the design rules out; the sweep keeps state
     * bounded anyway.
     */
    private long sweepTime(long eventTime) {
        return eventTime > Long.MAX_VALUE - retentionMillis
                ? Long.MAX_VALUE
                : eventTime + retentionMillis;
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Verdict> out)
            throws Exception {
        PendingVerdict p = pending.value();
        pending.clear();
        if (p == null) {
            return;
        }
        if (p.records == 0) {
            // Matches for a document that was never announced, or reported after its verdict
            // (an earlier document that arrived late, behind the watermark). Counted.
            orphans.inc();
            LOG.warn("matches for {} at {} without its document; dropped", p.docId, p.eventTime);
            return;
        }
        if (p.reports >= 0) {
            incomplete.inc();
            LOG.warn(
                    "verdict for {} at {} made with {} of {} bucket reports",
                    p.docId,
                    p.eventTime,
                    p.reports,
                    (long) p.records * bands);
        }
        // p.reports < 0: restored from state layout 2 before reports were counted, with its
        // timer at the document's event time, when the verdict was final then.
        emit(p, ctx.timerService().currentProcessingTime(), out);
    }

    private void emit(PendingVerdict p, long now, Collector<Verdict> out) {
        for (int i = 0; i < p.records; i++) {
            Verdict v = toVerdict(p, now);
            v.source = p.source(i); // tells repeated records of one version apart
            out.collect(v);
        }
    }

    private static Alert alert(VerdictEvent e, int i, long now) {
        Alert a = new Alert();
        a.docId = e.docId;
        a.url = e.url;
        a.duplicateOf = e.matches.ids[i];
        a.duplicateUrl = e.matches.urls[i];
        a.similarity = e.matches.similarities[i];
        a.band = e.matchBand(i);
        a.eventTime = Json.isoTime(e.eventTime);
        a.detectedAt = Json.isoTime(now);
        return a;
    }

    private Verdict toVerdict(PendingVerdict p, long now) {
        Verdict v = new Verdict();
        v.docId = p.docId;
        v.url = p.url;
        v.candidates = p.candidates;
        v.eventTime = Json.isoTime(p.eventTime);
        v.detectedAt = Json.isoTime(now);
        MatchList m = p.matches;
        int n = m.size();
        if (n == 0) {
            v.verdict = Verdict.UNIQUE;
            unique.inc();
            return v;
        }
        duplicates.inc();
        v.verdict = Verdict.DUPLICATE;
        Integer[] order = new Integer[n];
        Arrays.setAll(order, i -> i);
        Arrays.sort(
                order,
                Comparator.<Integer>comparingDouble(i -> -m.similarities[i])
                        .thenComparing(i -> m.ids[i]));
        v.matches = new Verdict.Match[n];
        for (int k = 0; k < n; k++) {
            int i = order[k];
            v.matches[k] =
                    new Verdict.Match(
                            m.ids[i], m.urls[i], m.similarities[i], Json.isoTime(m.eventTimes[i]));
        }
        int earliest = 0;
        for (int i = 1; i < n; i++) {
            if (m.eventTimes[i] < m.eventTimes[earliest]
                    || (m.eventTimes[i] == m.eventTimes[earliest]
                            && m.ids[i].compareTo(m.ids[earliest]) < 0)) {
                earliest = i;
            }
        }
        v.duplicateOf = m.ids[earliest];
        v.duplicateUrl = m.urls[earliest];
        v.similarity = m.similarities[earliest];
        return v;
    }
}
