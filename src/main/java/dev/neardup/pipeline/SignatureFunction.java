package dev.neardup.pipeline;

import dev.neardup.io.DeadLetter;
import dev.neardup.io.Document;
import dev.neardup.io.DocumentParser;
import dev.neardup.io.Json;
import dev.neardup.io.RawRecord;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.text.ContentType;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The signature operator (stateless): document text, shingles, MinHash signature, band keys, and
 * one {@link BandRecord} per band. A document without a single token goes to the dead letters
 * ({@code NO_TEXT}) with the parsed document re-serialised as its payload.
 */
public class SignatureFunction extends ProcessFunction<Document, BandRecord> {

    private static final long serialVersionUID = 1L;

    private final NearDupSettings settings;
    private transient DocumentSketcher sketcher;
    private transient Counter noText;

    public SignatureFunction(NearDupSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        sketcher = settings.newSketcher();
        noText = getRuntimeContext().getMetricGroup().counter("documentsWithoutText");
    }

    @Override
    public void processElement(Document doc, Context ctx, Collector<BandRecord> out) {
        ContentType type = ContentType.detect(doc.contentType, doc.content);
        DocumentSketcher.Sketch sketch = sketcher.sketch(doc.content, type);
        if (sketch.shingleCount() == 0) {
            noText.inc();
            ctx.output(
                    ParseDocumentFunction.DEAD_LETTERS,
                    noTextDeadLetter(doc, type, ctx.timerService().currentProcessingTime()));
            return;
        }
        short[] compact = CompactSignature.of(sketch.signature());
        long[] keys = sketch.bandKeys();
        for (int j = 0; j < keys.length; j++) {
            BandRecord r = new BandRecord();
            r.bandKey = keys[j];
            r.band = j;
            r.docId = doc.id;
            r.instance = doc.instance;
            r.url = doc.url;
            r.eventTime = doc.eventTime;
            r.signature = compact;
            r.bandKeys = keys;
            out.collect(r);
        }
    }

    static DeadLetter noTextDeadLetter(Document doc, ContentType type, long now) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", doc.id);
        json.put("url", doc.url);
        json.put("contentType", doc.contentType);
        json.put("content", doc.content);
        RawRecord raw =
                new RawRecord(Json.write(json).getBytes(StandardCharsets.UTF_8), doc.instance);
        return DocumentParser.deadLetter(
                raw,
                DeadLetter.Reason.NO_TEXT,
                "no words in the "
                        + (type == ContentType.HTML ? "visible text of the HTML" : "text"),
                doc.id,
                now);
    }
}
