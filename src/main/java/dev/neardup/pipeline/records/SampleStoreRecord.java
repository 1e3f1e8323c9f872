package dev.neardup.pipeline.records;

import dev.neardup.pipeline.samples.SampleIntakeFunction;
import dev.neardup.pipeline.samples.SampleStoreFunction;
import java.util.Arrays;

/**
 * Containment mode's messages about samples, keyed by {@link #id}: the signature operator sends the
 * {@link SampleIntakeFunction} each document's sample ({@link #SAMPLE}) and each deletion ({@link
 * #DELETION}), once; a band-bucket subtask sends it one {@link #REPORT} per document and watermark
 * (the bucket's report to the verdicts, the candidate pairs it found and whether it kept the
 * document); the intake sends the {@link SampleStoreFunction} the samples of the documents the
 * buckets keep ({@link #SAMPLE}), each candidate pair with the document's sample ({@link
 * #CANDIDATE}, keyed by the member) and the deletions. A Flink POJO (arrays, no collections).
 */
public class SampleStoreRecord {
    /** A document version's sample, sent before any candidate of which it is the member. */
    public static final int SAMPLE = 0;

    /** A candidate pair: the store verifies it against the member's sample. */
    public static final int CANDIDATE = 1;

    /** A deletion of document {@link #id} at {@link #time}. */
    public static final int DELETION = 2;

    /** A bucket subtask's report on document {@link #id}, with its candidate pairs. */
    public static final int REPORT = 3;

    public int kind;

    /** The key: the document (SAMPLE, DELETION, REPORT) or the bucket member (CANDIDATE). */
    public String id;

    /** The event time of {@link #id}'s version, or of the deletion. */
    public long time;

    /** The fingerprint of {@link #id}'s version ({@link BandRecord#fingerprint}). */
    public long fingerprint;

    /** SAMPLE, REPORT: the document's URL. */
    public String url;

    /** The packed sample: SAMPLE, of {@link #id}; CANDIDATE, of the document {@link #docId}. */
    public byte[] sample;

    /** CANDIDATE: the document the bucket took in. */
    public String docId;

    public String docUrl;
    public long docTime;
    public long docFingerprint;

    /** CANDIDATE: the band of the bucket in which the two collided; REPORT: of its first. */
    public int band;

    /**
     * CANDIDATE: true when the member is earlier than the document: the result goes to the
     * document's verdict, which waits for it. False when the document arrived late: a match then
     * goes to the member's verdict, which does not wait for it.
     */
    public boolean memberFirst;

    /** REPORT: what the verdicts get of it ({@link VerdictEvent#MATCHES}, no matches). */
    public VerdictEvent report;

    /** REPORT: true when a bucket of the subtask kept the document as a member. */
    public boolean kept;

    /**
     * REPORT: the candidate pairs' members (the first {@link #members} entries), their event times,
     * bands, fingerprints, and whether each is earlier than the document ({@link #memberFirst}).
     */
    public String[] memberIds = NO_IDS;

    public long[] memberTimes = NO_LONGS;
    public int[] memberBands = NO_INTS;
    public long[] memberFingerprints = NO_LONGS;
    public boolean[] membersFirst = NO_BOOLEANS;
    public int members;

    private static final String[] NO_IDS = new String[0];
    private static final long[] NO_LONGS = new long[0];
    private static final int[] NO_INTS = new int[0];
    private static final boolean[] NO_BOOLEANS = new boolean[0];

    public SampleStoreRecord() {}

    private static SampleStoreRecord of(int kind, String id, long time) {
        SampleStoreRecord r = new SampleStoreRecord();
        r.kind = kind;
        r.id = id;
        r.time = time;
        return r;
    }

    public static SampleStoreRecord sample(
            String id, long time, long fingerprint, String url, byte[] sample) {
        SampleStoreRecord r = of(SAMPLE, id, time);
        r.fingerprint = fingerprint;
        r.url = url;
        r.sample = sample;
        return r;
    }

    /** A report on {@code doc}'s version (its candidates added with {@link #addMember}). */
    public static SampleStoreRecord report(BandRecord doc, VerdictEvent report) {
        SampleStoreRecord r = of(REPORT, doc.docId, doc.eventTime);
        r.fingerprint = doc.fingerprint;
        r.url = doc.url;
        r.band = doc.band;
        r.report = report;
        return r;
    }

    /** REPORT: one more candidate pair, with this member version. */
    public void addMember(
            String memberId, long memberTime, long memberFingerprint, int band, boolean first) {
        if (members == memberIds.length) {
            resize(Math.max(4, 2 * members));
        }
        memberBands[members] = band;
        memberIds[members] = memberId;
        memberTimes[members] = memberTime;
        memberFingerprints[members] = memberFingerprint;
        membersFirst[members] = first;
        members++;
    }

    /** REPORT: the member arrays cut to {@link #members}, before sending. */
    public SampleStoreRecord trimmed() {
        if (memberIds.length != members) {
            resize(members);
        }
        return this;
    }

    private void resize(int size) {
        memberIds = Arrays.copyOf(memberIds, size);
        memberTimes = Arrays.copyOf(memberTimes, size);
        memberFingerprints = Arrays.copyOf(memberFingerprints, size);
        memberBands = Arrays.copyOf(memberBands, size);
        membersFirst = Arrays.copyOf(membersFirst, size);
    }

    public static SampleStoreRecord deletion(String id, long time) {
        return of(DELETION, id, time);
    }

    /** The pair of member {@code i} of {@code report}, with the document's {@code sample}. */
    public static SampleStoreRecord candidate(SampleStoreRecord report, int i, byte[] sample) {
        SampleStoreRecord r = of(CANDIDATE, report.memberIds[i], report.memberTimes[i]);
        r.fingerprint = report.memberFingerprints[i];
        r.sample = sample;
        r.docId = report.id;
        r.docUrl = report.url;
        r.docTime = report.time;
        r.docFingerprint = report.fingerprint;
        r.band = report.memberBands[i];
        r.memberFirst = report.membersFirst[i];
        return r;
    }
}
