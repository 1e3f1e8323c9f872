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
 * late, a match to the member's verdict. A candidate waits for its member's sample (the two travel
 * different paths) until the member's version is gone: deleted, or past its retention; then it
 * counts as no match ({@code missingSamples}).
 *
 * <p>State: {@code samples}, one {@link StoredSamples} value per id (about 540 bytes per version at
 * s = 128), read once per candidate; a version goes when the watermark passes its event time plus
 * {@code neardup.retention}, or a deletion after it; a deletion's time is kept until the retention
 * has passed it; an event-time timer per version, waiting candidate and deletion (two). Design:
 * docs/design/streaming-operators.md.
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
        if (gone(s, r.time, ctx.timerService().currentWatermark())) {
            return; // came after the watermark passed a deletion of it, or its retention
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

    /**
     * A candidate: verified at once, or waiting for its member's sample. The sample comes unless
     * the member's version is gone (deleted, or past its retention): a member that a bucket took in
     * behind the watermark (its partition was idle) sends its sample after the watermark passed it,
     * so a candidate of it may come first.
     */
    private void candidate(SampleStoreRecord c, Context ctx, Collector<VerdictEvent> out)
            throws Exception {
        byte[] value = stored.value();
        StoredSamples s = StoredSamples.decode(value, c.id);
        StoredSamples.Version v = s.version(c.time, c.fingerprint);
        if (v != null) {
            verify(c, v, out);
            return;
        }
        if (gone(s, c.time, ctx.timerService().currentWatermark())) {
            giveUp(c, out);
            return;
        }
        waited.inc();
        s.waiting.add(c);
        ctx.timerService().registerEventTimeTimer(expiry(c.time));
        stored.update(s.encode());
    }

    /**
     * A deletion: it drops the versions up to it when the watermark passes it, and is kept until
     * the retention has passed it, so that a sample or candidate of a deleted version that comes
     * later is known to be gone (copies from several subtasks count once).
     */
    private void delete(SampleStoreRecord r, Context ctx) throws Exception {
        StoredSamples s = StoredSamples.decode(stored.value(), r.id);
        if (Arrays.binarySearch(s.deletions, r.time) >= 0) {
            return;
        }
        s.deletions = BucketDeletions.withTime(s.deletions, r.time);
        ctx.timerService().registerEventTimeTimer(r.time);
        ctx.timerService().registerEventTimeTimer(expiry(r.time));
        stored.update(s.encode());
    }

    /**
     * Whether a version at {@code eventTime} is gone at {@code watermark}: past its retention, or
     * at or before a deletion that the watermark has passed.
     */
    private boolean gone(StoredSamples s, long eventTime, long watermark) {
        if (expiry(eventTime) <= watermark) {
            return true;
        }
        for (long deletedAt : s.deletions) {
            if (deletedAt > watermark) {
                break;
            }
            if (eventTime <= deletedAt) {
                return true;
            }
        }
        return false;
    }

    /**
     * The watermark passed {@code time}: deletions up to it drop their versions, versions whose
     * retention ended are dropped, candidates still waiting for a version that is now gone give up,
     * and deletions whose retention ended are forgotten.
     */
    @Override
    public void onTimer(long time, OnTimerContext ctx, Collector<VerdictEvent> out)
            throws Exception {
        byte[] value = stored.value();
        if (value == null) {
            return;
        }
        StoredSamples s = StoredSamples.decode(value, ctx.getCurrentKey());
        int deletedNow = 0;
        for (long deletedAt : s.deletions) {
            if (deletedAt > time) {
                break;
            }
            deletedNow += removeVersions(s, v -> v.eventTime() <= deletedAt);
        }
        deleted.inc(deletedNow);
        int expiredNow = removeVersions(s, v -> expiry(v.eventTime()) <= time);
        expired.inc(expiredNow);
        List<SampleStoreRecord> givenUp =
                s.waiting.stream().filter(c -> gone(s, c.time, time)).toList();
        givenUp.forEach(c -> giveUp(c, out));
        boolean changed = s.waiting.removeAll(givenUp) || deletedNow + expiredNow > 0;
        int forgotten = 0;
        while (forgotten < s.deletions.length && expiry(s.deletions[forgotten]) <= time) {
            forgotten++;
        }
        if (forgotten > 0) {
            s.deletions = Arrays.copyOfRange(s.deletions, forgotten, s.deletions.length);
            changed = true;
        }
        if (!changed) {
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
