package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.OptionValues;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.similarity.SimilarityMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.client.program.StreamContextEnvironment;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.core.execution.DefaultExecutorServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No setting is silently wrong: a duration or memory size without its unit is a usage error that
 * names the accepted forms, from a flag, {@code -D} or the cluster's configuration; an unknown
 * {@code neardup.*} key is a usage error naming the closest known one, while other keys pass
 * through to Flink; the settings line prints durations as the flags take them.
 */
class SettingsValuesTest {

    private static final String RUN = "neardup run";

    @TempDir Path dir;

    /** An input file that exists (the commands check that first). */
    private String someFile() {
        try {
            return Files.writeString(dir.resolve("in.jsonl"), "").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aDurationFlagWithoutAUnitIsAUsageErrorNamingTheForms() {
        for (String flag :
                new String[] {
                    "--retention",
                    "--checkpoint-interval",
                    "--max-out-of-orderness",
                    "--idle-timeout",
                    "--progress-interval"
                }) {
            CliRun.run("run", "--sample", flag, "30")
                    .usageError(RUN, flag + ": '30' has no unit")
                    .usageError(RUN, "30d")
                    .usageError(RUN, "5m")
                    .usageError(RUN, "PT30S");
        }
        CliRun.run("evaluate", "--input", someFile(), "--retention", "30")
                .usageError("neardup evaluate", "--retention: '30' has no unit");
    }

    @Test
    void aDurationOrSizeFromMinusDWithoutAUnitIsAUsageError() {
        CliRun.run("run", "--sample", "-D", "neardup.retention=30")
                .usageError(RUN, "neardup.retention (-D): '30' has no unit")
                .usageError(RUN, "PT30S");
        CliRun.run("run", "--sample", "-D", "neardup.watermark.idle-timeout=10")
                .usageError(RUN, "neardup.watermark.idle-timeout (-D): '10' has no unit");
        CliRun.run("run", "--sample", "-D", "neardup.bucket.order-buffer=1024")
                .usageError(RUN, "neardup.bucket.order-buffer (-D): '1024' has no unit")
                .usageError(RUN, "1kb")
                .usageError(RUN, "32mb");
        CliRun.run("run", "--sample", "-D", "neardup.max-document-size=lots")
                .usageError(RUN, "neardup.max-document-size (-D): 'lots' is not a memory size");
        CliRun.run("dedupe", "--sample", "--clusters", "c.jsonl", "-D", "neardup.retention=30")
                .usageError("neardup dedupe", "neardup.retention (-D): '30' has no unit");
    }

    @Test
    void valuesWithUnitsAndZeroAreAccepted() {
        assertThat(OptionValues.duration("x", "30d")).isEqualTo(Duration.ofDays(30));
        assertThat(OptionValues.duration("x", "30 d")).isEqualTo(Duration.ofDays(30));
        assertThat(OptionValues.duration("x", "PT30S")).isEqualTo(Duration.ofSeconds(30));
        assertThat(OptionValues.duration("x", "500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(OptionValues.duration("x", "0")).isZero();
        assertThat(OptionValues.memorySize("x", "1kb")).isEqualTo(MemorySize.parse("1024b"));
        assertThat(OptionValues.memorySize("x", "0").getBytes()).isZero();
        assertThatThrownBy(() -> OptionValues.duration("--retention", "1.5"))
                .hasMessageContaining("--retention: '1.5' has no unit");
        assertThatThrownBy(() -> OptionValues.memorySize("x", "8")).hasMessageContaining("1kb");
        RunCommand run =
                JobOptionsTest.parse(
                        "run",
                        "--sample",
                        "--retention",
                        "PT12H",
                        "-D",
                        "neardup.bucket.order-buffer=64mb",
                        "-D",
                        "neardup.verdict.pending-buffer=0");
        Configuration conf = run.job.toConfiguration();
        assertThat(conf.get(NearDupOptions.RETENTION)).isEqualTo(Duration.ofHours(12));
        assertThat(conf.get(NearDupOptions.ORDER_BUFFER)).isEqualTo(MemorySize.parse("64mb"));
    }

    @Test
    void theSettingsLinePrintsDurationsAsTheFlagsTakeThem() {
        RunCommand run = JobOptionsTest.parse("run", "--sample");
        assertThat(SimilarityMode.of(EmbeddedJob.settings(run.job.toConfiguration())).describe())
                .contains("retention=30d")
                .doesNotContain("PT");
        run = JobOptionsTest.parse("run", "--sample", "--retention", "36h");
        assertThat(SimilarityMode.of(EmbeddedJob.settings(run.job.toConfiguration())).describe())
                .contains("retention=36h");
        RunCommand cosine = JobOptionsTest.parse("run", "--sample", "--similarity", "cosine");
        assertThat(SimilarityMode.of(EmbeddedJob.settings(cosine.job.toConfiguration())).describe())
                .contains("retention=30d");
        assertThat(OptionValues.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(OptionValues.format(MemorySize.parse("32mb"))).isEqualTo("32mb");
        assertThat(OptionValues.format(MemorySize.parse("1025b"))).isEqualTo("1025b");
    }

    @Test
    void anUnknownNeardupKeyIsAUsageErrorWithTheClosestKnownKey() {
        CliRun.run("run", "--sample", "-D", "neardup.treshold=0.9")
                .usageError(
                        RUN,
                        "unknown option neardup.treshold (-D); did you mean neardup.threshold?");
        CliRun.run("run", "--sample", "-D", "neardup.bucket.capacty=8")
                .usageError(RUN, "did you mean neardup.bucket.capacity?");
        CliRun.run("evaluate", "--input", someFile(), "-D", "neardup.dedupe.windw=8")
                .usageError("neardup evaluate", "did you mean neardup.dedupe.window?");
        CliRun.run("dedupe", "--sample", "--clusters", "c.jsonl", "-D", "neardup.minhsh=oph")
                .usageError("neardup dedupe", "did you mean neardup.minhash?");
        CliRun.run("bench", "-D", "neardup.shingle.sise=3")
                .usageError("neardup bench", "did you mean neardup.shingle.size?");
        CliRun.run("run", "--sample", "-D", "neardup.zzzzzzzz=1")
                .usageError(RUN, "unknown option neardup.zzzzzzzz");
    }

    @Test
    void knownKeysDeprecatedKeysKafkaPropertiesAndOtherPrefixesPass() {
        RunCommand run =
                JobOptionsTest.parse(
                        "run",
                        "--sample",
                        "-D",
                        "neardup.kafka.max-out-of-orderness=1m",
                        "-D",
                        "neardup.kafka.properties.security.protocol=SSL",
                        "-D",
                        "neardup.rocksdb.memtable-bloom-ratio=0.1",
                        "-D",
                        "neardup.dedupe.window=8",
                        "-D",
                        "taskmanager.memory.managed.size=512m",
                        "-D",
                        "some.flink.key.nobody.knows=1");
        Configuration conf = run.job.toConfiguration();
        assertThat(conf.get(NearDupOptions.MAX_OUT_OF_ORDERNESS)).isEqualTo(Duration.ofMinutes(1));
        assertThat(conf.toMap()).containsEntry("some.flink.key.nobody.knows", "1");
    }

    @Test
    void anUnknownNeardupKeyInTheClustersConfigurationFailsTheJobJar() {
        Configuration cluster = new Configuration();
        cluster.setString("neardup.treshold", "0.9");
        assertThatThrownBy(() -> JobOptions.onCluster(cluster, new Configuration()))
                .isInstanceOf(dev.neardup.config.ConfigException.class)
                .hasMessageContaining("unknown option neardup.treshold")
                .hasMessageContaining("config.yaml")
                .hasMessageContaining("did you mean neardup.threshold?");
        Configuration bare = new Configuration();
        bare.setString("neardup.retention", "30");
        assertThatThrownBy(() -> JobOptions.onCluster(bare, new Configuration()))
                .hasMessageContaining("'30' has no unit");
        // What 'flink run neardup-job.jar' does: the cluster's config.yaml is the context.
        StreamContextEnvironment.setAsContext(
                new DefaultExecutorServiceLoader(),
                cluster,
                SettingsValuesTest.class.getClassLoader(),
                false,
                false);
        try {
            assertThatThrownBy(
                            () -> JobMain.main(new String[] {"--bootstrap-servers", "127.0.0.1:9"}))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("exit code 2")
                    .hasMessageContaining(
                            "unknown option neardup.treshold (in the cluster's configuration");
        } finally {
            StreamContextEnvironment.unsetAsContext();
        }
    }
}
