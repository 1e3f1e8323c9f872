package dev.neardup.cli;

import dev.neardup.io.Alert;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.JsonLinesSink;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.KafkaSettings;
import dev.neardup.pipeline.NearDupOptions;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.pipeline.SignatureFunction;
import dev.neardup.pipeline.StateCompatibility;
import dev.neardup.runtime.CliFiles;
import dev.neardup.runtime.Durations;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.Interruption;
import dev.neardup.runtime.KafkaJob;
import dev.neardup.runtime.KafkaProgress;
import dev.neardup.runtime.KafkaPropertiesFiles;
import dev.neardup.runtime.NeardupException;
import dev.neardup.runtime.Progress;
import dev.neardup.runtime.StateDir;
import dev.neardup.runtime.StopOnSignal;
import dev.neardup.runtime.WorkDir;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.JobClient;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code neardup run}: the streaming job on Flink's embedded MiniCluster, from a JSON Lines file,
 * standard input or the bundled sample crawl, to JSON Lines files or standard output.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        header = "Find near-duplicates with the streaming job, on embedded Flink.",
        description = {
            "Run the near-duplicate detection job on an embedded Flink MiniCluster (RocksDB state,"
                    + " checkpoints) over a JSON Lines file of documents, one per line:",
            "  {\"id\": \"...\", \"url\": \"...\", \"content\": \"<html>...\",",
            "   \"contentType\": \"text/html\", \"fetchedAt\": \"2026-11-21T10:00:00Z\"}",
            "Writes an alert per near-duplicate pair as documents collide, a verdict (UNIQUE or"
                + " DUPLICATE; with --containment also CONTAINED) per valid document, and a dead"
                + " letter (with the reason) per record it cannot use: not valid UTF-8 or JSON,"
                + " nested deeper than 200 levels, larger than neardup.max-document-size (8 MB), an"
                + " id or content missing or of the wrong type (README: dead-letter reasons).",
            "Ctrl-C stops the job: complete lines in the outputs, a summary, exit code 130.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  neardup run --sample",
            "      the bundled sample crawl; alerts on stdout",
            "  neardup run --input crawl.jsonl --alerts alerts.jsonl \\",
            "      --verdicts verdicts.jsonl --dead-letters dead.jsonl --threshold 0.9",
            "  zcat crawl.jsonl.gz | neardup run --input - --verdicts - \\",
            "      --alerts alerts.jsonl",
            "  neardup run --bootstrap-servers 127.0.0.1:9092 --input-topic documents \\",
            "      --alerts-topic alerts --verdicts-topic verdicts \\",
            "      --dead-letter-topic dead-letters",
            "",
            "Any Flink or neardup option can be set with -D key=value, for example",
            "-D neardup.field.id=docId or -D taskmanager.memory.managed.size=512m."
        })
final class RunCommand implements Callable<Integer> {

    /** Where input comes from: exactly one of these. */
    static final class Input {
        @Option(
                names = {"--input", "-i"},
                paramLabel = "FILE",
                required = true,
                description = "JSON Lines file of documents, or - for standard input.")
        String file;

        @Option(
                names = "--sample",
                required = true,
                description =
                        "Use the sample crawl bundled in the jar: 66 lines, 61 documents with"
                                + " mirrors, edits, re-crawls and malformed records.")
        boolean sample;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Input input;

    @Option(
            names = "--alerts",
            paramLabel = "FILE",
            description = "Where alerts go: a file, or - for stdout. Default: stdout.")
    String alerts;

    @Option(
            names = "--verdicts",
            paramLabel = "FILE",
            description =
                    "Where verdicts go: a file, or - for stdout. Default: not written (counted in"
                            + " the summary).")
    String verdicts;

    @Option(
            names = "--dead-letters",
            paramLabel = "FILE",
            description =
                    "Where dead letters (JSON with the original payload and the reason) go: a"
                            + " file, or - for stdout. Default: one summary line each on stderr,"
                            + " so that none goes unnoticed.")
    String deadLetters;

    /** The Kafka variant (its options' heading: {@link HelpSections}). */
    @ArgGroup(exclusive = false)
    KafkaArgs kafka;

    /** The Kafka variant's options. */
    static final class KafkaArgs {
        @Option(
                names = "--bootstrap-servers",
                paramLabel = "HOST:PORT",
                required = true,
                description = "Kafka bootstrap servers: read and write topics instead of files.")
        String bootstrapServers;

        @Option(
                names = "--input-topic",
                paramLabel = "TOPIC",
                description =
                        "Topic of input documents. Default: ${bundle:neardup.kafka.input-topic}.")
        String inputTopic;

        @Option(
                names = "--alerts-topic",
                paramLabel = "TOPIC",
                description = "Topic of alerts. Default: ${bundle:neardup.kafka.alerts-topic}.")
        String alertsTopic;

        @Option(
                names = "--verdicts-topic",
                paramLabel = "TOPIC",
                description = "Topic of verdicts. Default: ${bundle:neardup.kafka.verdicts-topic}.")
        String verdictsTopic;

        @Option(
                names = "--dead-letter-topic",
                paramLabel = "TOPIC",
                description =
                        "Topic of dead letters. Default:"
                                + " ${bundle:neardup.kafka.dead-letter-topic}.")
        String deadLetterTopic;

        @Option(
                names = "--group-id",
                paramLabel = "ID",
                description = "Consumer group id. Default: ${bundle:neardup.kafka.group-id}.")
        String groupId;

        @Option(
                names = "--starting-offsets",
                paramLabel = "WHERE",
                description =
                        "committed (earliest where the group has none), earliest, latest, or"
                                + " timestamp:EPOCH_MILLIS. Default:"
                                + " ${bundle:neardup.kafka.starting-offsets}.")
        String startingOffsets;

        @Option(
                names = "--bounded",
                description =
                        "Stop at the offsets that are the latest at start (read the topic to its"
                                + " end) instead of running until stopped.")
        Boolean bounded;

        @Option(
                names = "--delivery-guarantee",
                paramLabel = "exactly-once|at-least-once",
                description =
                        "exactly-once (Kafka transactions; read outputs with"
                                + " isolation.level=read_committed) or at-least-once. Default:"
                                + " ${bundle:neardup.kafka.delivery-guarantee}.")
        String deliveryGuarantee;

        @Option(
                names = "--kafka-property",
                paramLabel = "KEY=VALUE",
                parameterConsumer = KeyValueOption.class,
                description =
                        "A Kafka client property for the consumer and producers, e.g."
                                + " security.protocol=SASL_SSL (repeatable).")
        Map<String, String> properties = new LinkedHashMap<>();

        @Option(
                names = "--kafka-properties",
                paramLabel = "FILE|DIR",
                description =
                        "A properties file of Kafka client properties (SASL/SSL settings and"
                                + " secrets; values are never printed), or a directory whose"
                                + " *.properties files are read (none: no properties).")
        Path propertiesFile;

        @Option(
                names = "--state-dir",
                paramLabel = "DIR",
                description =
                        "Where the job keeps its state between runs, in DIR/TOPIC+GROUP (one"
                                + " directory per input topic and group id): its checkpoints, and"
                                + " the savepoint that Ctrl-C takes. A run resumes from the latest."
                                + " Default: $XDG_DATA_HOME/neardup if set, else"
                                + " $HOME/.local/share/neardup.")
        Path stateDir;

        @Option(
                names = "--fresh",
                description =
                        "Start over: delete the state kept in the state directory (earlier"
                                + " documents are forgotten) instead of resuming from it, and read"
                                + " from --starting-offsets.")
        boolean fresh;
    }

    @Mixin JobOptions job;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "DURATION",
            description =
                    "Checkpoint interval. Default: 10s on this machine; on a Flink cluster,"
                            + " the cluster's own (its config.yaml), unless this flag or -D"
                            + " sets it.")
    String checkpointInterval;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description =
                    "Directory for RocksDB's working files, and for the checkpoints of file"
                            + " and --bounded runs (other Kafka runs keep them in --state-dir)."
                            + " Default: a new temporary directory, deleted at the end.")
    Path workDir;

    @Option(
            names = {"--quiet", "-q"},
            description = "No settings, progress or summary on stderr.")
    boolean quiet;

    @Option(
            names = "--progress-interval",
            paramLabel = "DURATION",
            description =
                    "How often progress is reported on stderr: a line rewritten in place on a"
                            + " terminal, else a JSON line (README, \"Progress\"). Default: 5s;"
                            + " 1s for a file run on a terminal.")
    String progressInterval;

    @ParentCommand Neardup parent;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (kafka != null) {
            if (input != null || alerts != null || verdicts != null || deadLetters != null) {
                throw NeardupException.usage(
                        "with --bootstrap-servers the job reads and writes Kafka topics: use"
                                + " --input-topic, --alerts-topic, --verdicts-topic and"
                                + " --dead-letter-topic instead of files");
            }
            return runKafka();
        }
        if (JobMain.isActive()) {
            throw NeardupException.usage(
                    "on a Flink cluster the job reads and writes Kafka: give --bootstrap-servers");
        }
        if (input == null) {
            throw NeardupException.usage(
                    "no input: give --input FILE (- for standard input), --sample, or"
                            + " --bootstrap-servers for Kafka");
        }
        Configuration conf = job.toConfiguration();
        if (checkpointInterval != null) {
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, checkpointInterval());
        }
        NearDupSettings settings = JobOptions.settings(conf);
        Duration interval = EmbeddedJob.DEFAULT_CHECKPOINT_INTERVAL;
        if (input.file != null && !input.file.equals("-")) {
            CliFiles.readableFile("input file", input.file, Path.of(input.file));
        }
        CliFiles.writableFile("--alerts", alerts);
        CliFiles.writableFile("--verdicts", verdicts);
        CliFiles.writableFile("--dead-letters", deadLetters);
        Duration every = Progress.parseInterval(progressInterval);
        PrintWriter err = spec.commandLine().getErr();
        Progress progress = quiet ? null : Progress.onStderr(err, every, "run");
        try (WorkDir dir = WorkDir.of(workDir, "neardup-");
                Interruption interruption =
                        Interruption.install(quiet ? null : err, progress, dir::close)) {
            Path work = dir.path();
            Path inputFile = inputFile(work);
            if (!quiet) {
                err.println("neardup: " + settings);
            }
            Configuration flink = EmbeddedJob.configuration(conf, work, interval);
            Progress.eraseBeforeConsoleRecords(progress);
            long start = System.nanoTime();
            JobClient job =
                    EmbeddedJob.start(
                            flink,
                            settings,
                            inputFile,
                            alerts == null ? JsonLinesSink.STDOUT : alerts,
                            verdicts,
                            deadLetters == null ? JsonLinesSink.STDERR_SUMMARY : deadLetters);
            // Ctrl-C or SIGTERM from now on: cancel the job; its sinks close with complete
            // lines, and the summary and the clean-up below still happen.
            interruption.onSignal(job::cancel);
            Progress.await(job, progress, interruption);
            if (interruption.interrupted()) {
                if (!quiet) {
                    err.println(interruptedSummary(start, interruption.signalName()));
                }
                return interruption.exitCode();
            }
            if (!quiet) {
                err.println(summary(start));
                if (deadLetters == null && JsonLinesSink.written(EmbeddedJob.DEAD_LETTERS) > 0) {
                    err.println(
                            "neardup: to keep dead letters with their payloads, add"
                                    + " --dead-letters FILE");
                }
            }
            checkDocumentsRead(err);
            return 0;
        }
    }

    /**
     * The configuration this command line gives a Kafka run: {@code -D}, then the flags that were
     * named (see {@link JobOptions#toConfiguration()}), the Kafka options and properties, and the
     * checkpoint interval when given. Options not named are not set: on a cluster its configuration
     * applies to them ({@link JobOptions#onCluster}), on this machine their defaults.
     */
    Configuration kafkaConfiguration() {
        Configuration conf = job.toConfiguration();
        conf.set(NearDupOptions.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers);
        setIfGiven(conf, NearDupOptions.KAFKA_INPUT_TOPIC, kafka.inputTopic);
        setIfGiven(conf, NearDupOptions.KAFKA_ALERTS_TOPIC, kafka.alertsTopic);
        setIfGiven(conf, NearDupOptions.KAFKA_VERDICTS_TOPIC, kafka.verdictsTopic);
        setIfGiven(conf, NearDupOptions.KAFKA_DEAD_LETTER_TOPIC, kafka.deadLetterTopic);
        setIfGiven(conf, NearDupOptions.KAFKA_GROUP_ID, kafka.groupId);
        setIfGiven(conf, NearDupOptions.KAFKA_STARTING_OFFSETS, kafka.startingOffsets);
        setIfGiven(conf, NearDupOptions.KAFKA_BOUNDED, kafka.bounded);
        setIfGiven(conf, NearDupOptions.KAFKA_DELIVERY_GUARANTEE, kafka.deliveryGuarantee);
        if (checkpointInterval != null) {
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, checkpointInterval());
        }
        if (kafka.propertiesFile != null) {
            KafkaPropertiesFiles.read(kafka.propertiesFile)
                    .forEach(
                            (k, v) ->
                                    conf.setString(NearDupOptions.KAFKA_PROPERTIES_PREFIX + k, v));
        }
        kafka.properties.forEach(
                (k, v) -> conf.setString(NearDupOptions.KAFKA_PROPERTIES_PREFIX + k, v));
        return conf;
    }

    private static <T> void setIfGiven(
            Configuration conf, org.apache.flink.configuration.ConfigOption<T> option, T value) {
        if (value != null) {
            conf.set(option, value);
        }
    }

    private Integer runKafka() throws Exception {
        Duration progressEvery = Progress.parseInterval(progressInterval);
        Configuration conf = kafkaConfiguration();
        // On a cluster, the options this command line does not name come from the cluster's
        // configuration (its config.yaml, and 'flink run -D'), as they do for the job itself.
        Configuration effective =
                JobMain.isActive()
                        ? JobOptions.onCluster(JobMain.clusterConfiguration(), conf)
                        : conf;
        NearDupSettings settings = JobOptions.settings(effective);
        KafkaSettings kafkaSettings;
        try {
            kafkaSettings = KafkaSettings.from(effective);
        } catch (IllegalArgumentException e) {
            throw NeardupException.usage(e.getMessage());
        }
        boolean bounded = kafkaSettings.bounded();
        String startingOffsets = effective.get(NearDupOptions.KAFKA_STARTING_OFFSETS);
        PrintWriter err = spec.commandLine().getErr();
        if (JobMain.isActive()) {
            if (kafka.stateDir != null || kafka.fresh) {
                throw NeardupException.usage(
                        "--state-dir and --fresh are for runs on this machine: on a cluster,"
                                + " checkpoints go where its execution.checkpointing.dir says, and"
                                + " a job resumes with 'flink run -s SAVEPOINT_OR_CHECKPOINT'");
            }
            checkKafka(kafkaSettings);
            // Inside 'flink run' or the REST API: the cluster's configuration decides state
            // storage, restarts and checkpointing (unless --checkpoint-interval or -D names it);
            // the environment merges it with this configuration. Submit and return.
            JobClient job = startKafkaJob(conf, settings, kafkaSettings);
            err.println("neardup: submitted job " + job.getJobID() + ": " + settings);
            err.println("neardup: " + kafkaSettings.describe());
            return 0;
        }
        Duration interval = EmbeddedJob.DEFAULT_CHECKPOINT_INTERVAL;
        Optional<String> restoreFrom = conf.getOptional(StateRecoveryOptions.SAVEPOINT_PATH);
        if (bounded && (kafka.stateDir != null || kafka.fresh)) {
            throw NeardupException.usage(
                    "--bounded runs start with empty state and keep none (Flink deletes the"
                            + " checkpoints of a job that finishes): drop --state-dir and --fresh,"
                            + " or run without --bounded to keep state between runs");
        }
        if (!bounded && conf.contains(CheckpointingOptions.CHECKPOINTS_DIRECTORY)) {
            throw NeardupException.usage(
                    "give the state location with --state-dir, not -D "
                            + CheckpointingOptions.CHECKPOINTS_DIRECTORY.key());
        }
        if (kafka.fresh && restoreFrom.isPresent()) {
            throw NeardupException.usage(
                    "--fresh starts with empty state, -D "
                            + StateRecoveryOptions.SAVEPOINT_PATH.key()
                            + " restores a snapshot: give one of them");
        }
        // Kafka first: a mistyped topic must not leave a state directory behind. Ctrl-C while
        // the check waits for the brokers exits at once, 130 (nothing to stop or clean up yet).
        try (Interruption interruption =
                Interruption.install(quiet ? null : err, false, () -> {})) {
            checkKafka(kafkaSettings);
        }
        try (StateDir state =
                        bounded
                                ? null
                                : StateDir.open(
                                        kafka.stateDir != null
                                                ? kafka.stateDir
                                                : StateDir.defaultRoot(
                                                        System.getenv(),
                                                        System.getProperty("user.home")),
                                        kafkaSettings.inputTopic(),
                                        kafkaSettings.groupId());
                WorkDir dir = WorkDir.of(workDir, "neardup-")) {
            Path work = dir.path();
            Configuration flink = EmbeddedJob.configuration(conf, work, interval);
            if (!job.properties.containsKey(RestartStrategyOptions.RESTART_STRATEGY.key())) {
                // A long-running job recovers from transient failures (a broker restart).
                flink.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
            }
            String stateLine = null;
            String discardedNotice = null;
            StateDir.Snapshot resumed = null;
            if (state != null) {
                flink.set(
                        CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                        state.checkpoints().toUri().toString());
                flink.set(
                        CheckpointingOptions.SAVEPOINT_DIRECTORY,
                        state.savepoints().toUri().toString());
                flink.set(
                        CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
                if (restoreFrom.isPresent() || kafka.fresh) {
                    String discarded = state.discardAll();
                    if (discarded != null) {
                        discardedNotice =
                                "discarded the state kept in "
                                        + state.path()
                                        + ": "
                                        + discarded
                                        + (restoreFrom.isPresent()
                                                ? ""
                                                : "; reading" + readingFrom(startingOffsets));
                    }
                    stateLine =
                            (restoreFrom.isPresent()
                                            ? "restoring from "
                                                    + restoreFrom.get()
                                                    + " (-D "
                                                    + StateRecoveryOptions.SAVEPOINT_PATH.key()
                                                    + ")"
                                            : "starting with empty buckets (--fresh), reading"
                                                    + readingFrom(startingOffsets))
                                    + (discarded == null
                                            ? ""
                                            : "; discarded the state kept here before: "
                                                    + discarded
                                                    + ", with every document in its buckets");
                } else {
                    List<StateDir.Unreadable> unreadable = new ArrayList<>();
                    List<StateDir.Snapshot> snapshots = state.snapshots(unreadable);
                    for (StateDir.Unreadable u : unreadable) {
                        err.println(
                                "neardup: skipping "
                                        + u.dir()
                                        + ": its metadata cannot be read ("
                                        + u.reason()
                                        + "), it was probably being written when the job stopped");
                    }
                    if (snapshots.isEmpty()) {
                        stateLine = "no state kept yet, starting with empty buckets";
                    } else {
                        resumed = snapshots.get(0);
                        flink.set(
                                StateRecoveryOptions.SAVEPOINT_PATH,
                                resumed.dir().toUri().toString());
                        int deleted = state.deleteAllBut(resumed);
                        stateLine =
                                "resuming from "
                                        + resumed.describe()
                                        + ", "
                                        + resumed.dir()
                                        + (deleted > 0
                                                ? " (" + deleted + " older snapshot(s) deleted)"
                                                : "");
                    }
                }
            }
            if (quiet && discardedNotice != null) {
                err.println("neardup: " + discardedNotice);
            }
            if (!quiet) {
                err.println("neardup: " + settings);
                err.println("neardup: " + kafkaSettings.describe());
                if (state != null) {
                    err.println("neardup: state in " + state.path() + ": " + stateLine);
                } else {
                    err.println("neardup: bounded run: state is not kept after the end");
                }
                if (kafkaSettings.delivery() == DeliveryGuarantee.EXACTLY_ONCE) {
                    KafkaSettings.CheckpointTiming timing =
                            KafkaSettings.CheckpointTiming.of(flink);
                    err.println(
                            "neardup: exactly-once: Kafka transactions time out after "
                                    + KafkaSettings.human(kafkaSettings.transactionTimeout())
                                    + ", checkpoints every "
                                    + KafkaSettings.human(timing.interval())
                                    + " time out after "
                                    + KafkaSettings.human(timing.timeout())
                                    + ": after a crash, restart within "
                                    + KafkaSettings.human(kafkaSettings.allowedDowntime(timing))
                                    + " to lose nothing (after Ctrl-C, any time while the input"
                                    + " topic keeps its records)");
                }
            }
            JobClient job = startKafkaJob(flink, settings, kafkaSettings);
            Thread hook =
                    new Thread(
                            () -> {
                                try {
                                    job.cancel().get(30, TimeUnit.SECONDS);
                                } catch (Exception e) {
                                    // shutting down anyway
                                }
                            });
            Runtime.getRuntime().addShutdownHook(hook);
            try (StopOnSignal stop =
                            state == null
                                    ? null
                                    : StopOnSignal.install(
                                            job,
                                            state.savepoints(),
                                            KafkaSettings.CheckpointTiming.of(flink).timeout(),
                                            err);
                    KafkaProgress progress =
                            quiet
                                    ? null
                                    : new KafkaProgress(
                                            kafkaSettings, err, KafkaProgress.stderrIsTerminal())) {
                if (!quiet) {
                    err.println(
                            "neardup: running"
                                    + (bounded ? " to the end of the topic" : "")
                                    + "; Ctrl-C stops it"
                                    + (state != null ? " and keeps its state" : ""));
                }
                Throwable failure = waitForKafkaJob(job, progress, progressEvery);
                if (progress != null) {
                    progress.finish();
                }
                if (stop != null && stop.requested()) {
                    return stopped(stop, state, err);
                }
                if (failure != null) {
                    throw kafkaJobFailure(failure, state, resumed);
                }
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // already shutting down
                }
            }
            if (!quiet) {
                err.println("neardup: done");
            }
            return 0;
        }
    }

    /** Where a run without state starts reading: " from the group's committed offsets ...". */
    private static String readingFrom(String startingOffsets) {
        return startingOffsets.strip().equalsIgnoreCase("committed")
                ? " from the group's committed offsets (committed with each checkpoint, they may"
                        + " trail the discarded state by the last seconds before it was kept)"
                : " from --starting-offsets " + startingOffsets;
    }

    /**
     * Checks the brokers, the topics and the broker's transaction timeout before the job starts.
     */
    private static void checkKafka(KafkaSettings kafkaSettings) {
        try {
            kafkaSettings.checkTopics(Duration.ofSeconds(30));
        } catch (IllegalStateException e) {
            throw NeardupException.failure(e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw NeardupException.usage(e.getMessage());
        }
    }

    private static JobClient startKafkaJob(
            Configuration conf, NearDupSettings settings, KafkaSettings kafkaSettings)
            throws Exception {
        try {
            return KafkaJob.start(conf, settings, kafkaSettings);
        } catch (IllegalArgumentException e) {
            throw NeardupException.usage(e.getMessage());
        }
    }

    /**
     * Waits for the job to end, printing progress; returns why it failed, or null when it finished
     * (or was stopped).
     */
    private static Throwable waitForKafkaJob(JobClient job, KafkaProgress progress, Duration every)
            throws InterruptedException {
        var result = job.getJobExecutionResult();
        long intervalMs = (every != null ? every : KafkaProgress.interval()).toMillis();
        while (true) {
            try {
                result.get(intervalMs, TimeUnit.MILLISECONDS);
                return null;
            } catch (java.util.concurrent.TimeoutException e) {
                if (progress != null) {
                    progress.report();
                }
            } catch (ExecutionException e) {
                return e.getCause() != null ? e.getCause() : e;
            }
        }
    }

    /** After a stop by a signal: says where the state is and returns 130. */
    private static int stopped(StopOnSignal stop, StateDir state, PrintWriter err) {
        String savepoint;
        String why = null;
        try {
            savepoint = stop.stopped().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            savepoint = null;
            why = Progress.rootCause(e);
        } catch (Exception e) {
            savepoint = null;
            why = e.getClass().getSimpleName();
        }
        if (savepoint != null) {
            err.println(
                    "neardup: stopped with a savepoint, "
                            + savepoint
                            + "; outputs up to it are committed; the next run with this state"
                            + " directory resumes from it");
        } else {
            String latest =
                    state.latest()
                            .map(s -> s.describe() + ", " + s.dir())
                            .orElse("nothing: no checkpoint had completed, so it starts empty");
            err.println(
                    "neardup: cancelled"
                            + (why == null ? "" : " (no savepoint: " + why + ")")
                            + "; the next run resumes from "
                            + latest);
        }
        err.flush();
        return stop.exitCode();
    }

    /**
     * The error for a failed Kafka job: a usage error when the restored state was built with other
     * settings (with what to do), else a failure.
     */
    private static NeardupException kafkaJobFailure(
            Throwable failure, StateDir state, StateDir.Snapshot resumed) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            int at = message == null ? -1 : message.indexOf(StateCompatibility.INCOMPATIBLE);
            if (at >= 0) {
                String rest = message.substring(at + StateCompatibility.INCOMPATIBLE.length());
                int end = rest.indexOf(". ");
                String differences =
                        rest.startsWith(": ")
                                ? rest.substring(2, end < 0 ? rest.length() : end)
                                : rest;
                throw NeardupException.usage(
                        "the state in "
                                + (state != null ? state.path() : "the restored snapshot")
                                + (resumed != null ? " (" + resumed.describe() + ")" : "")
                                + " was built with other settings that shape it: "
                                + differences
                                + ". Run with the old settings, or add --fresh to delete that"
                                + " state and start with empty buckets");
            }
        }
        return NeardupException.failure(
                "the job failed: "
                        + Progress.rootCause(failure)
                        + (resumed != null
                                ? " (it resumed from "
                                        + resumed.describe()
                                        + " in "
                                        + state.path()
                                        + "; if that state is the problem, --fresh deletes it)"
                                : ""),
                failure);
    }

    private Path inputFile(Path work) throws IOException {
        if (input.sample) {
            Path sample = work.resolve("sample-crawl.jsonl");
            try (InputStream in = RunCommand.class.getResourceAsStream("/sample/crawl.jsonl")) {
                if (in == null) {
                    throw NeardupException.failure(
                            "the sample crawl is missing from the jar", null);
                }
                Files.copy(in, sample, StandardCopyOption.REPLACE_EXISTING);
            }
            return sample;
        }
        if (input.file.equals("-")) {
            Path spooled = work.resolve("stdin.jsonl");
            Files.copy(parent.stdin(), spooled, StandardCopyOption.REPLACE_EXISTING);
            return spooled;
        }
        return Path.of(input.file); // checked by call() before the work directory is made
    }

    /**
     * A run that read no document says so: when every line was a dead letter, a failure with their
     * count and the first reasons (a plain-text file given as --input, a feed with other field
     * names); when the input was empty, a warning.
     */
    private void checkDocumentsRead(PrintWriter err) {
        if (JsonLinesSink.written(EmbeddedJob.VERDICTS) > 0) {
            return;
        }
        String name =
                input.sample
                        ? "the sample crawl"
                        : input.file.equals("-") ? "standard input" : input.file;
        long dead = JsonLinesSink.written(EmbeddedJob.DEAD_LETTERS);
        if (dead == 0) {
            err.println("neardup: warning: no document in " + name + ": the input is empty");
            return;
        }
        List<String> first = new ArrayList<>();
        for (DeadLetter d : JsonLinesSink.first(EmbeddedJob.DEAD_LETTERS, DeadLetter.class)) {
            String message = d.message == null ? "" : d.message;
            first.add(
                    d.reason
                            + " at "
                            + d.source
                            + (message.isEmpty()
                                    ? ""
                                    : ": "
                                            + (message.length() > 60
                                                    ? message.substring(0, 57) + "..."
                                                    : message)));
        }
        throw NeardupException.failure(
                "no document in "
                        + name
                        + ": "
                        + (dead == 1 ? "1 line, a dead letter" : dead + " lines, all dead letters")
                        + (first.isEmpty() ? "" : " (" + String.join("; ", first) + ")")
                        + "; the input is JSON Lines, a document object per line (README:"
                        + " dead-letter reasons)",
                null);
    }

    private static String summary(long start) {
        double seconds = (System.nanoTime() - start) / 1e9;
        long unique = JsonLinesSink.written(EmbeddedJob.VERDICTS + "." + Verdict.UNIQUE);
        long duplicate = JsonLinesSink.written(EmbeddedJob.VERDICTS + "." + Verdict.DUPLICATE);
        long contained = JsonLinesSink.written(EmbeddedJob.VERDICTS + "." + Verdict.CONTAINED);
        long deleted = JsonLinesSink.written(EmbeddedJob.VERDICTS + "." + Verdict.DELETED);
        long merges = JsonLinesSink.written(EmbeddedJob.ALERTS + "." + Alert.CLUSTER_MERGED);
        return String.format(
                Locale.ROOT,
                "neardup: done in %.1f s: %d documents (%d unique, %d duplicate%s), %s%d alerts,"
                        + " %s%d dead letters%s",
                seconds,
                unique + duplicate + contained,
                unique,
                duplicate,
                contained == 0 ? "" : ", " + contained + " contained",
                deleted == 0 ? "" : deleted + (deleted == 1 ? " deletion, " : " deletions, "),
                JsonLinesSink.written(EmbeddedJob.ALERTS + ".pair"),
                merges == 0
                        ? ""
                        : merges + (merges == 1 ? " cluster merge, " : " cluster merges, "),
                JsonLinesSink.written(EmbeddedJob.DEAD_LETTERS),
                blankLines());
    }

    /** ", 3 blank lines skipped" when the input had blank lines, else nothing. */
    private static String blankLines() {
        long blank = dev.neardup.io.JsonLinesFormat.blankLines();
        return blank == 0
                ? ""
                : ", " + blank + (blank == 1 ? " blank line" : " blank lines") + " skipped";
    }

    /** The summary of a run stopped by a signal: what was read, and what the outputs hold. */
    private static String interruptedSummary(long start, String signal) {
        double seconds = (System.nanoTime() - start) / 1e9;
        long merges = JsonLinesSink.written(EmbeddedJob.ALERTS + "." + Alert.CLUSTER_MERGED);
        return String.format(
                Locale.ROOT,
                "neardup: interrupted by %s after %.1f s: %d documents read; written (complete"
                        + " lines): %d verdicts, %d alerts, %s%d dead letters",
                signal,
                seconds,
                SignatureFunction.sketched(),
                JsonLinesSink.written(EmbeddedJob.VERDICTS),
                JsonLinesSink.written(EmbeddedJob.ALERTS + ".pair"),
                merges == 0
                        ? ""
                        : merges + (merges == 1 ? " cluster merge, " : " cluster merges, "),
                JsonLinesSink.written(EmbeddedJob.DEAD_LETTERS));
    }

    private Duration checkpointInterval() {
        return Durations.checkpointInterval(checkpointInterval);
    }
}
