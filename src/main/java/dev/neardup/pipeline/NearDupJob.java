package dev.neardup.pipeline;

import dev.neardup.config.NearDupSettings;
import dev.neardup.io.Alert;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.ParsedRecord;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.buckets.BandBucketOperator;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.RecordSerializers;
import dev.neardup.pipeline.records.RoutedBands;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.samples.SampleIntakeFunction;
import dev.neardup.pipeline.samples.SampleStoreFunction;
import dev.neardup.pipeline.verdicts.VerdictOperator;
import dev.neardup.similarity.SimilarityMode;
import java.util.Objects;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * The neardup job graph (docs/design/streaming-operators.md), independent of where records come
 * from and go to: the source and the three sinks are given to the constructor, so the embedded file
 * mode, the Kafka mode and the tests build the same graph.
 *
 * <p>Operator uids are part of the savepoint contract: never change them.
 */
public final class NearDupJob {

    /** Stable operator ids (savepoint compatibility). */
    public static final class Uid {
        public static final String SOURCE = "documents-source";
        public static final String SIGNATURE = "signatures";
        public static final String WATERMARKS = "watermarks";

        /**
         * State layout 2 (2026-11): buckets hold their members' b-bit signatures; no signature
         * store. Layout 1 used "band-buckets", "signature-store" and "verdicts".
         */
        public static final String BAND_BUCKET = "band-buckets-2";

        public static final String VERDICT = "verdicts-2";

        /**
         * The stateless step on the bucket subtasks that turns each {@link RoutedBands} back into
         * band records ({@link BandRouting}); absent before 2026-11 (no state, so older savepoints
         * restore).
         */
        public static final String BAND_RECORDS = "band-records";

        /** With a sample store only: the {@link SampleStoreFunction}. */
        public static final String SAMPLE_STORE = "containment-sample-store";

        /** With a sample store only: the {@link SampleIntakeFunction}. */
        public static final String SAMPLE_INTAKE = "containment-sample-intake";

        public static final String ALERT_SINK = "alerts-sink";
        public static final String VERDICT_SINK = "verdicts-sink";
        public static final String DEAD_LETTER_SINK = "dead-letters-sink";

        private Uid() {}
    }

    /** The names of the sinks (their metrics' operator names start with them). */
    public static final String ALERTS = "alerts";

    public static final String VERDICTS = "verdicts";
    public static final String DEAD_LETTERS = "dead letters";

    private final NearDupSettings settings;
    private final Source<ParsedRecord, ?, ?> source;
    private final WatermarkStrategy<ParsedRecord> watermarks;
    private final Sink<Alert> alerts;
    private final Sink<Verdict> verdicts;
    private final Sink<DeadLetter> deadLetters;
    private int sinkParallelism = -1;
    private boolean watermarksAfterSource;

    public NearDupJob(
            NearDupSettings settings,
            Source<ParsedRecord, ?, ?> source,
            WatermarkStrategy<ParsedRecord> watermarks,
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

    /**
     * Generates the watermarks in an operator after the source instead of per source split: for a
     * watched file, whose splits end when the file has been read (a finished split stops emitting
     * watermarks, so its last documents would wait forever), while the operator's timer goes on.
     */
    public NearDupJob withWatermarksAfterSource() {
        this.watermarksAfterSource = true;
        return this;
    }

    /** The outputs of the graph, before they reach the sinks (for tests and composition). */
    public record Outputs(
            DataStream<Alert> alerts,
            DataStream<Verdict> verdicts,
            DataStream<DeadLetter> deadLetters) {}

    /**
     * Default max parallelism (key groups) when the configuration sets none: the state's keys are
     * spread over this many groups, so it bounds how far the job can ever scale out and cannot
     * change once state exists. Set {@code pipeline.max-parallelism} before the first run to go
     * beyond it.
     */
    public static final int DEFAULT_MAX_PARALLELISM = 128;

    /**
     * Adds the graph, sinks included, to {@code env}. Generic (Kryo) types are disabled: every
     * record and state type has a Flink serializer, so the state can evolve. Object reuse is on.
     */
    public Outputs build(StreamExecutionEnvironment env) {
        Outputs outputs = graph(parsed(env), settings);
        sink(outputs.alerts().sinkTo(alerts), Uid.ALERT_SINK, ALERTS);
        sink(outputs.verdicts().sinkTo(verdicts), Uid.VERDICT_SINK, VERDICTS);
        sink(outputs.deadLetters().sinkTo(deadLetters), Uid.DEAD_LETTER_SINK, DEAD_LETTERS);
        return outputs;
    }

    /**
     * Adds the graph with its keyed path cut to {@code env}: the same source, parsing and signature
     * operator as {@link #build}, whose band records go to a discarding sink chained to it (no band
     * buckets, no verdicts; the three sinks are not used). {@code bench} measures the whole job
     * against it.
     */
    public void buildKeyedPathCut(StreamExecutionEnvironment env) {
        signatures(parsed(env), settings)
                .sinkTo(new DiscardingSink<>())
                .uid("band-records-discarded")
                .name("band records (discarded)");
    }

    /** Configures {@code env} (see {@link #build}) and adds the source, with its watermarks. */
    private DataStream<ParsedRecord> parsed(StreamExecutionEnvironment env) {
        Configuration pipeline = new Configuration();
        pipeline.set(PipelineOptions.GENERIC_TYPES, false);
        // No operator keeps or changes an input record after processing it, so chained operators
        // may pass records without copying them.
        pipeline.set(PipelineOptions.OBJECT_REUSE, true);
        env.configure(pipeline);
        if (env.getConfig().getMaxParallelism() <= 0) {
            env.setMaxParallelism(DEFAULT_MAX_PARALLELISM);
        }
        DataStream<ParsedRecord> parsed =
                env.fromSource(
                                source,
                                watermarksAfterSource
                                        ? WatermarkStrategy.noWatermarks()
                                        : watermarks,
                                "documents",
                                TypeInformation.of(ParsedRecord.class))
                        .uid(Uid.SOURCE)
                        .name("documents (parse and validate)");
        if (watermarksAfterSource) {
            parsed =
                    parsed.assignTimestampsAndWatermarks(watermarks)
                            .uid(Uid.WATERMARKS)
                            .name("watermarks");
        }
        return parsed;
    }

    private void sink(DataStreamSink<?> sink, String uid, String name) {
        sink.uid(uid).name(name);
        if (sinkParallelism > 0) {
            sink.setParallelism(sinkParallelism);
        }
    }

    /**
     * The operators between the parsed records and the three outputs: two exchanges after the
     * signature operator, to the bucket subtasks that own the band keys' key groups ({@link
     * BandRouting}; deletions too, one copy per subtask: {@link DeletionCopies}) and by document to
     * the verdicts, and the stages the mode's {@link CandidatePath} adds between them (a sample
     * intake and store: two more).
     */
    public static Outputs graph(DataStream<ParsedRecord> parsed, NearDupSettings settings) {
        SingleOutputStreamOperator<RoutedBands> bands = signatures(parsed, settings);
        // The exchange is the custom partitioning; reinterpretAsKeyedStream then only declares the
        // key (applied to the partitioned stream directly, its forward partitioner would replace
        // the custom one: the unpacking step in between keeps the exchange where it is).
        DataStream<BandRecord> unpacked =
                bands.partitionCustom(new BandRouting.ToTarget(), r -> r.target)
                        .flatMap(new BandRouting.Unpack(), RecordSerializers.BAND_RECORD)
                        .uid(Uid.BAND_RECORDS)
                        .name("band records");
        SingleOutputStreamOperator<VerdictEvent> found =
                DataStreamUtils.reinterpretAsKeyedStream(unpacked, r -> r.bandKey, Types.LONG)
                        .transform(
                                "band buckets",
                                RecordSerializers.VERDICT_EVENT,
                                new BandBucketOperator(settings))
                        .uid(Uid.BAND_BUCKET)
                        .name("band buckets");
        DataStream<VerdictEvent> toVerdicts =
                found.union(bands.getSideOutput(SignatureFunction.ANNOUNCE));
        DataStream<VerdictEvent> afterBuckets =
                CandidatePath.of(SimilarityMode.of(settings)).addStages(bands, found, settings);
        if (afterBuckets != null) {
            toVerdicts = toVerdicts.union(afterBuckets);
        }
        SingleOutputStreamOperator<Verdict> verdicts =
                toVerdicts
                        .keyBy(VerdictEvent::key, Types.STRING)
                        .transform(
                                "verdicts",
                                TypeInformation.of(Verdict.class),
                                new VerdictOperator(settings))
                        .uid(Uid.VERDICT)
                        .name("verdicts");
        return new Outputs(
                verdicts.getSideOutput(VerdictOperator.ALERTS),
                verdicts,
                bands.getSideOutput(SignatureFunction.DEAD_LETTERS));
    }

    /** The signature operator on the parsed records: the start of {@link #graph} and the cut. */
    public static SingleOutputStreamOperator<RoutedBands> signatures(
            DataStream<ParsedRecord> parsed, NearDupSettings settings) {
        return parsed.process(new SignatureFunction(settings), RecordSerializers.ROUTED_BANDS)
                .uid(Uid.SIGNATURE)
                .name("shingles, MinHash, band keys");
    }
}
