package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.Format;
import dev.neardup.config.JaccardSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.lsh.LshParams;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.KafkaSettings;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.client.program.StreamContextEnvironment;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.core.execution.DefaultExecutorServiceLoader;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * One settings model: the flags set only what they name, a flag beats {@code -D}, {@code -D} beats
 * the cluster's configuration, which beats the defaults of {@link NearDupOptions}; the cluster's
 * checkpoint interval wins unless the user sets one.
 */
class JobOptionsTest {

    /** The parsed subcommand object of {@code args}. */
    @SuppressWarnings("unchecked")
    static <T> T parse(String... args) {
        CommandLine cl =
                Neardup.commandLine(
                        InputStream.nullInputStream(),
                        new PrintWriter(new StringWriter()),
                        new PrintWriter(new StringWriter()));
        CommandLine.ParseResult result = cl.parseArgs(args);
        return (T) result.subcommand().commandSpec().userObject();
    }

    private static Configuration jobConf(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "run";
        System.arraycopy(args, 0, all, 1, args.length);
        RunCommand run = parse(all);
        return run.job.toConfiguration();
    }

    @Test
    void noFlagsSetNoOption() {
        Configuration conf = jobConf("--input", "x.jsonl");
        assertThat(conf.keySet()).isEmpty();
        // So a -D value survives, and everything else keeps the options' defaults.
        Configuration withD = jobConf("--input", "x.jsonl", "-D", "neardup.threshold=0.9");
        assertThat(withD.toMap()).containsOnlyKeys("neardup.threshold");
        NearDupSettings settings = EmbeddedJob.settings(withD);
        assertThat(settings.similarity().threshold()).isEqualTo(0.9);
        assertThat(settings.buckets().capacity())
                .isEqualTo(NearDupOptions.BUCKET_CAPACITY.defaultValue());
        assertThat(settings.buckets().retentionMillis())
                .isEqualTo(NearDupOptions.RETENTION.defaultValue().toMillis());
    }

    @Test
    void aFlagSetsOnlyItsOptionAndBeatsMinusD() {
        Configuration conf =
                jobConf(
                        "--input",
                        "x.jsonl",
                        "--threshold",
                        "0.7",
                        "-D",
                        "neardup.threshold=0.9",
                        "-D",
                        "neardup.bucket.capacity=8",
                        "--shingle",
                        "char",
                        "--stopwords",
                        "--state-backend",
                        "hashmap");
        NearDupSettings settings = EmbeddedJob.settings(conf);
        assertThat(settings.similarity().threshold()).isEqualTo(0.7);
        assertThat(settings.buckets().capacity()).isEqualTo(8);
        assertThat(conf.get(NearDupOptions.STOP_WORDS)).isTrue();
        assertThat(conf.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("hashmap");
        assertThat(conf.toMap())
                .containsOnlyKeys(
                        "neardup.threshold",
                        "neardup.bucket.capacity",
                        "neardup.shingle.kind",
                        "neardup.text.stop-words",
                        StateBackendOptions.STATE_BACKEND.key());
    }

    @Test
    void earlyAlertsAreOnByDefaultAndNoEarlyAlertsTurnsThemOff() {
        assertThat(EmbeddedJob.settings(jobConf("--input", "x.jsonl")).verdicts().earlyAlerts())
                .isTrue();
        Configuration off = jobConf("--input", "x.jsonl", "--no-early-alerts");
        assertThat(off.toMap()).containsOnly(Map.entry("neardup.alerts.early", "false"));
        assertThat(EmbeddedJob.settings(off).verdicts().earlyAlerts()).isFalse();
        Configuration on =
                jobConf("--input", "x.jsonl", "-D", "neardup.alerts.early=false", "--early-alerts");
        assertThat(EmbeddedJob.settings(on).verdicts().earlyAlerts()).as("the flag wins").isTrue();
    }

    @Test
    void containmentSetsTheSimilarityAndTheThresholdAndRefusesAFlagThatSetsThemToo() {
        Configuration conf = jobConf("--input", "x.jsonl", "--containment", "0.7");
        assertThat(conf.toMap())
                .containsOnly(
                        Map.entry("neardup.similarity", "CONTAINMENT"),
                        Map.entry("neardup.threshold", "0.7"));
        CliRun.run("run", "--sample", "--containment", "0.7", "--threshold", "0.9")
                .usageError(
                        "neardup run", "--threshold and --containment both set neardup.threshold");
        CliRun.run("run", "--sample", "--containment", "0.7", "--similarity", "cosine")
                .usageError(
                        "neardup run",
                        "--similarity and --containment both set neardup.similarity");
    }

    @Test
    void helpShowsTheDefaultsOfTheConfigOptions() {
        CliRun help = CliRun.run("run", "--help");
        String out = help.out().replaceAll("\\s+", " ");
        assertThat(out)
                .contains("Default: " + Format.plain(NearDupOptions.THRESHOLD.defaultValue()))
                .contains("Default: " + NearDupOptions.BUCKET_CAPACITY.defaultValue())
                .contains("Default: 30d")
                .contains("Default: 5m")
                .contains("Default: oph")
                .contains("Default: documents")
                .doesNotContain("${");
    }

    private static Configuration kafkaConf(String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "run";
        all[1] = "--bootstrap-servers";
        all[2] = "127.0.0.1:9";
        System.arraycopy(args, 0, all, 3, args.length);
        RunCommand run = parse(all);
        return run.kafka.toConfiguration(run.job);
    }

    private static Configuration cluster() {
        Configuration cluster = new Configuration();
        cluster.setString("neardup.threshold", "0.9");
        cluster.setString("neardup.kafka.input-topic", "crawl");
        cluster.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMinutes(1));
        return cluster;
    }

    @Test
    void onAClusterItsConfigurationWinsWhereNoFlagIsGiven() {
        Configuration job = kafkaConf();
        assertThat(job.contains(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isFalse();
        Configuration effective = JobOptions.onCluster(cluster(), job);
        assertThat(EmbeddedJob.settings(effective).similarity().threshold()).isEqualTo(0.9);
        assertThat(KafkaSettings.from(effective).inputTopic()).isEqualTo("crawl");
        assertThat(KafkaSettings.CheckpointTiming.of(effective).interval())
                .isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void onAClusterFlagsAndMinusDWinWhereGiven() {
        Configuration effective =
                JobOptions.onCluster(
                        cluster(),
                        kafkaConf(
                                "--threshold",
                                "0.7",
                                "--checkpoint-interval",
                                "5s",
                                "--input-topic",
                                "docs"));
        assertThat(EmbeddedJob.settings(effective).similarity().threshold()).isEqualTo(0.7);
        assertThat(KafkaSettings.from(effective).inputTopic()).isEqualTo("docs");
        assertThat(KafkaSettings.CheckpointTiming.of(effective).interval())
                .isEqualTo(Duration.ofSeconds(5));
        Configuration minusD =
                JobOptions.onCluster(
                        cluster(),
                        kafkaConf(
                                "-D", "neardup.threshold=0.85",
                                "-D", "execution.checkpointing.interval=30s"));
        assertThat(EmbeddedJob.settings(minusD).similarity().threshold()).isEqualTo(0.85);
        assertThat(KafkaSettings.CheckpointTiming.of(minusD).interval())
                .isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void theClusterConfigurationIsWhatFlinksClientPutsIntoTheContextEnvironment() {
        // What 'flink run' (CliFrontend) and the REST API's jar run do before calling main:
        // the cluster's config.yaml (with flink run -D) becomes the context environment.
        StreamContextEnvironment.setAsContext(
                new DefaultExecutorServiceLoader(),
                cluster(),
                JobOptionsTest.class.getClassLoader(),
                false,
                false);
        try {
            Configuration seen = JobMain.clusterConfiguration();
            assertThat(seen.toMap())
                    .containsAllEntriesOf(
                            Map.of(
                                    "neardup.threshold", "0.9",
                                    "neardup.kafka.input-topic", "crawl"));
            assertThat(seen.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                    .isEqualTo(Duration.ofMinutes(1));
            Configuration effective = JobOptions.onCluster(seen, kafkaConf());
            assertThat(EmbeddedJob.settings(effective).similarity().threshold()).isEqualTo(0.9);
        } finally {
            StreamContextEnvironment.unsetAsContext();
        }
    }

    @Test
    void theEmbeddedModeKeepsTenSecondsUnlessTold() {
        assertThat(dev.neardup.runtime.EmbeddedJob.DEFAULT_CHECKPOINT_INTERVAL)
                .isEqualTo(Duration.ofSeconds(10));
        Configuration none =
                dev.neardup.runtime.EmbeddedJob.configuration(
                        kafkaConf(), java.nio.file.Path.of("/tmp/x"), Duration.ofSeconds(10));
        assertThat(none.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofSeconds(10));
        Configuration flag =
                dev.neardup.runtime.EmbeddedJob.configuration(
                        kafkaConf("--checkpoint-interval", "3s"),
                        java.nio.file.Path.of("/tmp/x"),
                        dev.neardup.runtime.EmbeddedJob.DEFAULT_CHECKPOINT_INTERVAL);
        assertThat(flag.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofSeconds(3));
    }

    @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir;

    @Test
    void everyCommandUsesTheOneDefaultBanding() throws java.io.IOException {
        LshParams expected = banding(NearDupSettings.from(new Configuration()));
        assertThat(expected).isEqualTo(new LshParams(11, 11));
        RunCommand run = parse("run", "--sample");
        assertThat(banding(EmbeddedJob.settings(run.job.toConfiguration()))).isEqualTo(expected);
        EvaluateCommand evaluate = parse("evaluate", "--input", "x.jsonl");
        assertThat(banding(EmbeddedJob.settings(evaluate.job.toConfiguration())))
                .isEqualTo(expected);
        BenchCommand bench = parse("bench");
        assertThat(banding(EmbeddedJob.settings(bench.jobConfiguration()))).isEqualTo(expected);
        assertThat(LshParams.suggest(0.8, 128)).isEqualTo(expected);
        // tune prints it ...
        assertThat(CliRun.run("tune", "--threshold", "0.8").succeeded().out())
                .contains("11 bands x 11 rows")
                .contains("0.25 x FP area + 0.75 x FN area");
        // ... and so does compare.
        var a =
                java.nio.file.Files.writeString(
                        dir.resolve("a.txt"), "one two three four five six");
        var b = java.nio.file.Files.writeString(dir.resolve("b.txt"), "one two three four five");
        assertThat(CliRun.run("compare", a.toString(), b.toString()).succeeded().out())
                .contains("What the job would do (jaccard, threshold 0.8, as 'neardup run'")
                .containsPattern("LSH banding\\s+11 x 11\\s+bands x rows, as 'neardup tune");
    }

    private static LshParams banding(NearDupSettings settings) {
        return ((JaccardSettings) settings.similarity()).banding();
    }
}
