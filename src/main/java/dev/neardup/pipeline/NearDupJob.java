package dev.neardup.pipeline;

import dev.neardup.io.Alert;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.Document;
import dev.neardup.io.RawRecord;
import dev.neardup.io.Verdict;
import java.util.Objects;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The neardup job graph (DESIGN.md, "Data flow"), independent of where records come from and go to:
 * the source and the three sinks are given to the constructor, so the embedded file mode, the Kafka
 * mode and the tests build the same graph.
 *
 * <p>Operator uids are part of the savepoint contract: never change them.
 */
public final class NearDupJob {

    /** Stable operator ids (savepoint compatibility). */
    public static final class Uid {
        public static final String SOURCE = "documents-source";
        public static final String PARSE = "parse-documents";
        public static final String SIGNATURE = "signatures";
        public static final String BAND_BUCKET = "band-buckets";
        public static final String SIGNATURE_STORE = "signature-store";
        public static final String VERDICT = "verdicts";
        public static final String ALERT_SINK = "alerts-sink";
        public static final String VERDICT_SINK = "verdicts-sink";
        public static final String DEAD_LETTER_SINK = "dead-letters-sink";

        private Uid() {}
    }

    private final NearDupSettings settings;
    private final Source<RawRecord, ?, ?> source;
    private final WatermarkStrategy<RawRecord> watermarks;
    private final Sink<Alert> alerts;
    private final Sink<Verdict> verdicts;
    private final Sink<DeadLetter> deadLetters;
    private int sinkParallelism = -1;

    public NearDupJob(
            NearDupSettings settings,
            Source<RawRecord, ?, ?> source,
            WatermarkStrategy<RawRecord> watermarks,
            Sink<Alert> alerts,
            Sink<Verdict> verdicts,
            Sink<DeadLetter> deadLetters) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.source = Objects.requireNonNull(source, "source");
        this.watermarks = Objects.requireNonNull(watermarks, "watermarks");
        this.alerts = Objects.requireNonNull(alerts, "alerts sink");
        this.verdicts = Objects.requireNonNull(verdicts, "verdicts sink");
        this.deadLetters = Objects.requireNonNull(deadLetters, "dead-letters sink");
    }

    /** Runs the sinks with this parallelism (1 for sinks that write one local file). */
    public NearDupJob withSinkParallelism(int parallelism) {
        this.sinkParallelism = parallelism;
        return this;
    }

    /** The outputs of the graph, before they reach the sinks (for tests and composition). */
    public record Outputs(
            DataStream<Alert> alerts,
            DataStream<Verdict> verdicts,
            DataStream<DeadLetter> deadLetters) {}

    /** Adds the graph, sinks included, to {@code env}. */
    public Outputs build(StreamExecutionEnvironment env) {
        DataStream<RawRecord> raw =
                env.fromSource(source, watermarks, "documents", TypeInformation.of(RawRecord.class))
                        .uid(Uid.SOURCE)
                        .name("documents");
        Outputs outputs = graph(raw, settings);
        sink(outputs.alerts().sinkTo(alerts), Uid.ALERT_SINK, "alerts");
        sink(outputs.verdicts().sinkTo(verdicts), Uid.VERDICT_SINK, "verdicts");
        sink(outputs.deadLetters().sinkTo(deadLetters), Uid.DEAD_LETTER_SINK, "dead letters");
        return outputs;
    }

    private void sink(DataStreamSink<?> sink, String uid, String name) {
        sink.uid(uid).name(name);
        if (sinkParallelism > 0) {
            sink.setParallelism(sinkParallelism);
        }
    }

    /** The operators between the raw records and the three outputs. */
    public static Outputs graph(DataStream<RawRecord> raw, NearDupSettings settings) {
        SingleOutputStreamOperator<Document> documents =
                raw.process(new ParseDocumentFunction(settings))
                        .uid(Uid.PARSE)
                        .name("parse and validate");
        SingleOutputStreamOperator<BandRecord> bands =
                documents
                        .process(new SignatureFunction(settings))
                        .uid(Uid.SIGNATURE)
                        .name("shingles, MinHash, band keys");
        SingleOutputStreamOperator<SignatureEvent> bucketEvents =
                bands.keyBy(r -> r.bandKey, Types.LONG)
                        .process(new BandBucketFunction(settings))
                        .uid(Uid.BAND_BUCKET)
                        .name("band buckets");
        SingleOutputStreamOperator<VerdictEvent> results =
                bucketEvents
                        .keyBy(e -> e.target, Types.STRING)
                        .process(new SignatureStoreFunction(settings))
                        .uid(Uid.SIGNATURE_STORE)
                        .name("signature store and verification");
        DataStream<VerdictEvent> verdictEvents =
                results.union(bucketEvents.getSideOutput(BandBucketFunction.BAND_DONE));
        SingleOutputStreamOperator<Verdict> verdicts =
                verdictEvents
                        .keyBy(e -> e.instance, Types.STRING)
                        .process(new VerdictFunction(settings))
                        .uid(Uid.VERDICT)
                        .name("verdicts");
        DataStream<DeadLetter> deadLetters =
                documents
                        .getSideOutput(ParseDocumentFunction.DEAD_LETTERS)
                        .union(bands.getSideOutput(ParseDocumentFunction.DEAD_LETTERS));
        return new Outputs(verdicts.getSideOutput(VerdictFunction.ALERTS), verdicts, deadLetters);
    }
}
