package dev.neardup.pipeline.buckets;

import dev.neardup.config.BucketSettings;
import dev.neardup.pipeline.CandidatePath;
import dev.neardup.pipeline.buckets.BucketMembers.Member;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.similarity.Estimate;
import dev.neardup.similarity.Verification;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * What a band bucket does when it takes a document in, in the order (event time, id): compare it
 * with the members within the retention, report the matches (from the later document to the
 * earlier), keep the earliest members up to the capacity, exact copies once, the right version of a
 * re-crawl, and drop members deleted before the document. Reports are held back per document
 * version until the end of the watermark (a subtask sends one per document, however many of its
 * buckets the document reached). What happens to a candidate pair is the {@link CandidatePath}'s.
 * No Flink state: the operator reads and writes the bucket around {@link #take}.
 */
public final class BucketLogic implements CandidatePath.Reports {

    /**
     * The key of the reports held back: a document version and its content. Hashed from the two
     * numbers, so a lookup does not hash the id.
     */
    public record DocVersion(String id, long eventTime, long fingerprint) {
        public DocVersion(BandRecord r) {
            this(r.docId, r.eventTime, r.fingerprint);
        }

        @Override
        public int hashCode() {
            long h = fingerprint ^ (eventTime * 0x9E3779B97F4A7C15L);
            return (int) (h ^ (h >>> 32));
        }
    }

    private final int capacity;
    private final BucketSettings bounds;
    private final BucketDeletions deletions;
    private final Output<StreamRecord<VerdictEvent>> output;
    private final CandidatePath.Candidates candidates;

    /** Reports held back until the end of the watermark, per document version. */
    private LinkedHashMap<DocVersion, VerdictEvent> reports = new LinkedHashMap<>();

    private final Counter candidatesVerified;
    private final Counter matches;
    private final Counter exactCopies;
    private final Counter evictedByCapacity;
    private final Counter evictedByAge;
    private final Counter deletedMembers;
    private final Counter earlyMatches;
    private final Counter screenedOut;

    BucketLogic(
            BucketSettings bounds,
            Verification verification,
            CandidatePath path,
            BucketDeletions deletions,
            Output<StreamRecord<VerdictEvent>> output,
            MetricGroup metrics) {
        this.capacity = bounds.capacity();
        this.bounds = bounds;
        this.deletions = deletions;
        this.output = output;
        this.candidates = path.candidates(verification, this);
        candidatesVerified = metrics.counter("candidatesVerified");
        matches = metrics.counter("matches");
        exactCopies = metrics.counter("exactCopies");
        evictedByCapacity = metrics.counter("evictedByCapacity");
        evictedByAge = metrics.counter("evictedByAge");
        deletedMembers = metrics.counter("deletedMembers");
        earlyMatches = metrics.counter("earlyMatches");
        screenedOut = metrics.counter("candidatesScreenedOut");
    }

    @Override
    public void screenedOut() {
        screenedOut.inc();
    }

    @Override
    public void toVerdicts(VerdictEvent report) {
        output.collect(new StreamRecord<>(report, report.eventTime));
    }

    @Override
    public void toSampleIntake(SampleStoreRecord record) {
        output.collect(BandBucketOperator.SAMPLE_STORE, new StreamRecord<>(record, record.time));
    }

    /** The report held back for {@code doc}'s version (created with {@code doc}'s band). */
    @Override
    public VerdictEvent reportFor(BandRecord doc) {
        DocVersion key = new DocVersion(doc);
        VerdictEvent report = reports.get(key);
        if (report == null) {
            if (reports.size() >= BandBucketOperator.MAX_HELD_REPORTS) {
                sendReports();
            }
            report = VerdictEvent.matches(doc.docId, doc.url, doc.eventTime, doc.band);
            reports.put(key, report);
        }
        return report;
    }

    /** Sends the reports held back (at the end of a watermark, or to make room). */
    void sendReports() {
        if (reports.isEmpty()) {
            return;
        }
        candidates.send(reports.values());
        reports = new LinkedHashMap<>();
    }

    /**
     * Adds to {@code report} (about {@code doc}) the match with {@code m}, a member earlier than
     * the document, with the estimate about (member, document) and the member's cluster.
     */
    private static void addEarlierMember(
            VerdictEvent report, BandRecord doc, Member m, Estimate estimate) {
        report.addMatch(
                m.id(),
                m.url(),
                m.eventTime(),
                estimate.reversed(),
                doc.band,
                m.cluster(),
                m.clusterTime());
    }

    /** The earliest event time of a member {@code doc} is compared with. */
    private long horizon(BandRecord doc) {
        return bounds.horizon(doc.eventTime);
    }

    /**
     * Compares {@code doc}, which arrived before the watermark passed it, with the members (all
     * settled: the watermark passed them when they were taken in), without changing them, and sends
     * its matches at once as an {@link VerdictEvent#EARLY} event. Skipped as {@link #take} skips
     * them: members outside the retention, deleted before the document as far as the deletions
     * known so far say, and versions of the same page. Only where candidates are verified on the
     * spot ({@link CandidatePath.Candidates#verifiesHere}).
     *
     * @return the matches sent
     */
    int sendEarly(List<Member> members, BandRecord doc) throws Exception {
        if (members.isEmpty() || !candidates.verifiesHere()) {
            return 0;
        }
        long horizon = horizon(doc);
        boolean anyDeleted = deletions.any();
        VerdictEvent early = null;
        for (Member m : members) {
            if (m.eventTime() < horizon
                    || m.id().equals(doc.docId)
                    || !m.isBefore(doc.eventTime, doc.docId)
                    || (anyDeleted && deletions.deletedBefore(m, doc.eventTime))) {
                continue;
            }
            Estimate estimate = candidates.check(doc, m, true, m.fingerprint() == doc.fingerprint);
            if (estimate != null) {
                if (early == null) {
                    early = VerdictEvent.early(doc.docId, doc.url, doc.eventTime, doc.band);
                }
                addEarlierMember(early, doc, m, estimate);
            }
        }
        if (early == null) {
            return 0;
        }
        earlyMatches.inc(early.matches.size());
        toVerdicts(early);
        return early.matches.size();
    }

    /**
     * Compares {@code doc} with the members and updates them (true when they changed). Members are
     * earlier than the document, except when it arrived late: then a match is reported to the later
     * of the two.
     */
    boolean take(List<Member> members, BandRecord doc) throws Exception {
        long horizon = horizon(doc);
        List<Member> kept = new ArrayList<>(members.size() + 1);
        boolean changed = false;
        boolean keepDoc = true;
        VerdictEvent found = null;
        int compared = 0;
        // The document's cluster as this bucket knows it: the earliest cluster among the earlier
        // members it matches (by the first document's event time, then id), else its own.
        String cluster = null;
        long clusterTime = 0;
        boolean anyDeleted = deletions.any();
        for (Member m : members) {
            if (m.eventTime() < horizon) {
                evictedByAge.inc();
                changed = true;
                continue;
            }
            if (anyDeleted && deletions.deletedBefore(m, doc.eventTime)) {
                // Deleted before the document: gone from the bucket, not compared.
                deletedMembers.inc();
                changed = true;
                continue;
            }
            boolean memberFirst = m.isBefore(doc.eventTime, doc.docId);
            if (m.id().equals(doc.docId)) {
                // The same page again: never compared with itself. Keep the version with the
                // latest content, or the earliest when the content did not change.
                boolean sameContent = m.fingerprint() == doc.fingerprint;
                boolean docWins = m.eventTime() != doc.eventTime && (sameContent != memberFirst);
                if (docWins) {
                    changed = true;
                    continue;
                }
                keepDoc = false;
                kept.add(m);
                continue;
            }
            if (!bounds.within(m.eventTime(), doc.eventTime)) {
                kept.add(m); // too far apart in time to be compared
                continue;
            }
            compared++;
            boolean exact = m.fingerprint() == doc.fingerprint;
            // About (member, document); reversed for a report from the document to the member.
            Estimate estimate = candidates.check(doc, m, memberFirst, exact);
            if (estimate != null) {
                matches.inc();
                if (memberFirst) {
                    if (found == null) {
                        found = reportFor(doc);
                    }
                    addEarlierMember(found, doc, m, estimate);
                    if (cluster == null
                            || BucketMembers.isBefore(
                                    m.clusterEventTime(), m.clusterId(), clusterTime, cluster)) {
                        cluster = m.clusterId();
                        clusterTime = m.clusterEventTime();
                    }
                } else {
                    VerdictEvent later =
                            VerdictEvent.matches(m.id(), m.url(), m.eventTime(), doc.band);
                    // Members come in order, so the document's cluster here is known by now.
                    later.addMatch(
                            doc.docId,
                            doc.url,
                            doc.eventTime,
                            estimate,
                            doc.band,
                            cluster,
                            clusterTime);
                    toVerdicts(later);
                }
            }
            if (exact) {
                exactCopies.inc(); // exact copies always match: kept once, as the earliest
                if (memberFirst) {
                    keepDoc = false; // an earlier exact copy already stands for it
                } else {
                    changed = true; // the document stands for its later exact copy
                    continue;
                }
            }
            kept.add(m);
        }
        if (keepDoc) {
            int at = 0;
            while (at < kept.size() && kept.get(at).isBefore(doc.eventTime, doc.docId)) {
                at++;
            }
            if (at < capacity) {
                candidates.kept(doc);
                kept.add(
                        at,
                        new Member(
                                doc.eventTime,
                                doc.fingerprint,
                                doc.signature,
                                doc.docId,
                                doc.url,
                                cluster,
                                clusterTime));
                changed = true;
            }
        }
        while (kept.size() > capacity) {
            kept.remove(kept.size() - 1); // the latest member makes room
            evictedByCapacity.inc();
            changed = true;
        }
        if (changed) {
            members.clear();
            members.addAll(kept);
        }
        candidatesVerified.inc(compared);
        if (found == null) {
            candidates.reported(doc);
            found = reportFor(doc);
        }
        found.candidates += compared;
        found.reports++;
        return changed;
    }
}
