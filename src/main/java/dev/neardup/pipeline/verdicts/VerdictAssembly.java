package dev.neardup.pipeline.verdicts;

import static dev.neardup.pipeline.verdicts.VerdictOperator.ALERTS;

import dev.neardup.io.Alert;
import dev.neardup.io.Json;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.MatchList;
import dev.neardup.pipeline.PendingVerdict;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.similarity.Estimate;
import dev.neardup.similarity.Verification;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the {@link VerdictOperator} emits: an alert per matched pair as its first bucket reports it
 * (or, early, as a bucket finds it with a settled member when the document arrives), the verdicts
 * of a document once its buckets have all reported (one per input record, with the cluster merges
 * it makes), the DELETED verdicts of a deletion, and what a verdict swept at the retention still
 * gets. No Flink state: the operator decides when, this class what.
 */
final class VerdictAssembly {

    /** Logged under the operator's name, as before the split. */
    private static final Logger LOG = LoggerFactory.getLogger(VerdictOperator.class);

    private final int bands;

    /** The family's verification: the Hamming distance behind a cosine estimate. */
    private final Verification verification;

    private final Output<StreamRecord<Verdict>> output;
    private final ProcessingTimeService time;

    private final Counter unique;
    private final Counter duplicates;
    private final Counter alerts;
    private final Counter earlyAlerts;
    private final Counter orphans;
    private final Counter incomplete;
    private final Counter deleted;
    private final Counter clusterMerges;

    /** Event time to emission, ms: early alerts, the other alerts, the verdicts of documents. */
    private final Histogram earlyAlertLatency;

    private final Histogram alertLatency;
    private final Histogram verdictLatency;

    VerdictAssembly(
            int bands,
            Verification verification,
            Output<StreamRecord<Verdict>> output,
            ProcessingTimeService time,
            MetricGroup metrics) {
        this.bands = bands;
        this.verification = verification;
        this.output = output;
        this.time = time;
        unique = metrics.counter("uniqueDocuments");
        duplicates = metrics.counter("duplicateDocuments");
        alerts = metrics.counter("alerts");
        earlyAlerts = metrics.counter("earlyAlerts");
        orphans = metrics.counter("orphanMatches");
        incomplete = metrics.counter("incompleteVerdicts");
        deleted = metrics.counter("deletedDocuments");
        clusterMerges = metrics.counter("clusterMerges");
        earlyAlertLatency = metrics.histogram("earlyAlertLatency", latencyWindow());
        alertLatency = metrics.histogram("alertLatency", latencyWindow());
        verdictLatency = metrics.histogram("verdictLatency", latencyWindow());
    }

    /** A histogram of event time to emission, in ms, over the latest 4096 emissions. */
    private static Histogram latencyWindow() {
        return new DescriptiveStatisticsHistogram(4096);
    }

    /**
     * Adds a report's matches to {@code p}: an alert for each pair not alerted before (early or
     * reported). An {@link VerdictEvent#EARLY} event's matches are alerted (marked early) and noted
     * apart, so that the verdict is made from the reports alone.
     */
    void addMatches(PendingVerdict p, VerdictEvent e) {
        long now = time.getCurrentProcessingTime();
        MatchList m = e.matches;
        boolean early = e.kind == VerdictEvent.EARLY;
        for (int i = 0; i < m.size(); i++) {
            if (early) {
                if (p.alertEarly(m.ids[i])) {
                    earlyAlerts.inc();
                    emitAlert(e, i, now, true);
                }
            } else if (p.addMatch(m, i) && !p.wasAlertedEarly(m.ids[i])) {
                emitAlert(e, i, now, false);
            }
        }
    }

    private void emitAlert(VerdictEvent e, int i, long now, boolean early) {
        alerts.inc();
        (early ? earlyAlertLatency : alertLatency).update(Math.max(0, now - e.eventTime));
        Alert a = alert(e, i, now);
        a.early = early;
        output.collect(ALERTS, new StreamRecord<>(a, e.eventTime));
    }

    /** A verdict whose time ran out: emitted with what it has, or counted as an orphan. */
    void sweep(PendingVerdict p) {
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
        emit(p);
    }

    /**
     * The verdicts of {@code p}, one per record: with the cluster merges it makes, or, the
     * watermark having passed a deletion, its DELETED verdicts.
     */
    void emit(PendingVerdict p) {
        long now = time.getCurrentProcessingTime();
        if (!p.isDeletion()) {
            emitClusterMerges(p, now);
            verdictLatency.update(Math.max(0, now - p.eventTime));
        }
        for (int i = 0; i < p.records; i++) {
            Verdict v = new Verdict();
            v.docId = p.docId;
            v.url = p.url;
            v.source = p.source(i); // tells repeated records of one version apart
            v.eventTime = Json.isoTime(p.eventTime);
            v.detectedAt = Json.isoTime(now);
            if (p.isDeletion()) {
                v.verdict = Verdict.DELETED;
                deleted.inc();
            } else {
                decide(v, p);
            }
            output.collect(new StreamRecord<>(v, p.eventTime));
        }
    }

    /** The match whose cluster is the earliest (first document's time, then id); -1 without. */
    private static int survivingCluster(MatchList m) {
        int earliest = -1;
        for (int i = 0; i < m.size(); i++) {
            if (earliest < 0 || isBefore(m, i, earliest)) {
                earliest = i;
            }
        }
        return earliest;
    }

    /** Whether match {@code i}'s cluster comes before match {@code j}'s (time, then id). */
    private static boolean isBefore(MatchList m, int i, int j) {
        int c = Long.compare(m.clusterTime(i), m.clusterTime(j));
        return c < 0 || c == 0 && m.clusterId(i).compareTo(m.clusterId(j)) < 0;
    }

    /**
     * When a document's matches belong to several clusters (as their buckets know them), it joins
     * them: one cluster-merged event per cluster other than the earliest, on the alerts output.
     */
    private void emitClusterMerges(PendingVerdict p, long now) {
        MatchList m = p.matches;
        int surviving = survivingCluster(m);
        if (surviving < 0) {
            return;
        }
        String into = m.clusterId(surviving);
        java.util.Set<String> merged = new java.util.HashSet<>();
        for (int i = 0; i < m.size(); i++) {
            String from = m.clusterId(i);
            if (from.equals(into) || !merged.add(from)) {
                continue;
            }
            Alert a = new Alert();
            a.event = Alert.CLUSTER_MERGED;
            a.docId = p.docId;
            a.url = p.url;
            a.clusterId = into;
            a.clusterEventTime = Json.isoTime(m.clusterTime(surviving));
            a.mergedClusterId = from;
            a.mergedClusterEventTime = Json.isoTime(m.clusterTime(i));
            a.eventTime = Json.isoTime(p.eventTime);
            a.detectedAt = Json.isoTime(now);
            clusterMerges.inc();
            output.collect(ALERTS, new StreamRecord<>(a, p.eventTime));
        }
    }

    private Alert alert(VerdictEvent e, int i, long now) {
        Alert a = new Alert();
        a.docId = e.docId;
        a.url = e.url;
        a.duplicateOf = e.matches.ids[i];
        a.duplicateUrl = e.matches.urls[i];
        Estimate estimate = e.matches.estimate(i);
        a.similarity = estimate.similarity();
        a.hamming = verification.hamming(estimate.similarity());
        a.direction = estimate.label();
        a.band = e.matchBand(i);
        a.eventTime = Json.isoTime(e.eventTime);
        a.detectedAt = Json.isoTime(now);
        return a;
    }

    /** Fills in the verdict of a document from its matches. */
    private void decide(Verdict v, PendingVerdict p) {
        v.candidates = p.candidates;
        MatchList m = p.matches;
        int n = m.size();
        if (n == 0) {
            v.verdict = Verdict.UNIQUE;
            v.clusterId = p.docId;
            unique.inc();
            return;
        }
        duplicates.inc();
        // The mode decides the kind (containment: CONTAINED when every match is contained one way
        // only) and which matches it may name: duplicateOf is the earliest of those.
        v.verdict = verification.verdict(m::estimate, n);
        v.clusterId = m.clusterId(survivingCluster(m));
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
            v.matches[k].hamming = verification.hamming(m.similarities[i]);
            v.matches[k].direction = m.estimate(i).label();
        }
        int earliest =
                IntStream.range(0, n)
                        .filter(i -> verification.names(v.verdict, m.estimate(i)))
                        .boxed()
                        .min(
                                Comparator.<Integer>comparingLong(i -> m.eventTimes[i])
                                        .thenComparing(i -> m.ids[i]))
                        .orElseThrow();
        v.duplicateOf = m.ids[earliest];
        v.duplicateUrl = m.urls[earliest];
        v.similarity = m.similarities[earliest];
        v.hamming = verification.hamming(m.similarities[earliest]);
        v.direction = m.estimate(earliest).label();
    }
}
