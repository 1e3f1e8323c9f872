package dev.neardup.pipeline;

import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.Deletion;
import dev.neardup.io.Document;
import dev.neardup.io.DocumentParser;
import dev.neardup.io.Json;
import dev.neardup.io.ParsedRecord;
import dev.neardup.io.RawRecord;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.RecordSerializers;
import dev.neardup.pipeline.records.RoutedBands;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.samples.SampleIntakeFunction;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.similarity.Verification;
import dev.neardup.text.ContentType;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The signature operator (stateless), right after the source: dead letters of the parser go to
 * {@link #DEAD_LETTERS}; each document gets its shingles, MinHash signature and band keys, one
 * {@link BandRecord} per band, sent as one {@link RoutedBands} per bucket subtask ({@link
 * BandRouting}), and one announcement (to the verdicts, {@link #ANNOUNCE}); cosine similarity
 * ({@link SimilarityFamily#COSINE}): its SimHash fingerprint and one band record per permuted-block
 * table ({@link Verification#pack}). A document without a single token ({@code NO_TEXT}), or whose
 * sketching throws ({@code INTERNAL_ERROR}), goes to the dead letters with the parsed document
 * re-serialised as its payload: one document cannot fail the job. A deletion goes to every
 * band-bucket subtask as one copy ({@link DeletionCopies}), and to the verdicts as an announcement.
 *
 * <p>The mode's {@link CandidatePath} decides what band records carry of the sketch: all of it, or
 * nothing, the sketch going once to the {@link SampleIntakeFunction} ({@link #SAMPLES}).
 *
 * <p>A document whose event time the watermark has already passed (late: more out of order than the
 * watermarks allow) is ordered as if it had been fetched just after the watermark: its event time
 * becomes the watermark + 1 ms, so every document judged final before it stays final. A late
 * deletion is moved there too.
 */
public class SignatureFunction extends ProcessFunction<ParsedRecord, RoutedBands> {

    private static final long serialVersionUID = 1L;

    /** Side output for records that are not usable documents. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    /** Side output: one announcement per document or deletion, to the verdict operator. */
    public static final OutputTag<VerdictEvent> ANNOUNCE =
            new OutputTag<>("announce", RecordSerializers.VERDICT_EVENT);

    /** Side output via a sample store: each document's sample and deletion, to the intake. */
    public static final OutputTag<SampleStoreRecord> SAMPLES =
            new OutputTag<>("samples", TypeInformation.of(SampleStoreRecord.class));

    private final NearDupSettings settings;
    private transient TextSketcher sketcher;
    private transient Verification verification;
    private transient Counter documentsIn;
    private transient Counter deadLetters;
    private transient Counter noText;
    private transient Counter late;
    private transient Counter deletionsIn;
    private transient DeletionCopies deletionCopies;
    private transient BandRouting routing;
    private transient CandidatePath path;

    public SignatureFunction(NearDupSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        SimilarityMode mode = SimilarityMode.of(settings);
        sketcher = mode.newSketcher();
        verification = mode.verification();
        path = CandidatePath.of(mode);
        var metrics = getRuntimeContext().getMetricGroup();
        documentsIn = metrics.counter("documentsIn");
        deadLetters = metrics.counter("deadLetters");
        noText = metrics.counter("documentsWithoutText");
        late = metrics.counter("lateDocuments");
        deletionsIn = metrics.counter("deletionsIn");
        var task = getRuntimeContext().getTaskInfo();
        deletionCopies = new DeletionCopies(task.getMaxNumberOfParallelSubtasks());
        routing =
                new BandRouting(
                        task.getMaxNumberOfParallelSubtasks(), task.getNumberOfParallelSubtasks());
    }

    @Override
    public void processElement(ParsedRecord record, Context ctx, Collector<RoutedBands> out) {
        if (record.deadLetter != null) {
            deadLetters.inc();
            ctx.output(DEAD_LETTERS, record.deadLetter);
            return;
        }
        if (record.deletion != null) {
            delete(record.deletion, ctx, out);
            return;
        }
        Document doc = record.document;
        ContentType type;
        DocumentSketcher.Sketch sketch;
        byte[] packed;
        try {
            type = ContentType.detect(doc.contentType, doc.content);
            sketch = sketcher.sketch(doc.content, type);
            packed = sketch.shingleCount() == 0 ? null : verification.pack(sketch.signature());
        } catch (RuntimeException | StackOverflowError e) {
            // One document cannot fail the job: it is a dead letter INTERNAL_ERROR.
            deadLetters.inc();
            ctx.output(
                    DEAD_LETTERS,
                    internalErrorDeadLetter(doc, e, ctx.timerService().currentProcessingTime()));
            return;
        }
        if (sketch.shingleCount() == 0) {
            noText.inc();
            deadLetters.inc();
            ctx.output(
                    DEAD_LETTERS,
                    noTextDeadLetter(doc, type, ctx.timerService().currentProcessingTime()));
            return;
        }
        documentsIn.inc();
        long eventTime = inOrder(doc.eventTime, ctx);
        ctx.output(ANNOUNCE, VerdictEvent.announce(doc.id, doc.url, eventTime, doc.instance));
        long fingerprint = sketch.identity();
        packed = path.route(doc, eventTime, fingerprint, packed, verification, ctx);
        routing.route(sketch.bandKeys(), doc.id, doc.url, eventTime, fingerprint, packed, out);
    }

    /** {@code eventTime}, or just after the watermark if that passed it already (counted late). */
    private long inOrder(long eventTime, Context ctx) {
        long watermark = ctx.timerService().currentWatermark();
        if (eventTime > watermark) {
            return eventTime;
        }
        late.inc();
        return watermark + 1;
    }

    /** A deletion: to every band bucket, and to the verdicts (a DELETED verdict). */
    private void delete(Deletion deletion, Context ctx, Collector<RoutedBands> out) {
        deletionsIn.inc();
        long eventTime = inOrder(deletion.eventTime, ctx);
        routing.routeDeletion(deletionCopies, deletion.id, eventTime, out);
        path.deleted(deletion.id, eventTime, ctx);
        ctx.output(
                ANNOUNCE,
                VerdictEvent.deletion(deletion.id, deletion.url, eventTime, deletion.instance));
    }

    /**
     * The dead letter {@code NO_TEXT} of a document without a word, with the parsed document
     * re-serialised as its payload (also written by {@code neardup dedupe}).
     */
    public static DeadLetter noTextDeadLetter(Document doc, ContentType type, long now) {
        return DocumentParser.deadLetter(
                asRawRecord(doc),
                DeadLetter.Reason.NO_TEXT,
                "no words in the "
                        + (type == ContentType.HTML ? "visible text of the HTML" : "text"),
                doc.id,
                now);
    }

    /**
     * The dead letter {@code INTERNAL_ERROR} of a document whose sketching threw {@code e}, with
     * the parsed document re-serialised as its payload (also written by {@code neardup dedupe}).
     */
    public static DeadLetter internalErrorDeadLetter(Document doc, Throwable e, long now) {
        org.slf4j.LoggerFactory.getLogger(SignatureFunction.class)
                .warn(
                        "sketching document {} at {} failed; it is a dead letter",
                        doc.id,
                        doc.instance,
                        e);
        return DeadLetter.internalError(asRawRecord(doc), doc.id, e, "sketching", now);
    }

    /** A parsed document as a raw record again: its fields as JSON, its source. */
    private static RawRecord asRawRecord(Document doc) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", doc.id);
        json.put("url", doc.url);
        json.put("contentType", doc.contentType);
        json.put("content", doc.content);
        return new RawRecord(Json.write(json).getBytes(StandardCharsets.UTF_8), doc.instance);
    }
}
