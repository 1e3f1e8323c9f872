package dev.neardup.runtime;

import dev.neardup.config.NearDupOptions;
import dev.neardup.io.Alert;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.DocumentFileSource;
import dev.neardup.io.DocumentLinesFormat;
import dev.neardup.io.JsonLinesFormat;
import dev.neardup.io.JsonLinesSink;
import dev.neardup.io.LineSplits;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.DocumentWatermarks;
import dev.neardup.pipeline.NearDupJob;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.pipeline.NeardupRocksDbOptions;
import java.time.Duration;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The embedded mode: the job on Flink's in-process MiniCluster, from a JSON Lines file to JSON
 * Lines files or standard output, with the RocksDB state backend and checkpoints, as DESIGN.md's
 * "anyone can try it on one machine" asks.
 */
public final class EmbeddedJob {

    /** The sinks' names, under which {@link JobCounts#written} counts their records. */
    public static final String ALERTS = NearDupJob.ALERTS;

    public static final String VERDICTS = NearDupJob.VERDICTS;
    public static final String DEAD_LETTERS = NearDupJob.DEAD_LETTERS;

    /** The category of the alerts that are pairs (the others are cluster events). */
    public static final String PAIR = "pair";

    /**
     * The checkpoint interval on this machine when neither --checkpoint-interval nor -D
     * execution.checkpointing.interval sets one (on a cluster: the cluster's configuration).
     */
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);

    private EmbeddedJob() {}

    /** The validated job settings of {@code conf}; an invalid option is a usage error. */
    public static NearDupSettings settings(Configuration conf) {
        return NeardupException.usageIfInvalid(() -> NearDupSettings.from(conf));
    }

    /**
     * The Flink configuration of the embedded mode on top of {@code base}: RocksDB, incremental
     * checkpoints every {@code checkpointInterval} into {@code workDir}, no restarts (a local run
     * fails fast), temporary files (Flink's and the REST endpoint's) under {@code workDir}, 512 MB
     * of managed memory for RocksDB and 16 MB memtables, watermarks every 50 ms. Keys already set
     * in {@code base} win.
     */
    public static Configuration configuration(
            Configuration base, java.nio.file.Path workDir, Duration checkpointInterval) {
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
        conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        // Most band buckets a document reaches are new: a Bloom filter answers those reads
        // without touching the SST files (measured: +35% whole-job throughput in bench).
        conf.setString("state.backend.rocksdb.use-bloom-filter", "true");
        // ... and so does the memtable, with this factory's whole-key Bloom filter (measured:
        // see NeardupRocksDbOptions).
        conf.setString(
                "state.backend.rocksdb.options-factory", NeardupRocksDbOptions.class.getName());
        // Memtables of 16 MB instead of 64: each column family's active memtable takes an arena
        // block (1/8 of it) and its Bloom filter (1/10) from the slot's write buffer budget as
        // soon as it is written, and containment mode's operators (buckets, sample intake and
        // store, verdicts) have enough column families to fill that budget at 64 MB, so memtables
        // flushed after a few writes each. Measured, run --containment 0.8: first 2,000 Debian
        // pages 212 s at 64 MB, 23 s at 32 and 16 MB, 19.5 s at 8 MB; the 12,061-page crawl 175 s
        // at 32 MB, 138 s at 16 MB, 136 s at 8 MB (at 64 MB: no verdict after 25 minutes).
        // Resemblance, bench 100,000 documents, alternating: 6,592 and 7,045 documents/s at 64 MB
        // against 7,397 and 7,911 at 32 MB; 7,621 and 8,519 at 32 MB against 7,861 and 8,363 at
        // 16 MB.
        conf.setString("state.backend.rocksdb.writebuffer.size", "16mb");
        // RocksDB's block cache and write buffers come from managed memory, 128 MB by default in
        // a local MiniCluster: with a few million band buckets the reads of the buckets then go
        // to disk. Measured with bench, 200,000 documents: 3,100 -> 10,000 documents/s with 512
        // MB (1 GB gave no more). Off-heap, taken only as RocksDB fills it.
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("512m"));
        // Watermarks every 50 ms instead of 200: band buckets take documents in when the
        // watermark passes them, so this is most of the alert latency on a fast input. Measured
        // with bench (60,000 documents), alternating: alert latency p50 348-400 -> 176-205 ms,
        // throughput unchanged within noise.
        conf.set(PipelineOptions.AUTO_WATERMARK_INTERVAL, Duration.ofMillis(50));
        conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        conf.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                workDir.resolve("checkpoints").toUri().toString());
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, checkpointInterval);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        conf.set(CoreOptions.TMP_DIRS, workDir.resolve("tmp").toString());
        // The REST endpoint's upload directory, else flink-web-upload in java.io.tmpdir.
        conf.set(WebOptions.UPLOAD_DIR, workDir.resolve("tmp").toString());
        conf.addAll(base);
        return conf;
    }

    /**
     * Starts the job and returns at once. With {@code continuous}, the source keeps watching the
     * input and the job runs until stopped (the benchmark stops it with a savepoint to measure
     * state), with the watermarks of an unbounded input; otherwise the whole input is ordered and
     * the verdicts come at its end.
     *
     * @param input the JSON Lines file
     * @param alerts output file, {@link JsonLinesSink#STDOUT}, {@link JsonLinesSink#STDERR}, or
     *     null to discard (records are still counted)
     * @param verdicts likewise
     * @param deadLetters likewise
     */
    public static JobClient start(
            Configuration conf,
            NearDupSettings settings,
            java.nio.file.Path input,
            String alerts,
            String verdicts,
            String deadLetters,
            boolean continuous)
            throws Exception {
        return start(conf, settings, input, alerts, verdicts, deadLetters, continuous, false);
    }

    /**
     * Starts the job with its keyed path cut ({@link NearDupJob#buildKeyedPathCut}) over a watched
     * {@code input}, as {@link #start} with {@code continuous}, and returns at once: it runs until
     * cancelled, and its signature operator counts the documents ({@link JobCounts#DOCUMENTS}).
     */
    public static JobClient startKeyedPathCut(
            Configuration conf, NearDupSettings settings, java.nio.file.Path input)
            throws Exception {
        return start(conf, settings, input, null, null, null, true, true);
    }

    private static JobClient start(
            Configuration conf,
            NearDupSettings settings,
            java.nio.file.Path input,
            String alerts,
            String verdicts,
            String deadLetters,
            boolean continuous,
            boolean keyedPathCut)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        // A watched file is one split: its watermarks assume that the file is read in order.
        LineSplits plan =
                continuous
                        ? null
                        : LineSplits.plan(
                                input,
                                conf.get(NearDupOptions.FILE_SPLIT_SIZE),
                                env.getParallelism());
        DocumentLinesFormat format =
                new DocumentLinesFormat(
                        new JsonLinesFormat(
                                input.getFileName().toString(),
                                settings.input().maxDocumentBytes(),
                                plan,
                                0),
                        settings.input().parser(),
                        continuous
                                ? DocumentLinesFormat.UndatedLines.READ_TIME
                                : DocumentLinesFormat.UndatedLines.POSITION);
        var builder =
                format.fileSource(
                        new org.apache.flink.core.fs.Path(input.toAbsolutePath().toUri()), plan);
        if (continuous) {
            builder.monitorContinuously(Duration.ofSeconds(1));
        }
        NearDupJob job =
                new NearDupJob(
                                settings,
                                new DocumentFileSource(builder.build(), format),
                                continuous
                                        ? DocumentWatermarks.boundedOutOfOrderness(
                                                settings.watermarks())
                                        : DocumentWatermarks.wholeInput(),
                                new JsonLinesSink<Alert>(
                                        alerts, a -> a.isClusterMerge() ? a.event : PAIR),
                                new JsonLinesSink<Verdict>(verdicts, v -> v.verdict),
                                new JsonLinesSink<DeadLetter>(deadLetters))
                        .withSinkParallelism(1);
        if (continuous) {
            job.withWatermarksAfterSource();
        }
        if (keyedPathCut) {
            job.buildKeyedPathCut(env);
        } else {
            job.build(env);
        }
        return env.executeAsync("neardup " + input.getFileName());
    }

    /** Runs the job to the end of the input. */
    public static JobExecutionResult run(
            Configuration conf,
            NearDupSettings settings,
            java.nio.file.Path input,
            String alerts,
            String verdicts,
            String deadLetters)
            throws Exception {
        return start(conf, settings, input, alerts, verdicts, deadLetters, false)
                .getJobExecutionResult()
                .get();
    }
}
