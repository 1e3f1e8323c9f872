package dev.neardup.pipeline.samples;

import dev.neardup.config.BucketSettings;
import dev.neardup.config.NearDupSettings;
import dev.neardup.pipeline.buckets.BucketDeletions;
import dev.neardup.pipeline.buckets.BucketMembers;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.similarity.Estimate;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.similarity.Verification;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Containment mode's sample store (keyed by document id): one bottom-s sample per document version
 * that a band bucket keeps (Broder's 1997 MIN_s, {@link dev.neardup.sketch.BottomKContainment}),
 * and the verification of the buckets' candidate pairs against it. From the {@link
 * SampleIntakeFunction} it receives the samples, the candidates (keyed by the member's id, with the
 * document's sample) and the deletions. It estimates a pair's containment both ways ({@link
 * Verification.Containment}; exact copies at 1 both ways) and sends the later document's verdict
 * one {@link VerdictEvent#RESULT} per candidate, match or not, or, for a document that arrived
 * late, a match to the member's verdict. A candidate still without its member's sample when the
 * watermark passes the member's time counts as no match ({@code missingSamples}).
 *
 * <p>State: {@code samples}, one {@link StoredSamples} value per id (about 540 bytes per version at
 * s = 128), read once per candidate; a version goes when the watermark passes its event time plus
 * {@code neardup.retention}, or a deletion after it; an event-time timer per version, waiting
 * candidate and deletion. Design: docs/design/streaming-operators.md.
 */
public class SampleStoreFunction
        extends KeyedProcessFunction<String, SampleStoreRecord, VerdictEvent> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(SampleStoreFunction.class);

    private final Verification verification;
    private final BucketSettings buckets;

    private transient ValueState<byte[]> stored;
    private transient Counter samples;
    private transient Counter verified;
    private transient Counter matches;
    private transient Counter waited;
    private transient Counter missing;
    private transient Counter expired;
    private transient Counter deleted;

    public SampleStoreFunction(NearDupSettings settings) {
        this.verification = SimilarityMode.of(settings).verification();
        this.buckets = settings.buckets();
    }

    @Override
    public void open(OpenContext openContext) {
        stored = getRuntimeContext().getState(BucketMembers.packedState("samples"));
        var metrics = getRuntimeContext().getMetricGroup();
        samples = metrics.counter("samplesStored");
        verified = metrics.counter("candidatesVerified");
        matches = metrics.counter("matches");
        waited = metrics.counter("candidatesWaitingForSample");
        missing = metrics.counter("missingSamples");
        expired = metrics.counter("samplesExpired");
        deleted = metrics.counter("samplesDeleted");
    }

    @Override
    public void processElement(SampleStoreRecord r, Context ctx, Collector<VerdictEvent> out)
            throws Exception {
        switch (r.kind) {
            case SampleStoreRecord.SAMPLE -> keep(r, ctx, out);
            case SampleStoreRecord.CANDIDATE -> candidate(r, ctx, out);
            case SampleStoreRecord.DELETION -> delete(r, ctx);
            default -> throw new IllegalStateException("unknown sample store record " + r.kind);
        }
    }

    /** A sample: kept until the retention has passed it; candidates waiting for it verified. */
    private void keep(SampleStoreRecord r, Context ctx, Collector<VerdictEvent> out)
            throws Exception {
        StoredSamples s = StoredSamples.decode(stored.value(), r.id);
        if (s.version(r.time, r.fingerprint) != null) {
            return; // sent again: by another bucket subtask, or a repeated record
        }
        StoredSamples.Version v = new StoredSamples.Version(r.time, r.fingerprint, r.url, r.sample);
        s.versions.add(v);
        samples.inc();
        ctx.timerService().registerEventTimeTimer(expiry(r.time));
        List<SampleStoreRecord> ready =
                s.waiting.stream()
                        .filter(c -> c.time == v.eventTime() && c.fingerprint == v.fingerprint())
                        .toList();
        ready.forEach(c -> verify(c, v, out));
        s.waiting.removeAll(ready);
        stored.update(s.encode());
    }

    /** A candidate: verified at once, or waiting for its member's sample until the watermark. */
    private void candidate(SampleStoreRecord c, Context ctx, Collector<VerdictEvent> out)
            throws Exception {
        byte[] value = stored.value();
        StoredSamples s = StoredSamples.decode(value, c.id);
        StoredSamples.Version v = s.version(c.time, c.fingerprint);
        if (v != null) {
            verify(c, v, out);
            return;
        }
        if (c.time <= ctx.timerService().currentWatermark()) {
            giveUp(c, out);
            return;
        }
        waited.inc();
        s.waiting.add(c);
        ctx.timerService().registerEventTimeTimer(c.time);
        stored.update(s.encode());
    }

    /** A deletion: kept until the watermark passes it (copies from several subtasks count once). */
    private void delete(SampleStoreRecord r, Context ctx) throws Exception {
        StoredSamples s = StoredSamples.decode(stored.value(), r.id);
        if (Arrays.binarySearch(s.deletions, r.time) >= 0) {
            return;
        }
        s.deletions = BucketDeletions.withTime(s.deletions, r.time);
        ctx.timerService().registerEventTimeTimer(r.time);
        stored.update(s.encode());
    }

    /**
     * The watermark passed {@code time}: candidates still waiting for a sample up to it give up,
     * deletions up to it drop their versions, versions whose retention ended are dropped.
     */
    @Override
    public void onTimer(long time, OnTimerContext ctx, Collector<VerdictEvent> out)
            throws Exception {
        byte[] value = stored.value();
        if (value == null) {
            return;
        }
        StoredSamples s = StoredSamples.decode(value, ctx.getCurrentKey());
        List<SampleStoreRecord> givenUp = s.waiting.stream().filter(c -> c.time <= time).toList();
        givenUp.forEach(c -> giveUp(c, out));
        boolean changed = s.waiting.removeAll(givenUp);
        int passed = 0;
        while (passed < s.deletions.length && s.deletions[passed] <= time) {
            long deletedAt = s.deletions[passed++];
            deleted.inc(removeVersions(s, v -> v.eventTime() <= deletedAt));
        }
        if (passed > 0) {
            s.deletions = Arrays.copyOfRange(s.deletions, passed, s.deletions.length);
            changed = true;
        }
        int expiredNow = removeVersions(s, v -> expiry(v.eventTime()) <= time);
        expired.inc(expiredNow);
        if (!changed && expiredNow == 0) {
            return;
        }
        if (s.isEmpty()) {
            stored.clear();
        } else {
            stored.update(s.encode());
        }
    }

    /** Removes the versions that {@code drop} says, and tells how many. */
    private static int removeVersions(StoredSamples s, Predicate<StoredSamples.Version> drop) {
        int before = s.versions.size();
        s.versions.removeIf(drop);
        return before - s.versions.size();
    }

    /** When a version's sample can be dropped: its event time plus the retention. */
    private long expiry(long eventTime) {
        return buckets.expiry(eventTime);
    }

    /**
     * Verifies candidate {@code c} against version {@code v} of its member, as the buckets did: the
     * estimate is about (member, document), reversed for a report from the document to the member.
     */
    private void verify(SampleStoreRecord c, StoredSamples.Version v, Collector<VerdictEvent> out) {
        verified.inc();
        boolean exact = v.fingerprint() == c.docFingerprint;
        Estimate estimate =
                exact ? verification.identical() : verification.estimate(v.sample(), c.sample);
        boolean match = verification.accepts(estimate.similarity());
        if (match) {
            matches.inc();
        }
        if (c.memberFirst) {
            VerdictEvent result = VerdictEvent.result(c.docId, c.docUrl, c.docTime, c.band);
            if (match) {
                result.addMatch(c.id, v.url(), v.eventTime(), estimate.reversed(), c.band, null, 0);
            }
            out.collect(result);
        } else if (match) {
            // The document arrived late: the match belongs to the member, which is later.
            VerdictEvent later = VerdictEvent.matches(c.id, v.url(), v.eventTime(), c.band);
            later.addMatch(c.docId, c.docUrl, c.docTime, estimate, c.band, null, 0);
            out.collect(later);
        }
    }

    /** The member's sample is gone: no match (the document's verdict still gets its result). */
    private void giveUp(SampleStoreRecord c, Collector<VerdictEvent> out) {
        missing.inc();
        LOG.warn(
                "no stored sample of {} at {} for its candidate {}; counted as no match",
                c.id,
                c.time,
                c.docId);
        if (c.memberFirst) {
            out.collect(VerdictEvent.result(c.docId, c.docUrl, c.docTime, c.band));
        }
    }
}
