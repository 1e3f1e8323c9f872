package dev.neardup.pipeline;

import java.util.List;

/**
 * Every metric the streaming job registers on its operators, declared in one place with what it
 * counts: the metrics reference in {@code docs/reference/metrics.md} is generated from this list,
 * and a test checks it against the registrations in the operators ({@code counter("name")}, {@code
 * gauge(...)}, {@code histogram(...)}), so a metric added, renamed or removed there fails the build
 * until it is declared here.
 */
public final class JobMetrics {

    private JobMetrics() {}

    /** What Flink reports: a counter, a gauge or a histogram. */
    public enum Kind {
        COUNTER,
        GAUGE,
        HISTOGRAM
    }

    /** An operator of the job: its name (label {@code operator_name}) and its uid. */
    public record Operator(String name, String uid) {}

    /**
     * A metric: its name as registered, its kind, the operator that registers it, what it counts.
     */
    public record JobMetric(String name, Kind kind, Operator operator, String description) {}

    static final Operator SOURCE =
            new Operator("documents (parse and validate)", NearDupJob.Uid.SOURCE);
    static final Operator SIGNATURES =
            new Operator("shingles, MinHash, band keys", NearDupJob.Uid.SIGNATURE);
    static final Operator BAND_BUCKETS = new Operator("band buckets", NearDupJob.Uid.BAND_BUCKET);
    static final Operator SAMPLE_INTAKE =
            new Operator("sample intake", NearDupJob.Uid.SAMPLE_INTAKE);
    static final Operator SAMPLE_STORE = new Operator("sample store", NearDupJob.Uid.SAMPLE_STORE);
    static final Operator VERDICTS = new Operator("verdicts", NearDupJob.Uid.VERDICT);
    static final Operator JSON_LINES_SINKS =
            new Operator(
                    "alerts, verdicts, dead letters: Writer",
                    String.join(
                            ", ",
                            NearDupJob.Uid.ALERT_SINK,
                            NearDupJob.Uid.VERDICT_SINK,
                            NearDupJob.Uid.DEAD_LETTER_SINK));

    private static JobMetric counter(Operator operator, String name, String description) {
        return new JobMetric(name, Kind.COUNTER, operator, description);
    }

    /** The metrics, by operator in the order of the job graph. */
    public static final List<JobMetric> ALL =
            List.of(
                    counter(
                            SOURCE,
                            "blankLinesSkipped",
                            "file input only (`neardup run` without Kafka): blank lines the readers"
                                    + " skipped; the run summary shows them"),
                    counter(
                            SOURCE,
                            "recordsSkipped",
                            "WARC, WET and ARC input only (files, and Kafka messages read as"
                                    + " WARC): records that are no documents, one counter per"
                                    + " reason (metric group `reason`: REQUEST_RECORD,"
                                    + " METADATA_RECORD, WARCINFO_RECORD, NOT_TEXT, HTTP_STATUS,"
                                    + " IDENTICAL_REVISIT, ...); the run summary shows them. On"
                                    + " Kafka the connector puts them in the source's group"
                                    + " `deserializer` (Prometheus:"
                                    + " `..._operator_deserializer_reason_recordsSkipped`)"),
                    counter(
                            SIGNATURES,
                            "documentsIn",
                            "valid documents with text, sketched and sent to their buckets: each"
                                    + " gets exactly one verdict"),
                    counter(
                            SIGNATURES,
                            "deadLetters",
                            "input records sent to the dead letters, whatever the reason (see the"
                                    + " dead-letter reasons): those the parser finds, `NO_TEXT` and"
                                    + " `INTERNAL_ERROR`"),
                    counter(
                            SIGNATURES,
                            "documentsWithoutText",
                            "valid documents without a single word of visible text (a page of"
                                    + " scripts): dead letters `NO_TEXT` (counted in `deadLetters`"
                                    + " too), no verdict"),
                    counter(
                            SIGNATURES,
                            "lateDocuments",
                            "documents that arrived after the watermark had passed their event time"
                                + " (more out of order than"
                                + " `neardup.watermark.max-out-of-orderness`): ordered as if"
                                + " fetched just after the watermark. Should stay near 0; if not,"
                                + " raise the out-of-orderness"),
                    counter(
                            SIGNATURES,
                            "deletionsIn",
                            "valid deletions: Kafka tombstones (null value, keyed by the id) and"
                                + " `\"deleted\": true` records, sent to every band-bucket subtask"
                                + " (one copy per subtask); each gets exactly one `DELETED`"
                                + " verdict. A late one (behind the watermark) is counted in"
                                + " `lateDocuments` too"),
                    counter(
                            BAND_BUCKETS,
                            "candidatesVerified",
                            "candidate pairs verified: for each band record, one per member of its"
                                + " bucket within the retention of it (so a pair colliding in"
                                + " several bands counts once per band); verified on the spot from"
                                + " the members' b-bit signatures"),
                    counter(
                            BAND_BUCKETS,
                            "matches",
                            "verified candidates whose estimated similarity reaches the threshold"
                                    + " (per band: the same pair can match in several bands)"),
                    counter(
                            BAND_BUCKETS,
                            "earlyMatches",
                            "early alerts (`neardup.alerts.early`): matches found as a document"
                                + " arrived, with members the watermark had passed, and sent to the"
                                + " verdicts at once (per band, as `matches`; these pairs are"
                                + " verified again and counted in `matches` when the watermark"
                                + " passes the document)"),
                    counter(
                            BAND_BUCKETS,
                            "candidatesScreenedOut",
                            "exact cosine only (`neardup.simhash.verify`): candidate pairs not sent"
                                + " to the sample store because their verification bits differ in"
                                + " more places than a pair at the threshold would but for a chance"
                                + " of one in ten thousand (once per pair and bucket subtask)"),
                    counter(
                            BAND_BUCKETS,
                            "exactCopies",
                            "matches between documents with identical signatures: the later one is"
                                    + " not kept in the bucket (the earlier stands for it)"),
                    counter(
                            BAND_BUCKETS,
                            "evictedByCapacity",
                            "bucket members dropped because the bucket was over `--bucket-capacity`"
                                + " (default 64; the latest in (event time, id) go first, and a"
                                + " document later than a full bucket's members is compared but not"
                                + " kept)"),
                    counter(
                            BAND_BUCKETS,
                            "evictedByAge",
                            "bucket members dropped because they are older than the watermark by"
                                    + " more than `--retention` (default 30 days), found when the"
                                    + " bucket is touched"),
                    counter(
                            BAND_BUCKETS,
                            "deletedMembers",
                            "bucket members dropped because their document was deleted before the"
                                + " document being taken in (found when the bucket is touched; a"
                                + " member in several buckets counts once per bucket)"),
                    new JobMetric(
                            "deletionsKept",
                            Kind.GAUGE,
                            BAND_BUCKETS,
                            "document ids whose deletions a subtask keeps (every subtask keeps all"
                                + " of them, until the watermark is the retention past them): about"
                                + " 100 bytes of heap each plus the id, in every subtask and in"
                                + " every checkpoint once per subtask"),
                    new JobMetric(
                            "bucketSize",
                            Kind.HISTOGRAM,
                            BAND_BUCKETS,
                            "size of a bucket each time it takes documents in (once per watermark"
                                + " for all its due band records, or for one late record): how full"
                                + " the buckets are; at the capacity means evictions"),
                    counter(
                            BAND_BUCKETS,
                            "waitingSpilled",
                            "band records that waited for the watermark in keyed state (with a"
                                + " timer) rather than on the heap, because the heap buffer was"
                                + " full (`neardup.bucket.order-buffer`). A high rate (most of the"
                                + " band records) means the buffer is too small for the"
                                + " out-of-orderness and the input rate, and each record costs"
                                + " several state operations more"),
                    counter(
                            BAND_BUCKETS,
                            "bucketReadsSkipped",
                            "bucket reads left out because the band key filter"
                                    + " (`neardup.bucket.key-filter`) knew the bucket did not"
                                    + " exist: most of a new document's buckets"),
                    new JobMetric(
                            "bucketKeyFilterBytes",
                            Kind.GAUGE,
                            BAND_BUCKETS,
                            "heap held by the band key filter of a subtask: 1.5 bytes per key"
                                    + " written within the retention, up to"
                                    + " `neardup.bucket.key-filter`; at the bound, more reads go"
                                    + " to the state backend"),
                    counter(
                            SAMPLE_INTAKE,
                            "samplesIn",
                            "containment mode only: documents' bottom-s samples received from the"
                                + " signature operator (one per input document); each is held until"
                                + " the buckets have reported all the document's band records"),
                    counter(
                            SAMPLE_INTAKE,
                            "reportsIn",
                            "containment mode only: bucket reports received (one per document,"
                                    + " bucket subtask and watermark), passed on to the verdicts"),
                    counter(
                            SAMPLE_INTAKE,
                            "reportsWaitingForSample",
                            "containment mode only: reports that came before their document's"
                                    + " sample (the two travel different paths) and waited for it."
                                    + " Should stay near 0"),
                    counter(
                            SAMPLE_INTAKE,
                            "pairsForwarded",
                            "containment mode only: candidate pairs sent on to the sample store"
                                + " with the document's sample (once per pair and bucket subtask)"),
                    counter(
                            SAMPLE_INTAKE,
                            "samplesForwarded",
                            "containment mode only: samples sent on to the sample store, one per"
                                    + " document a bucket keeps"),
                    counter(
                            SAMPLE_STORE,
                            "samplesStored",
                            "containment mode only: bottom-s samples stored, one per document a"
                                + " bucket keeps (exact copies and documents no bucket keeps store"
                                + " none)"),
                    counter(
                            SAMPLE_STORE,
                            "candidatesVerified",
                            "containment mode only: candidate pairs verified against the stored"
                                    + " sample of their earlier member (once per pair and bucket"
                                    + " subtask); the band buckets verify nothing in this mode"),
                    counter(
                            SAMPLE_STORE,
                            "matches",
                            "containment mode only: verified candidates whose estimated containment"
                                    + " reaches the threshold either way"),
                    counter(
                            SAMPLE_STORE,
                            "candidatesWaitingForSample",
                            "containment mode only: candidates that came before their member's"
                                    + " sample and waited for it: the sample and a later document's"
                                    + " candidate can come through different intake subtasks. Low"
                                    + " compared with `candidatesVerified`"),
                    counter(
                            SAMPLE_STORE,
                            "missingSamples",
                            "containment mode only: candidates whose member's version was gone"
                                + " before its sample came (deleted, or past the retention, and"
                                + " reached by a late document): counted as no match; the verdict"
                                + " still gets its result. 0 on a healthy job"),
                    counter(
                            SAMPLE_STORE,
                            "samplesExpired",
                            "containment mode only: samples dropped when the watermark passed their"
                                    + " document's time plus `neardup.retention`"),
                    counter(
                            SAMPLE_STORE,
                            "samplesDeleted",
                            "containment mode only: samples dropped by a deletion of their"
                                    + " document, when the watermark passed it"),
                    counter(VERDICTS, "uniqueDocuments", "verdicts `UNIQUE` emitted"),
                    counter(
                            VERDICTS,
                            "duplicateDocuments",
                            "verdicts `DUPLICATE` emitted, and in containment mode `CONTAINED` ones"
                                    + " too (a document with at least one match)"),
                    counter(
                            VERDICTS,
                            "deletedDocuments",
                            "verdicts `DELETED` emitted: one per deletion, when the watermark has"
                                    + " passed its time"),
                    counter(
                            VERDICTS,
                            "alerts",
                            "alerts emitted: one per (document, earlier near-duplicate) pair,"
                                    + " however many bands it matched in, early ones included"),
                    counter(
                            VERDICTS,
                            "earlyAlerts",
                            "of `alerts`, those emitted early (`\"early\": true`), as the later"
                                    + " document arrived, before its verdict"),
                    new JobMetric(
                            "earlyAlertLatency",
                            Kind.HISTOGRAM,
                            VERDICTS,
                            "ms from the event time of the later document to its early alert, over"
                                + " the latest 4096 per subtask: on a live stream (event times"
                                + " stamped as pages are published), how long a page waits for its"
                                + " early alert"),
                    new JobMetric(
                            "alertLatency",
                            Kind.HISTOGRAM,
                            VERDICTS,
                            "as `earlyAlertLatency`, for the alerts made when the watermark passed"
                                    + " the later document"),
                    new JobMetric(
                            "verdictLatency",
                            Kind.HISTOGRAM,
                            VERDICTS,
                            "as `earlyAlertLatency`, for the verdicts of documents (not `DELETED`"
                                    + " ones): about the out-of-orderness on a steady stream"),
                    counter(
                            VERDICTS,
                            "clusterMerges",
                            "cluster-merged events emitted on the alerts output: a document matched"
                                + " documents of several near-duplicate clusters (as their buckets"
                                + " knew them), and each cluster but the earliest was merged into"
                                + " it. These records are on the alerts output too, so the records"
                                + " there are `alerts + clusterMerges`"),
                    counter(
                            VERDICTS,
                            "orphanMatches",
                            "matches reported for a document the verdict operator never saw"
                                + " announced (swept after the retention), or for one already"
                                + " decided (an earlier document arrived behind the watermark in a"
                                + " bucket, as when an idle partition resumes with older"
                                + " documents); logged as a warning. Should stay 0"),
                    counter(
                            VERDICTS,
                            "incompleteVerdicts",
                            "verdicts made at the sweep (the retention after the document) without"
                                    + " the reports of all its buckets; logged as a warning. Should"
                                    + " stay 0"),
                    counter(
                            VERDICTS,
                            "pendingVerdictsSpilled",
                            "verdicts being assembled that waited in keyed state (with a sweep"
                                + " timer) rather than on the heap, because the heap budget was"
                                + " full (`neardup.verdict.pending-buffer`): expected in file mode"
                                + " for inputs of more than about 100,000 documents, where every"
                                + " verdict waits for the end of the input; in a stream, a high"
                                + " rate means the budget is too small for the watermark delay and"
                                + " the input rate"),
                    counter(
                            JSON_LINES_SINKS,
                            "recordsWritten",
                            "JSON Lines outputs only (`neardup run` without Kafka): records written"
                                + " per category, the label `category`: a verdict's `verdict`, an"
                                + " alert's `pair` or its cluster event. All records written are"
                                + " Flink's `numRecordsSend`; the run summary shows both"),
                    new JobMetric(
                            "firstRecords",
                            Kind.GAUGE,
                            JSON_LINES_SINKS,
                            "JSON Lines outputs only: the first three records written (not a"
                                    + " number; the run names the first dead letters when every"
                                    + " line was one)"));
}
