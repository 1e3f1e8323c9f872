package dev.neardup.batch;

import dev.neardup.config.VerifyMode;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.Document;
import dev.neardup.io.ParsedRecord;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.pipeline.SignatureFunction;
import dev.neardup.similarity.BatchSketches;
import dev.neardup.sketch.BbitMinHash;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.text.ContentType;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The dedupe job's first step after the source: each document's shingles and full MinHash signature
 * ({@link DocumentSketcher}), or with cosine similarity its SimHash fingerprint ({@link
 * dev.neardup.lsh.SimHashSketcher}): the streaming job's sketch, and with exact verification
 * ({@link VerifyMode#EXACT}) the document's shingle set; dead letters of the parser, and documents
 * without a word ({@code NO_TEXT}), to {@link #DEAD_LETTERS}; a deletion line passes on as a {@link
 * DedupeDoc} marked deleted. A document whose sketching throws is a dead letter {@code
 * INTERNAL_ERROR}: one document cannot fail the job.
 */
public class DedupeSketchFunction extends ProcessFunction<ParsedRecord, DedupeDoc> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    /**
     * With exact verification and without the repeat filter: every document's shingle set, straight
     * to the verification (the steps between carry only the signature). With the filter, the set
     * travels with the document ({@link DedupeDoc#shingles}) to {@link RouteByRepeatsFunction}.
     */
    public static final OutputTag<DocShingles> SHINGLES =
            new OutputTag<>("shingles", DedupeSerializers.DOC_SHINGLES);

    private final DedupeSettings settings;
    private transient TextSketcher sketcher;
    private transient BatchSketches batch;
    private transient Map<String, Integer> inputIndex;
    private transient LongCounter documents;
    private transient LongCounter deadLetters;
    private transient LongCounter deletions;

    public DedupeSketchFunction(DedupeSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        sketcher = settings.mode().newSketcher();
        batch = settings.batch();
        inputIndex = new HashMap<>();
        for (int i = 0; i < settings.inputNames().size(); i++) {
            inputIndex.putIfAbsent(settings.inputNames().get(i), i);
        }
        documents = DedupeCounters.counter(getRuntimeContext(), DedupeJob.DOCUMENTS);
        deadLetters = DedupeCounters.counter(getRuntimeContext(), DedupeJob.DEAD_LETTERS);
        deletions = DedupeCounters.counter(getRuntimeContext(), DedupeJob.DELETIONS);
    }

    @Override
    public void processElement(ParsedRecord record, Context ctx, Collector<DedupeDoc> out) {
        if (record.deadLetter != null) {
            deadLetters.add(1);
            ctx.output(DEAD_LETTERS, record.deadLetter);
            return;
        }
        DedupeDoc d = new DedupeDoc();
        if (record.deletion != null) {
            deletions.add(1);
            d.id = record.deletion.id;
            d.url = record.deletion.url;
            d.source = record.deletion.instance;
            d.eventTime = record.deletion.eventTime;
            d.order = order(d.source);
            d.deleted = true;
            out.collect(d);
            return;
        }
        Document doc = record.document;
        ContentType type;
        long[] shingles = null;
        DocumentSketcher.Sketch sketch;
        try {
            type = ContentType.detect(doc.contentType, doc.content);
            if (settings.exact()) {
                BatchSketches.Exact exact = batch.sketchWithShingles(sketcher, doc.content, type);
                sketch = exact.sketch();
                shingles = exact.shingles();
            } else {
                sketch = sketcher.sketch(doc.content, type);
            }
        } catch (RuntimeException | StackOverflowError e) {
            // One document cannot fail the job: it is a dead letter INTERNAL_ERROR.
            deadLetters.add(1);
            ctx.output(
                    DEAD_LETTERS,
                    SignatureFunction.internalErrorDeadLetter(doc, e, System.currentTimeMillis()));
            return;
        }
        if (sketch.shingleCount() == 0) {
            deadLetters.add(1);
            ctx.output(
                    DEAD_LETTERS,
                    SignatureFunction.noTextDeadLetter(doc, type, System.currentTimeMillis()));
            return;
        }
        documents.add(1);
        d.id = doc.id;
        d.url = doc.url;
        d.source = doc.instance;
        d.eventTime = doc.eventTime;
        d.length = doc.content.length();
        d.order = order(doc.instance);
        d.signature = sketch.signature();
        // Exact copies: equal signatures, or with exact verification equal shingle sets.
        d.fingerprint =
                shingles != null
                        ? ShingleSet.fingerprint(shingles)
                        : BbitMinHash.fingerprint(d.signature);
        d.key = VertexKeys.key(d.eventTime, d.id);
        if (shingles != null && settings.repeatFilter()) {
            d.shingles = shingles;
        } else if (shingles != null) {
            ctx.output(SHINGLES, new DocShingles(d.key, d.order, shingles));
        }
        out.collect(d);
    }

    /** Input order of a record from its source, {@code name:line}. */
    long order(String source) {
        int colon = source == null ? -1 : source.lastIndexOf(':');
        if (colon < 0) {
            return 0;
        }
        Integer index = inputIndex.get(source.substring(0, colon));
        long line;
        try {
            line = Long.parseLong(source.substring(colon + 1));
        } catch (NumberFormatException e) {
            line = 0;
        }
        return ((long) (index == null ? 0 : index) << 40) | (line & ((1L << 40) - 1));
    }
}
