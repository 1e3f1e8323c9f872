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
 * announcement of the document (one per input record) and what its band buckets found, and emits
 * the verdict, one per input record, when the event-time watermark passes the document's event
 * time: by then every document that is earlier in the order (event time, id) has been read and
 * compared with it, whichever partition or split it came from (see {@link DocumentWatermarks}). So
 * the verdict is final and does not depend on arrival order.
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
     * The verdict being assembled. Lives from the document's first message until the watermark
     * passes its event time (the out-of-orderness bound in Kafka mode; the end of the input for
     * files), then cleared together with its event-time timer.
     */
    private transient ValueState<PendingVerdict> pending;

    private transient Counter unique;
    private transient Counter duplicates;
    private transient Counter alerts;
    private transient Counter orphans;

    public VerdictFunction(NearDupSettings settings) {}

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
            ctx.timerService().registerEventTimeTimer(e.eventTime);
        }
        if (e.kind == VerdictEvent.ANNOUNCE) {
            p.records++;
            p.url = e.url;
        } else {
            p.candidates += e.candidates;
            long now = ctx.timerService().currentProcessingTime();
            MatchList m = e.matches;
            for (int i = 0; i < m.size(); i++) {
                if (p.addMatch(m.ids[i], m.urls[i], m.similarities[i], m.eventTimes[i])) {
                    alerts.inc();
                    ctx.output(ALERTS, alert(e, i, now));
                }
            }
        }
        pending.update(p);
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
            // Matches for a document that was never announced: impossible while watermarks hold
            // (the announcement precedes the watermark that passes the document). Counted.
            orphans.inc();
            LOG.warn("matches for {} at {} without its document; dropped", p.docId, p.eventTime);
            return;
        }
        long now = ctx.timerService().currentProcessingTime();
        for (int i = 0; i < p.records; i++) {
            out.collect(toVerdict(p, now));
        }
    }

    private static Alert alert(VerdictEvent e, int i, long now) {
        Alert a = new Alert();
        a.docId = e.docId;
        a.url = e.url;
        a.duplicateOf = e.matches.ids[i];
        a.duplicateUrl = e.matches.urls[i];
        a.similarity = e.matches.similarities[i];
        a.band = e.band;
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
