package dev.neardup.pipeline;

import dev.neardup.io.Json;
import dev.neardup.io.Verdict;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Assembles exactly one {@link Verdict} per valid document (keyed by the input record): it waits
 * until all b bands have reported ({@link VerdictEvent#BAND_DONE}, each with its number of
 * candidates) and every candidate has been verified ({@link VerdictEvent#RESULT}), then emits
 * UNIQUE or DUPLICATE. Deterministic: no timers, no guessing.
 */
public class VerdictFunction extends KeyedProcessFunction<String, VerdictEvent, Verdict> {

    private static final long serialVersionUID = 1L;

    private final int bands;

    /**
     * The verdict being assembled. Lives from the document's first band or result message until its
     * verdict is emitted, which happens as soon as all its messages are in (milliseconds in a
     * healthy job); then cleared.
     */
    private transient ValueState<PendingVerdict> pending;

    private transient Counter unique;
    private transient Counter duplicates;

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
            if (e.match) {
                p.addMatch(e.matchId, e.matchUrl, e.similarity, e.matchEventTime);
            }
        }
        if (p.bandsDone == bands && p.receivedResults == p.expectedResults) {
            pending.clear();
            out.collect(toVerdict(p, ctx.timerService().currentProcessingTime()));
        } else {
            pending.update(p);
        }
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
