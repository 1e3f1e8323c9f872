package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.junit.jupiter.api.Test;

class EmbeddedRunConfigurationTest {

    private static final Path WORK = Path.of("/tmp/neardup-test-work");

    @Test
    void aRunOverFilesTakesNoCheckpointsUnlessAsked() {
        Configuration run = EmbeddedRun.configuration(new Configuration(), WORK);
        assertThat(run.getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isEmpty();
        assertThat(run.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("rocksdb");
        assertThat(run.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY))
                .isEqualTo(WORK.resolve("checkpoints").toUri().toString());
    }

    @Test
    void anIntervalTheUserGaveIsKept() {
        Configuration asked = new Configuration();
        asked.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(3));
        assertThat(
                        EmbeddedRun.configuration(asked, WORK)
                                .get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aKafkaRunKeepsItsDefaultInterval() {
        Configuration kafka =
                EmbeddedJob.configuration(
                        new Configuration(), WORK, EmbeddedJob.DEFAULT_CHECKPOINT_INTERVAL);
        assertThat(kafka.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofSeconds(10));
    }
}
