package dev.neardup.cli;

import dev.neardup.io.JsonLinesSink;
import dev.neardup.io.Verdict;
import dev.neardup.pipeline.EmbeddedJob;
import dev.neardup.pipeline.KafkaJob;
import dev.neardup.pipeline.KafkaSettings;
import dev.neardup.pipeline.NearDupOptions;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.pipeline.SignatureFunction;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
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
        description = {
            "Run the near-duplicate detection job on an embedded Flink MiniCluster (RocksDB state,"
                    + " checkpoints) over a JSON Lines file of documents:",
            "  {\"id\": \"...\", \"url\": \"...\", \"content\": \"<html>...\","
                    + " \"contentType\": \"text/html\", \"fetchedAt\": \"2026-11-21T10:00:00Z\"}",
            "Writes an alert per near-duplicate pair as documents collide, a verdict (UNIQUE or"
                    + " DUPLICATE) per valid document, and a dead letter (with the reason) per"
                    + " record it cannot use.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  neardup run --sample",
            "      the bundled sample crawl; alerts on stdout",
            "  neardup run --input crawl.jsonl --alerts alerts.jsonl --verdicts verdicts.jsonl \\",
            "              --dead-letters dead.jsonl --threshold 0.9",
            "  zcat crawl.jsonl.gz | neardup run --input - --verdicts - --alerts alerts.jsonl",
            "  neardup run --bootstrap-servers 127.0.0.1:9092 --input-topic documents \\",
            "              --alerts-topic alerts --verdicts-topic verdicts --dead-letter-topic"
                    + " dead-letters",
            "",
            "Any Flink or neardup option can be set with -D key=value, e.g."
                    + " -D neardup.field.id=docId or -D taskmanager.memory.managed.size=512m."
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

    @ArgGroup(exclusive = false, heading = "%nKafka (instead of files):%n", order = 1)
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
                defaultValue = "documents",
                description = "Topic of input documents. Default: ${DEFAULT-VALUE}.")
        String inputTopic;

        @Option(
                names = "--alerts-topic",
                paramLabel = "TOPIC",
                defaultValue = "alerts",
                description = "Topic of alerts. Default: ${DEFAULT-VALUE}.")
        String alertsTopic;

        @Option(
                names = "--verdicts-topic",
                paramLabel = "TOPIC",
                defaultValue = "verdicts",
                description = "Topic of verdicts. Default: ${DEFAULT-VALUE}.")
        String verdictsTopic;

        @Option(
                names = "--dead-letter-topic",
                paramLabel = "TOPIC",
                defaultValue = "dead-letters",
                description = "Topic of dead letters. Default: ${DEFAULT-VALUE}.")
        String deadLetterTopic;

        @Option(
                names = "--group-id",
                paramLabel = "ID",
                defaultValue = "neardup",
                description = "Consumer group id. Default: ${DEFAULT-VALUE}.")
        String groupId;

        @Option(
                names = "--starting-offsets",
                paramLabel = "WHERE",
                defaultValue = "committed",
                description =
                        "committed (earliest where the group has none), earliest, latest, or"
                                + " timestamp:EPOCH_MILLIS. Default: ${DEFAULT-VALUE}.")
        String startingOffsets;

        @Option(
                names = "--bounded",
                description =
                        "Stop at the offsets that are the latest at start (read the topic to its"
                                + " end) instead of running until stopped.")
        boolean bounded;

        @Option(
                names = "--delivery-guarantee",
                paramLabel = "exactly-once|at-least-once",
                defaultValue = "exactly-once",
                description =
                        "exactly-once (Kafka transactions; read outputs with"
                                + " isolation.level=read_committed) or at-least-once. Default:"
                                + " ${DEFAULT-VALUE}.")
        String deliveryGuarantee;

        @Option(
                names = "--kafka-property",
                paramLabel = "KEY=VALUE",
                description =
                        "A Kafka client property for the consumer and producers, e.g."
                                + " security.protocol=SASL_SSL (repeatable).")
        Map<String, String> properties = new LinkedHashMap<>();

        @Option(
                names = "--kafka-properties",
                paramLabel = "FILE",
                description =
                        "A properties file of Kafka client properties (SASL/SSL settings and"
                                + " secrets; values are never printed).")
        Path propertiesFile;
    }

    @Mixin JobOptions job;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "DURATION",
            defaultValue = "10s",
            description = "Checkpoint interval. Default: ${DEFAULT-VALUE}.")
    String checkpointInterval;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description =
                    "Directory for checkpoints and RocksDB files. Default: a new temporary"
                            + " directory, deleted at the end.")
    Path workDir;

    @Option(
            names = {"--quiet", "-q"},
            description = "No settings, progress or summary on stderr.")
    boolean quiet;

    @ParentCommand Neardup parent;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (kafka != null) {
            if (input != null || alerts != null || verdicts != null || deadLetters != null) {
                throw CliException.usage(
                        "with --bootstrap-servers the job reads and writes Kafka topics: use"
                                + " --input-topic, --alerts-topic, --verdicts-topic and"
                                + " --dead-letter-topic instead of files");
            }
            return runKafka();
        }
        if (JobMain.isActive()) {
            throw CliException.usage(
                    "on a Flink cluster the job reads and writes Kafka: give --bootstrap-servers");
        }
        if (input == null) {
            throw CliException.usage(
                    "no input: give --input FILE (- for standard input), --sample, or"
                            + " --bootstrap-servers for Kafka");
        }
        Configuration conf = job.toConfiguration();
        NearDupSettings settings = JobOptions.settings(conf);
        Duration interval = checkpointInterval();
        if (input.file != null && !input.file.equals("-")) {
            CliFiles.readableFile("input file", input.file, Path.of(input.file));
        }
        CliFiles.writableFile("--alerts", alerts);
        CliFiles.writableFile("--verdicts", verdicts);
        CliFiles.writableFile("--dead-letters", deadLetters);
        PrintWriter err = spec.commandLine().getErr();
        try (WorkDir dir = WorkDir.of(workDir, "neardup-")) {
            Path work = dir.path();
            Path inputFile = inputFile(work);
            if (!quiet) {
                err.println("neardup: " + settings);
            }
            Configuration flink = EmbeddedJob.configuration(conf, work, interval);
            long start = System.nanoTime();
            JobClient job =
                    EmbeddedJob.start(
                            flink,
                            settings,
                            inputFile,
                            alerts == null ? JsonLinesSink.STDOUT : alerts,
                            verdicts,
                            deadLetters == null ? JsonLinesSink.STDERR_SUMMARY : deadLetters);
            waitWithProgress(job, err, start);
            if (!quiet) {
                err.println(summary(start));
                if (deadLetters == null && JsonLinesSink.written(EmbeddedJob.DEAD_LETTERS) > 0) {
                    err.println(
                            "neardup: to keep dead letters with their payloads, add"
                                    + " --dead-letters FILE");
                }
            }
            return 0;
        }
    }

    private Integer runKafka() throws Exception {
        Configuration conf = job.toConfiguration();
        conf.set(NearDupOptions.KAFKA_BOOTSTRAP_SERVERS, kafka.bootstrapServers);
        conf.set(NearDupOptions.KAFKA_INPUT_TOPIC, kafka.inputTopic);
        conf.set(NearDupOptions.KAFKA_ALERTS_TOPIC, kafka.alertsTopic);
        conf.set(NearDupOptions.KAFKA_VERDICTS_TOPIC, kafka.verdictsTopic);
        conf.set(NearDupOptions.KAFKA_DEAD_LETTER_TOPIC, kafka.deadLetterTopic);
        conf.set(NearDupOptions.KAFKA_GROUP_ID, kafka.groupId);
        conf.set(NearDupOptions.KAFKA_STARTING_OFFSETS, kafka.startingOffsets);
        conf.set(NearDupOptions.KAFKA_BOUNDED, kafka.bounded);
        conf.set(NearDupOptions.KAFKA_DELIVERY_GUARANTEE, kafka.deliveryGuarantee);
        if (kafka.propertiesFile != null) {
            java.util.Properties file = new java.util.Properties();
            try (var reader = Files.newBufferedReader(kafka.propertiesFile)) {
                file.load(reader);
            } catch (IOException e) {
                throw CliException.usage(
                        "cannot read --kafka-properties "
                                + kafka.propertiesFile
                                + ": "
                                + e.getMessage());
            }
            file.forEach(
                    (k, v) ->
                            conf.setString(
                                    NearDupOptions.KAFKA_PROPERTIES_PREFIX + k, String.valueOf(v)));
        }
        kafka.properties.forEach(
                (k, v) -> conf.setString(NearDupOptions.KAFKA_PROPERTIES_PREFIX + k, v));
        NearDupSettings settings = JobOptions.settings(conf);
        KafkaSettings kafkaSettings;
        try {
            kafkaSettings = KafkaSettings.from(conf);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
        PrintWriter err = spec.commandLine().getErr();
        try {
            kafkaSettings.checkTopics(Duration.ofSeconds(30));
        } catch (IllegalStateException e) {
            throw CliException.failure(e.getMessage(), e);
        }
        if (JobMain.isActive()) {
            // Inside 'flink run' or the REST API: the cluster's configuration decides state
            // storage and restarts; submit and return.
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, checkpointInterval());
            JobClient job = KafkaJob.start(conf, settings, kafkaSettings);
            err.println("neardup: submitted job " + job.getJobID() + ": " + settings);
            err.println("neardup: " + kafkaSettings.describe());
            return 0;
        }
        try (WorkDir dir = WorkDir.of(workDir, "neardup-")) {
            Path work = dir.path();
            Configuration flink = EmbeddedJob.configuration(conf, work, checkpointInterval());
            if (!job.properties.containsKey(RestartStrategyOptions.RESTART_STRATEGY.key())) {
                // A long-running job recovers from transient failures (a broker restart).
                flink.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
            }
            if (!quiet) {
                err.println("neardup: " + settings);
                err.println("neardup: " + kafkaSettings.describe());
            }
            JobClient job = KafkaJob.start(flink, settings, kafkaSettings);
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
            if (!quiet) {
                err.println(
                        "neardup: running"
                                + (kafkaSettings.bounded() ? " to the end of the topic" : "")
                                + "; Ctrl-C stops it");
            }
            try {
                job.getJobExecutionResult().get();
            } catch (ExecutionException e) {
                throw CliException.failure("the job failed: " + rootCause(e), e);
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

    private Path inputFile(Path work) throws IOException {
        if (input.sample) {
            Path sample = work.resolve("sample-crawl.jsonl");
            try (InputStream in = RunCommand.class.getResourceAsStream("/sample/crawl.jsonl")) {
                if (in == null) {
                    throw CliException.failure("the sample crawl is missing from the jar", null);
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

    private void waitWithProgress(JobClient job, PrintWriter err, long start) throws Exception {
        boolean console = System.console() != null;
        long lastReport = System.nanoTime();
        var result = job.getJobExecutionResult();
        while (true) {
            try {
                result.get(console ? 1 : 5, TimeUnit.SECONDS);
                if (console && !quiet) {
                    err.print("\r\033[K");
                    err.flush();
                }
                return;
            } catch (java.util.concurrent.TimeoutException e) {
                if (!quiet && (console || System.nanoTime() - lastReport > 10_000_000_000L)) {
                    err.print(console ? "\r\033[K" + progress(start) : progress(start) + "\n");
                    err.flush();
                    lastReport = System.nanoTime();
                }
            } catch (ExecutionException e) {
                throw CliException.failure("the job failed: " + rootCause(e), e);
            }
        }
    }

    private static String progress(long start) {
        double seconds = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
        long documents = SignatureFunction.sketched();
        return String.format(
                Locale.ROOT,
                "neardup: %d documents read, %.0f documents/s, %d alerts, %d dead letters"
                        + " (verdicts at the end of the input)",
                documents,
                documents / seconds,
                JsonLinesSink.written(EmbeddedJob.ALERTS),
                JsonLinesSink.written(EmbeddedJob.DEAD_LETTERS));
    }

    private static String summary(long start) {
        double seconds = (System.nanoTime() - start) / 1e9;
        long unique = JsonLinesSink.written(EmbeddedJob.VERDICTS + "." + Verdict.UNIQUE);
        long duplicate = JsonLinesSink.written(EmbeddedJob.VERDICTS + "." + Verdict.DUPLICATE);
        long deleted = JsonLinesSink.written(EmbeddedJob.VERDICTS + "." + Verdict.DELETED);
        return String.format(
                Locale.ROOT,
                "neardup: done in %.1f s: %d documents (%d unique, %d duplicate), %s%d alerts, %d"
                        + " dead letters",
                seconds,
                unique + duplicate,
                unique,
                duplicate,
                deleted == 0 ? "" : deleted + (deleted == 1 ? " deletion, " : " deletions, "),
                JsonLinesSink.written(EmbeddedJob.ALERTS),
                JsonLinesSink.written(EmbeddedJob.DEAD_LETTERS));
    }

    private static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = t.getMessage();
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** Flink's smallest checkpoint interval. */
    private static final Duration MIN_CHECKPOINT_INTERVAL = Duration.ofMillis(10);

    private Duration checkpointInterval() {
        return parseCheckpointInterval(checkpointInterval);
    }

    /** A --checkpoint-interval, checked against Flink's minimum before anything starts. */
    static Duration parseCheckpointInterval(String text) {
        Duration interval = parseDuration(text);
        if (interval.compareTo(MIN_CHECKPOINT_INTERVAL) < 0) {
            throw CliException.usage(
                    "--checkpoint-interval must be at least 10ms (Flink's minimum), got " + text);
        }
        return interval;
    }

    /** Durations as Flink writes them: "30d", "12h", "10s", "500ms", or ISO-8601 "PT10S". */
    static Duration parseDuration(String text) {
        try {
            return org.apache.flink.util.TimeUtils.parseDuration(text);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw CliException.usage(
                    "not a duration: '" + text + "' (examples: 30d, 12h, 10s, 500ms)");
        }
    }
}
