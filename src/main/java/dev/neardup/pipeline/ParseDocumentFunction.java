package dev.neardup.pipeline;

import dev.neardup.io.DeadLetter;
import dev.neardup.io.Document;
import dev.neardup.io.DocumentParser;
import dev.neardup.io.RawRecord;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Parses and validates raw input records (stateless). Valid documents go on; anything else goes to
 * the {@link #DEAD_LETTERS} side output with the original payload and a reason, and the job keeps
 * running.
 */
public class ParseDocumentFunction extends ProcessFunction<RawRecord, Document> {

    private static final long serialVersionUID = 1L;

    /** Side output for records that are not valid documents. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>(
                    "dead-letters",
                    org.apache.flink.api.common.typeinfo.TypeInformation.of(DeadLetter.class));

    private final NearDupSettings settings;
    private transient DocumentParser parser;
    private transient Counter documentsIn;
    private transient Counter deadLetters;

    public ParseDocumentFunction(NearDupSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        parser = new DocumentParser(settings.fields(), settings.maxDocumentBytes());
        documentsIn = getRuntimeContext().getMetricGroup().counter("documentsIn");
        deadLetters = getRuntimeContext().getMetricGroup().counter("deadLetters");
    }

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<Document> out) {
        long now = ctx.timerService().currentProcessingTime();
        DocumentParser.Result result = parser.parse(raw, now, now);
        if (result.document() != null) {
            documentsIn.inc();
            out.collect(result.document());
        } else {
            deadLetters.inc();
            ctx.output(DEAD_LETTERS, result.deadLetter());
        }
    }
}
