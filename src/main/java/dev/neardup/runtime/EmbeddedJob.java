package dev.neardup.runtime;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.io.Alert;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.DocumentLinesFormat;
import dev.neardup.io.InputFiles;
import dev.neardup.io.InputOrder;
import dev.neardup.io.JsonLinesSink;
import dev.neardup.io.ParsedRecord;
import dev.neardup.io.SortedLines;
import dev.neardup.io.SortedRecords;
import dev.neardup.io.Verdict;
import dev.neardup.io.WarcDocuments;
import dev.neardup.pipeline.DocumentWatermarks;
import dev.neardup.pipeline.NearDupJob;
import dev.neardup.pipeline.NeardupRocksDbOptions;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ConfigurationUtils;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The embedded mode: the job on Flink's in-process MiniCluster, from a JSON Lines file to JSON
 * Lines files or standard output, with the RocksDB state backend and checkpoints.
 */
public final class EmbeddedJob {

    /** The sinks' names, under which {@link JobCounts#written} counts their records. */
    public static final String ALERTS = NearDupJob.ALERTS;

    public static final String VERDICTS = NearDupJob.VERDICTS;
    public static final String DEAD_LETTERS = NearDupJob.DEAD_LETTERS;

    /** The category of the alerts that are pairs (the others are cluster events). */
    public static final String PAIR = "pair";

    /**
     * The checkpoint interval of a Kafka run on this machine when neither --checkpoint-interval nor
     * -D execution.checkpointing.interval sets one (on a cluster: the cluster's configuration). A
     * run over files takes none unless told ({@link #FILE_RUN_CHECKPOINT_INTERVAL}).
     */
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);

    /**
     * The checkpoint interval of a run over files unless told: none. Such a run fails fast (no
     * restarts) and is run again from its first record, so a checkpoint would only cost: the
     * RocksDB flush and the copy of the state, about 1.3 s of a 24 s run of 303,000 pages.
     */
    public static final Duration FILE_RUN_CHECKPOINT_INTERVAL = null;

    private EmbeddedJob() {}

    /** The validated job settings of {@code conf}; an invalid option is a usage error. */
    public static NearDupSettings settings(Configuration conf) {
        return NeardupException.usageIfInvalid(() -> NearDupSettings.from(conf));
    }

    /**
     * The Flink configuration of the embedded mode on top of {@code base}: RocksDB, incremental
     * checkpoints every {@code checkpointInterval} (none when null) into {@code workDir}, no
     * restarts (a local run fails fast), temporary files (Flink's and the REST endpoint's) under
     * {@code workDir}, 512 MB of managed memory for RocksDB, 16 MB memtables and universal
     * compaction, watermarks every 50 ms. Keys already set in {@code base} win.
     */
    public static Configuration configuration(
            Configuration base, java.nio.file.Path workDir, Duration checkpointInterval) {
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
        conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        // Why these RocksDB, memory and watermark settings, with the measurements:
        // docs/design/embedded-mode.md.
        conf.setString("state.backend.rocksdb.use-bloom-filter", "true");
        conf.setString(
                "state.backend.rocksdb.options-factory", NeardupRocksDbOptions.class.getName());
        conf.setString("state.backend.rocksdb.writebuffer.size", "16mb");
        conf.setString("state.backend.rocksdb.compaction.style", "UNIVERSAL");
        conf.setString("state.backend.rocksdb.compression.per.level", "LZ4_COMPRESSION");
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("512m"));
        conf.set(PipelineOptions.AUTO_WATERMARK_INTERVAL, Duration.ofMillis(50));
        conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        conf.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                workDir.resolve("checkpoints").toUri().toString());
        if (checkpointInterval != null) {
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, checkpointInterval);
        }
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

    /**
     * Starts the job over the local files {@code inputs}, read in this order (any mix of JSON Lines
     * and WARC), and returns at once; as {@link #start} otherwise. The input's order is measured
     * first and told to {@code order}.
     */
    public static JobClient start(
            Configuration conf,
            NearDupSettings settings,
            List<java.nio.file.Path> inputs,
            String alerts,
            String verdicts,
            String deadLetters,
            Consumer<InputOrder> order)
            throws Exception {
        return start(conf, settings, inputs, alerts, verdicts, deadLetters, false, false, order);
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
        return start(
                conf,
                settings,
                List.of(input),
                alerts,
                verdicts,
                deadLetters,
                continuous,
                keyedPathCut,
                order -> {});
    }

    private static JobClient start(
            Configuration conf,
            NearDupSettings settings,
            List<java.nio.file.Path> inputs,
            String alerts,
            String verdicts,
            String deadLetters,
            boolean continuous,
            boolean keyedPathCut,
            Consumer<InputOrder> order)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        // A file's run starts its MiniCluster while it reads the file's order; it is closed
        // unless the job took it.
        EarlyMiniCluster early =
                !continuous && env instanceof LocalStreamEnvironment
                        ? EarlyMiniCluster.start(conf)
                        : null;
        try (EarlyMiniCluster unlessTaken = early) {
            if (early != null) {
                env = early.environment();
            }
            if (continuous && (inputs.size() != 1 || settings.input().isArchive(inputs.get(0)))) {
                throw new IllegalArgumentException(
                        "a watched input is one file or directory of JSON Lines: " + inputs);
            }
            // A watched file is one split: its watermarks assume that the file is read in order.
            InputFiles files =
                    settings.input()
                            .files(
                                    InputFiles.Input.locals(inputs),
                                    !continuous,
                                    conf.get(NearDupOptions.FILE_SPLIT_SIZE),
                                    env.getParallelism(),
                                    continuous
                                            ? DocumentLinesFormat.UndatedLines.READ_TIME
                                            : DocumentLinesFormat.UndatedLines.POSITION);
            WatermarkStrategy<ParsedRecord> watermarks;
            if (continuous) {
                watermarks = DocumentWatermarks.boundedOutOfOrderness(settings.watermarks());
            } else {
                // A file is ordered exactly while it is read, holding back only what its disorder
                // says; its alerts come as the watermark passes its pages, unless early alerts are
                // asked for (they may name pairs the verdicts do not confirm).
                long now = System.currentTimeMillis();
                InputOrder measured =
                        InputOrder.measure(files, env.getParallelism()).unlessLaterThan(now);
                if (measured.worthSorting(conf.get(NearDupOptions.SORT_ABOVE).toMillis(), now)
                        && files.files().stream()
                                .allMatch(f -> f.format() instanceof DocumentLinesFormat)) {
                    // Far out of order: read a copy in fetch order instead of holding every page
                    // until the end (docs/design/file-order.md).
                    java.nio.file.Path copy = sortedCopy(conf);
                    java.nio.file.Path scratch = copy.getParent();
                    SortedLines.Result sorted;
                    try {
                        sorted =
                                SortedLines.write(
                                        inputs,
                                        files.files().stream()
                                                .map(f -> (DocumentLinesFormat) f.format())
                                                .toList(),
                                        copy,
                                        scratch);
                    } catch (java.io.IOException e) {
                        throw new java.io.IOException(
                                ("copying the input in fetch order into %s failed: %s. The copy"
                                                + " needs as much free space as the input;"
                                                + " -D %s=36500d reads the input as it is"
                                                + " instead")
                                        .formatted(
                                                scratch,
                                                e.getMessage(),
                                                NearDupOptions.SORT_ABOVE.key()),
                                e);
                    }
                    files =
                            settings.input()
                                    .sortedCopy(
                                            copy,
                                            files,
                                            conf.get(NearDupOptions.FILE_SPLIT_SIZE),
                                            env.getParallelism());
                    measured = measured.withSortedCopy(sorted);
                } else if (measured.worthSorting(
                                conf.get(NearDupOptions.SORT_ABOVE).toMillis(), now)
                        && !files.files().stream()
                                .allMatch(f -> f.format() instanceof WarcDocuments)) {
                    measured =
                            measured.readAsGiven(
                                    "JSON Lines and WARC files together are not put in fetch"
                                            + " order");
                } else if (measured.worthSorting(
                                conf.get(NearDupOptions.SORT_ABOVE).toMillis(), now)
                        && files.files().stream()
                                .allMatch(f -> f.format() instanceof WarcDocuments)) {
                    // WARC far out of order: read the records where they lie, in the order of an
                    // index by date (docs/design/file-order.md); a file whose headers cannot be
                    // read through waits for its end, as before.
                    java.nio.file.Path index = sortedIndex(conf);
                    try {
                        SortedLines.Result sorted =
                                SortedRecords.write(
                                        inputs,
                                        ((WarcDocuments) files.files().get(0).format()).settings(),
                                        index,
                                        index.getParent(),
                                        env.getParallelism());
                        files =
                                settings.input()
                                        .sortedIndex(
                                                index,
                                                inputs,
                                                files,
                                                conf.get(NearDupOptions.FILE_SPLIT_SIZE),
                                                env.getParallelism());
                        measured = measured.withSortedCopy(sorted);
                    } catch (SortedRecords.NotIndexable e) {
                        java.nio.file.Files.deleteIfExists(index);
                        measured = measured.readAsGiven(e.getMessage());
                    } catch (java.io.IOException e) {
                        throw new java.io.IOException(
                                ("indexing the WARC input in fetch order into %s failed: %s. The"
                                                + " index needs 12 bytes a record; -D %s=36500d"
                                                + " reads the input as it is instead")
                                        .formatted(
                                                index.getParent(),
                                                e.getMessage(),
                                                NearDupOptions.SORT_ABOVE.key()),
                                e);
                    }
                }
                order.accept(measured);
                watermarks = DocumentWatermarks.inputOrder(measured.jobDisorderMillis());
                if (!conf.contains(NearDupOptions.EARLY_ALERTS)) {
                    settings = settings.withoutEarlyAlerts();
                }
            }
            NearDupJob job =
                    new NearDupJob(
                                    settings,
                                    files.source(continuous, Duration.ofSeconds(1)),
                                    watermarks,
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
            return env.executeAsync("neardup " + inputs.get(0).getFileName());
        }
    }

    /**
     * Where a file run's copy of its input in fetch order is written, when it needs one: in the
     * first of the temporary directories of {@code conf}, the run's work directory.
     */
    public static java.nio.file.Path sortedCopy(Configuration conf) {
        return java.nio.file.Path.of(ConfigurationUtils.parseTempDirectories(conf)[0])
                .resolve("input-in-fetch-order.jsonl");
    }

    /**
     * Where a file run's index of its WARC input in fetch order is written, when it needs one: next
     * to {@link #sortedCopy}.
     */
    public static java.nio.file.Path sortedIndex(Configuration conf) {
        return sortedCopy(conf).resolveSibling("input-in-fetch-order.index");
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
