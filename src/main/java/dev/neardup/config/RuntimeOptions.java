package dev.neardup.config;

import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.StateBackendOptions;

/** The flags of Flink's own options that the commands take, and the values they accept. */
public final class RuntimeOptions {

    private RuntimeOptions() {}

    public static final ConfigOption<Integer> PARALLELISM =
            Setting.of(CoreOptions.DEFAULT_PARALLELISM)
                    .flag("N", "--parallelism", "-p")
                    .help("Parallelism of the job. Default: the number of CPU cores.")
                    .between(1, 32_768)
                    .declare();

    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL =
            Setting.of(CheckpointingOptions.CHECKPOINTING_INTERVAL)
                    .flag("DURATION", "--checkpoint-interval")
                    .help(
                            "Checkpoint interval. Default on this machine: 10s for Kafka"
                                    + " (bench: 5s), none for a run over files (it is run again"
                                    + " from the start instead); on a Flink cluster, the"
                                    + " cluster's own configuration, unless this flag or -D sets"
                                    + " it.")
                    .atLeast(Duration.ofMillis(10))
                    .declare();

    public static final ConfigOption<String> STATE_BACKEND =
            Setting.of(StateBackendOptions.STATE_BACKEND)
                    .flag("rocksdb|hashmap", "--state-backend")
                    .help(
                            "Keyed state backend: rocksdb (on disk, scales) or hashmap (on the"
                                    + " heap, fast for small inputs). Default: rocksdb (on a Flink"
                                    + " cluster: the cluster's state.backend.type).")
                    .oneOf("rocksdb", "hashmap")
                    .declare();
}
