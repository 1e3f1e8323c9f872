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

/**
 * Assembles exactly one {@link Verdict} per valid document (keyed by the input record): it waits
 * until all b bands have reported ({@link VerdictEvent#BAND_DONE}, each with its number of
 * candidates) and every candidate has been verified ({@link VerdictEvent#RESULT}), then emits
 * UNIQUE or DUPLICATE. Deterministic: no timers, no guessing.
 *
 * <p>It also emits the {@link #ALERTS}: one per matched document, as soon as the first result
 * confirming the match arrives, whichever band it came from (a pair can collide in several bands,
 * and the lowest one may have evicted the member by capacity or age).
 */
public class VerdictFunction extends KeyedProcessFunction<String, VerdictEvent, Verdict> {

    private static final long serialVersionUID = 1L;

    /** Side output: near-duplicate alerts, one per (document record, matched document). */
    public static final OutputTag<Alert> ALERTS =
            new OutputTag<>("alerts", TypeInformation.of(Alert.class));

    private final int bands;

    /**
     * The verdict being assembled. Lives from the document's first band or result message until its
     * verdict is emitted, which happens as soon as all its messages are in (milliseconds in a
     * healthy job); then cleared.
     */
    private transient ValueState<PendingVerdict> pending;

    private transient Counter unique;
    private transient Counter duplicates;
    private transient Counter alerts;

    public VerdictFunction(NearDupSettings settings) {
        this.bands = settings.bands();
    }

    @Override
    public void open(OpenContext openContext) {
        pending =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "pending-verdict", PendingVerdict.class));
        unique = getRuntimeContext().getMetricGroup().counter("uniqueDocuments");
        duplicates = getRuntimeContext().getMetricGroup().counter("duplicateDocuments");
        alerts = getRuntimeContext().getMetricGroup().counter("alerts");
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
        }
        if (e.kind == VerdictEvent.BAND_DONE) {
            p.bandsDone++;
            p.expectedResults += e.candidates;
        } else {
            p.receivedResults++;
            if (e.match && p.addMatch(e.matchId, e.matchUrl, e.similarity, e.matchEventTime)) {
                alerts.inc();
                ctx.output(ALERTS, alert(e, ctx.timerService().currentProcessingTime()));
            }
        }
        if (p.bandsDone == bands && p.receivedResults == p.expectedResults) {
            pending.clear();
            out.collect(toVerdict(p, ctx.timerService().currentProcessingTime()));
        } else {
            pending.update(p);
        }
    }

    private static Alert alert(VerdictEvent e, long now) {
        Alert a = new Alert();
        a.docId = e.docId;
        a.url = e.url;
        a.duplicateOf = e.matchId;
        a.duplicateUrl = e.matchUrl;
        a.similarity = e.similarity;
        a.band = e.commonBand >= 0 ? e.commonBand : e.band;
        a.eventTime = Json.isoTime(e.eventTime);
        a.detectedAt = Json.isoTime(now);
        return a;
    }

    private Verdict toVerdict(PendingVerdict p, long now) {
        Verdict v = new Verdict();
        v.docId = p.docId;
        v.url = p.url;
        v.candidates = p.expectedResults;
        v.eventTime = Json.isoTime(p.eventTime);
        v.detectedAt = Json.isoTime(now);
        int n = p.matchIds.length;
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
                Comparator.<Integer>comparingDouble(i -> -p.similarities[i])
                        .thenComparing(i -> p.matchIds[i]));
        for (int i : order) {
            v.matches.add(
                    new Verdict.Match(
                            p.matchIds[i],
                            p.matchUrls[i],
                            p.similarities[i],
                            Json.isoTime(p.matchEventTimes[i])));
        }
        int earliest = 0;
        for (int i = 1; i < n; i++) {
            if (p.matchEventTimes[i] < p.matchEventTimes[earliest]
                    || (p.matchEventTimes[i] == p.matchEventTimes[earliest]
                            && p.matchIds[i].compareTo(p.matchIds[earliest]) < 0)) {
                earliest = i;
            }
        }
        v.duplicateOf = p.matchIds[earliest];
        v.duplicateUrl = p.matchUrls[earliest];
        v.similarity = p.similarities[earliest];
        return v;
    }
}
