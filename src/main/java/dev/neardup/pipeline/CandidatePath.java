package dev.neardup.pipeline;

import dev.neardup.config.NearDupSettings;
import dev.neardup.io.Document;
import dev.neardup.pipeline.buckets.BandBucketOperator;
import dev.neardup.pipeline.buckets.BucketLogic;
import dev.neardup.pipeline.buckets.BucketMembers;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.RecordSerializers;
import dev.neardup.pipeline.records.RoutedBands;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.samples.SampleIntakeFunction;
import dev.neardup.pipeline.samples.SampleStoreFunction;
import dev.neardup.similarity.CandidateSite;
import dev.neardup.similarity.Estimate;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.similarity.Verification;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;

/**
 * Where a similarity mode's candidate pairs are verified, and what that asks of each operator: the
 * strategy the operators hold (as Flink's {@code WindowOperator} holds its assigner and trigger),
 * chosen by the mode, so that no operator asks which mode it runs.
 *
 * <ul>
 *   <li>{@link #inBuckets()}: band records carry the packed sketch, bucket members keep it, and a
 *       bucket verifies a candidate on the spot with the mode's {@link Verification}.
 *   <li>{@link #throughSampleStore()}: the sketch (a bottom-s sample) travels apart, once, to the
 *       {@link SampleIntakeFunction}; the buckets forward their candidates with their reports, the
 *       {@link SampleStoreFunction} verifies them, and a verdict also waits for its results ({@link
 *       PendingContainmentVerdict}).
 * </ul>
 *
 * <p>Design: docs/design/architecture.md and docs/design/streaming-operators.md.
 */
public enum CandidatePath {
    /** Verified in the buckets: what the methods do unless overridden. */
    IN_BUCKETS(
            CandidateSite.BUCKETS,
            PendingVerdict.class,
            PendingVerdict::new,
            "pending-verdict",
            CandidatePath.RAW_STATE_IN_BUCKETS,
            "without the containment sample store"),

    THROUGH_SAMPLE_STORE(
            CandidateSite.SAMPLE_STORE,
            PendingContainmentVerdict.class,
            PendingContainmentVerdict::new,
            "pending-containment-verdict",
            CandidatePath.RAW_STATE_SAMPLE_STORE,
            "with the containment sample store") {

        /** The sketch goes to the sample intake; band records carry its screen, if any. */
        @Override
        byte[] route(
                Document doc,
                long eventTime,
                long fingerprint,
                byte[] packed,
                Verification verification,
                ProcessFunction<?, RoutedBands>.Context ctx) {
            ctx.output(
                    SignatureFunction.SAMPLES,
                    SampleStoreRecord.sample(doc.id, eventTime, fingerprint, doc.url, packed));
            return verification.screenBytes() == 0 ? NO_SIGNATURE : verification.screen(packed);
        }

        @Override
        void deleted(String id, long eventTime, ProcessFunction<?, RoutedBands>.Context ctx) {
            ctx.output(SignatureFunction.SAMPLES, SampleStoreRecord.deletion(id, eventTime));
        }

        @Override
        public int signatureBytes(Verification verification) {
            return verification.screenBytes();
        }

        /** Containment verdicts of older layouts packed each match's direction in its estimate. */
        @Override
        public <P extends PendingVerdict> P upgrade(P p) {
            return OlderPendingVerdicts.decodeDirections(p);
        }

        @Override
        public byte[] encode(List<BucketMembers.Member> members, int signatureBytes) {
            return signatureBytes == 0
                    ? BucketMembers.encodeIds(members)
                    : BucketMembers.encodeScreenedIds(members, signatureBytes);
        }

        @Override
        public Candidates candidates(Verification verification, Reports reports) {
            return new Forwarding(verification, reports);
        }

        /** Two more keyed exchanges, by id: to the sample intake, then to the sample store. */
        @Override
        DataStream<VerdictEvent> addStages(
                SingleOutputStreamOperator<RoutedBands> bands,
                SingleOutputStreamOperator<VerdictEvent> buckets,
                NearDupSettings settings) {
            SingleOutputStreamOperator<SampleStoreRecord> joined =
                    bands.getSideOutput(SignatureFunction.SAMPLES)
                            .union(buckets.getSideOutput(BandBucketOperator.SAMPLE_STORE))
                            .keyBy(r -> r.id, Types.STRING)
                            .process(
                                    new SampleIntakeFunction(settings),
                                    TypeInformation.of(SampleStoreRecord.class))
                            .uid(NearDupJob.Uid.SAMPLE_INTAKE)
                            .name("sample intake");
            DataStream<VerdictEvent> verified =
                    joined.keyBy(r -> r.id, Types.STRING)
                            .process(
                                    new SampleStoreFunction(settings),
                                    RecordSerializers.VERDICT_EVENT)
                            .uid(NearDupJob.Uid.SAMPLE_STORE)
                            .name("sample store");
            return joined.getSideOutput(SampleIntakeFunction.REPORTS).union(verified);
        }
    };

    /**
     * First int of a key group's raw keyed state of waiting verdicts verified in the buckets (-6 in
     * state layout 5, -4 in layout 4, {@link OlderPendingVerdicts}).
     */
    static final int RAW_STATE_IN_BUCKETS = -8;

    /**
     * First int of a key group's raw keyed state of waiting verdicts verified by the store (-7 in
     * layout 5, -5 in layout 4).
     */
    static final int RAW_STATE_SAMPLE_STORE = -9;

    /** What a band record carries as signature through the sample store: nothing. */
    private static final byte[] NO_SIGNATURE = new byte[0];

    /** The site a mode declares for this path. */
    private final CandidateSite site;

    /** The type of the waiting verdicts, and a new one. */
    public final Class<? extends PendingVerdict> pendingType;

    private final Supplier<PendingVerdict> newPending;

    /** The name of the keyed state of waiting verdicts beyond the heap. */
    public final String pendingStateName;

    /** The first int of a key group's raw keyed state of waiting verdicts. */
    public final int rawStateMarker;

    /** How the waiting verdicts are assembled, for the message of a refused restore. */
    public final String description;

    CandidatePath(
            CandidateSite site,
            Class<? extends PendingVerdict> pendingType,
            Supplier<PendingVerdict> newPending,
            String pendingStateName,
            int rawStateMarker,
            String description) {
        this.site = site;
        this.pendingType = pendingType;
        this.newPending = newPending;
        this.pendingStateName = pendingStateName;
        this.rawStateMarker = rawStateMarker;
        this.description = description;
    }

    /** The path of the site where {@code mode} verifies its candidates. */
    public static CandidatePath of(SimilarityMode mode) {
        for (CandidatePath p : values()) {
            if (p.site == mode.candidateSite()) {
                return p;
            }
        }
        throw new IllegalArgumentException("no candidate path for " + mode.candidateSite());
    }

    /** Candidates verified in the buckets. */
    public static CandidatePath inBuckets() {
        return IN_BUCKETS;
    }

    /** Candidates verified by a per-document sample store after the buckets. */
    public static CandidatePath throughSampleStore() {
        return THROUGH_SAMPLE_STORE;
    }

    /** A waiting verdict as read from state (null if none), in the current layout. */
    public <P extends PendingVerdict> P upgrade(P p) {
        return p;
    }

    // The signature operator.

    /** What band records carry of the packed sketch, after sending what travels apart. */
    byte[] route(
            Document doc,
            long eventTime,
            long fingerprint,
            byte[] packed,
            Verification verification,
            ProcessFunction<?, RoutedBands>.Context ctx) {
        return packed;
    }

    /** A deletion, for the stages that keep per-document state. */
    void deleted(String id, long eventTime, ProcessFunction<?, RoutedBands>.Context ctx) {}

    // The band buckets.

    /** Bytes of sketch that band records and bucket members carry. */
    public int signatureBytes(Verification verification) {
        return verification.packedBytes();
    }

    /** The bucket's state value for these members, of {@link #signatureBytes}. */
    public byte[] encode(List<BucketMembers.Member> members, int signatureBytes) {
        return BucketMembers.encode(members);
    }

    /** What a bucket subtask does with its candidate pairs and its reports. */
    public Candidates candidates(Verification verification, Reports reports) {
        return new Candidates() {
            @Override
            public Estimate check(
                    BandRecord doc, BucketMembers.Member m, boolean memberFirst, boolean exact) {
                Estimate e =
                        exact
                                ? verification.identical()
                                : verification.estimate(m.signature(), doc.signature);
                return verification.accepts(e.similarity()) ? e : null;
            }

            @Override
            public void send(Iterable<VerdictEvent> held) {
                for (VerdictEvent report : held) {
                    reports.toVerdicts(report);
                }
            }
        };
    }

    /** What a bucket subtask's {@link Candidates} send through. */
    public interface Reports {
        /** The report held back for this document version (created when there is none). */
        VerdictEvent reportFor(BandRecord doc);

        void toVerdicts(VerdictEvent report);

        void toSampleIntake(SampleStoreRecord record);

        /** A candidate pair the screen stopped: surely below the threshold. */
        void screenedOut();
    }

    /** A bucket subtask's handling of candidate pairs (not serializable: made in {@code open}). */
    public interface Candidates {
        /**
         * Checks the candidate pair (member {@code m}, document {@code doc}).
         *
         * @return the estimate about (member, document) when the pair is a match found here; null
         *     when it is not one, or is verified elsewhere
         */
        Estimate check(BandRecord doc, BucketMembers.Member m, boolean memberFirst, boolean exact);

        /**
         * Whether {@link #check} verifies the pair here and does nothing else (false: it sends the
         * pair on to be verified elsewhere).
         */
        default boolean verifiesHere() {
            return true;
        }

        /** The document gets this subtask's report (it does whether or not it matched). */
        default void reported(BandRecord doc) {}

        default void kept(BandRecord doc) {}

        /** Sends the reports held back, then forgets what it held for them. */
        void send(Iterable<VerdictEvent> held);
    }

    // The verdicts.

    public PendingVerdict newPending() {
        return newPending.get();
    }

    // The graph.

    /**
     * Adds the stages between the buckets and the verdicts, if any.
     *
     * @return what the stages send to the verdicts, or null when there are none
     */
    DataStream<VerdictEvent> addStages(
            SingleOutputStreamOperator<RoutedBands> bands,
            SingleOutputStreamOperator<VerdictEvent> buckets,
            NearDupSettings settings) {
        return null;
    }

    /**
     * The buckets' side of the sample store: each report goes to the sample intake with the
     * candidate pairs the subtask found for it (each once per report, however many of its buckets
     * it collided in) and whether a bucket kept the document; the intake sends the pairs on to the
     * store with the document's sample. A pair whose screens say it is surely below the threshold
     * ({@link Verification#passesScreen}) is not sent.
     */
    private static final class Forwarding implements Candidates {
        private final Verification verification;
        private final Reports reports;

        /** What goes to the sample intake instead of each report held back, by document version. */
        private LinkedHashMap<BucketLogic.DocVersion, SampleStoreRecord> storeReports =
                new LinkedHashMap<>();

        /** The pairs sent for the reports held back. */
        private HashSet<SentPair> sent = new HashSet<>();

        Forwarding(Verification verification, Reports reports) {
            this.verification = verification;
            this.reports = reports;
        }

        /** A candidate pair sent to the sample store: a document version and a member version. */
        private record SentPair(
                BucketLogic.DocVersion doc, String memberId, long memberTime, long fingerprint) {}

        /** What goes to the sample intake for {@code doc}'s report. */
        private SampleStoreRecord storeReportFor(BandRecord doc) {
            // Making room for the report sends the reports held back (and forgets the pairs).
            VerdictEvent report = reports.reportFor(doc);
            return storeReports.computeIfAbsent(
                    new BucketLogic.DocVersion(doc), k -> SampleStoreRecord.report(doc, report));
        }

        /**
         * Adds the pair to {@code doc}'s report for the sample intake, unless it is there already
         * for the reports held back; a pair whose result goes to {@code doc}'s verdict is counted
         * in its report.
         */
        @Override
        public Estimate check(
                BandRecord doc, BucketMembers.Member m, boolean memberFirst, boolean exact) {
            SampleStoreRecord r = storeReportFor(doc);
            if (!exact && !verification.passesScreen(m.signature(), doc.signature)) {
                reports.screenedOut();
                return null;
            }
            var pair =
                    new SentPair(
                            new BucketLogic.DocVersion(doc),
                            m.id(),
                            m.eventTime(),
                            m.fingerprint());
            if (sent.add(pair)) {
                if (memberFirst) {
                    r.report.forwarded++;
                }
                r.addMember(m.id(), m.eventTime(), m.fingerprint(), doc.band, memberFirst);
            }
            return null;
        }

        @Override
        public boolean verifiesHere() {
            return false;
        }

        @Override
        public void reported(BandRecord doc) {
            storeReportFor(doc);
        }

        @Override
        public void kept(BandRecord doc) {
            storeReportFor(doc).kept = true; // the intake sends its sample to the store
        }

        @Override
        public void send(Iterable<VerdictEvent> held) {
            for (SampleStoreRecord r : storeReports.values()) {
                reports.toSampleIntake(r.trimmed());
            }
            storeReports = new LinkedHashMap<>();
            if (!sent.isEmpty()) {
                sent = new HashSet<>();
            }
        }
    }
}
