package dev.neardup.cli;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.RuntimeOptions;
import dev.neardup.pipeline.NearDupSettings;
import dev.neardup.runtime.CliFiles;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.EmbeddedRun;
import dev.neardup.runtime.KafkaRun;
import dev.neardup.runtime.NeardupException;
import dev.neardup.runtime.Progress;
import dev.neardup.tools.report.RunReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code neardup run}: the streaming job on files ({@link EmbeddedRun}) or on Kafka. */
@Command(
        name = "run",
        header = "Find near-duplicates with the streaming job, on embedded Flink.",
        description = {
            "Run the near-duplicate detection job on an embedded Flink MiniCluster (RocksDB state,"
                    + " checkpoints) over a WARC, WET or ARC file, or a JSON Lines file of"
                    + " documents, one per line:",
            "  {\"id\": \"...\", \"url\": \"...\", \"content\": \"<html>...\",",
            "   \"contentType\": \"text/html\", \"fetchedAt\": \"2026-11-21T10:00:00Z\"}",
            "Writes an alert per near-duplicate pair as documents collide, a verdict (UNIQUE or"
                + " DUPLICATE; with --containment also CONTAINED) per valid document, and a dead"
                + " letter (with the reason) per record it cannot use: not valid UTF-8 or JSON,"
                + " nested deeper than 200 levels, larger than neardup.max-document-size (8 MB), an"
                + " id or content missing or of the wrong type, an id or url over its limit"
                + " (neardup.max-id-size, neardup.max-url-size: 16 KB each) (docs/reference:"
                + " dead-letter reasons).",
            "Ctrl-C stops the job: complete lines in the outputs, a summary, exit code 130.",
            ""
        },
        footer = {
            "  neardup run --sample",
            "      the bundled sample crawl; alerts on stdout",
            "  neardup run --input crawl.jsonl --alerts alerts.jsonl --report report.html",
            "  neardup run --input 'crawl/warcs/*.warc.gz' --verdicts verdicts.jsonl",
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
final class RunCommand implements Callable<Integer>, SettingFlags.Bound {

    @Override
    public List<ConfigOption<?>> settings() {
        return JobOptions.concat(
                JobOptions.JOB_SETTINGS,
                List.of(NearDupOptions.EARLY_ALERTS, RuntimeOptions.CHECKPOINT_INTERVAL),
                KafkaOptions.SETTINGS);
    }

    /** Where input comes from: exactly one of these. */
    static final class Input {
        @Option(
                names = {"--input", "-i"},
                paramLabel = "FILE",
                required = true,
                arity = "1..*",
                description =
                        "JSON Lines file of documents, or a WARC, WET or ARC file as a crawler"
                                + " wrote it (.warc, .warc.gz, .wet.gz, .arc.gz; by name or first"
                                + " bytes, --input-format to say it), or - for JSON Lines on"
                                + " standard input. Several files, a directory (the files under"
                                + " it) or a quoted glob (** spans directories) are read in the"
                                + " order given, any mix of formats.")
        List<String> files;

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
    @Mixin KafkaOptions kafka;

    @Mixin JobOptions job;

    @Mixin ProgressOptions.WithWorkDir progress;

    @Mixin ReportOptions report;

    @ParentCommand Neardup parent;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        String kafkaFlag = kafka.firstGiven(spec);
        boolean onKafka =
                SettingFlags.given(spec).containsKey(NearDupOptions.KAFKA_BOOTSTRAP_SERVERS.key());
        if (kafkaFlag != null && !onKafka) {
            throw NeardupException.usage(
                    kafkaFlag + " is for Kafka: give --bootstrap-servers HOST:PORT too");
        }
        if (onKafka && report.report != null) {
            throw NeardupException.usage(
                    "--report is for a run on a file (--input FILE, - or --sample): a Kafka run"
                            + " does not end; run 'neardup evaluate' or 'neardup dedupe --report'"
                            + " on a dump of the topic instead");
        }
        if (onKafka) {
            if (input != null || alerts != null || verdicts != null || deadLetters != null) {
                throw NeardupException.usage(
                        "with --bootstrap-servers the job reads and writes Kafka topics: use"
                                + " --input-topic, --alerts-topic, --verdicts-topic and"
                                + " --dead-letter-topic instead of files");
            }
            Duration every = Progress.parseInterval(progress.progressInterval);
            Configuration conf = kafka.toConfiguration(job);
            // On a cluster, the options this command line does not name come from the cluster's
            // configuration (its config.yaml, and 'flink run -D'), as they do for the job itself.
            Configuration effective =
                    JobMain.isActive()
                            ? JobOptions.onCluster(JobMain.clusterConfiguration(), conf)
                            : conf;
            return KafkaRun.run(
                    new KafkaRun.Options(
                            conf,
                            effective,
                            EmbeddedJob.settings(effective),
                            JobMain.isActive(),
                            kafka.stateDir,
                            kafka.fresh,
                            progress.workDir,
                            progress.quiet,
                            every,
                            job.properties.containsKey(
                                    RestartStrategyOptions.RESTART_STRATEGY.key())),
                    err);
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
        Path reportFile = report.checked();
        int samples = report.samples();
        Configuration conf = job.toConfiguration();
        NearDupSettings settings = EmbeddedJob.settings(conf);
        List<String> files = input.sample ? List.of() : CliFiles.inputs(input.files);
        String name =
                input.sample
                        ? "the sample crawl"
                        : files.size() > 1
                                ? files.size() + " input files"
                                : files.get(0).equals("-") ? "stdin" : files.get(0);
        return EmbeddedRun.run(
                new EmbeddedRun.Options(
                        conf,
                        settings,
                        input.sample,
                        files,
                        parent.stdin(),
                        alerts,
                        verdicts,
                        deadLetters,
                        progress.workDir,
                        progress.quiet,
                        progress.progressInterval,
                        reportFile,
                        // A lambda: the report's classes load only when a report is written.
                        (file, inputFile, verdictsFile, summary) ->
                                RunReport.write(
                                        file,
                                        samples,
                                        settings,
                                        name,
                                        inputFile,
                                        verdictsFile,
                                        summary)),
                err);
    }
}
