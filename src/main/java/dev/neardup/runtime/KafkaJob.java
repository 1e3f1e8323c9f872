package dev.neardup.runtime;

import dev.neardup.config.NearDupSettings;
import dev.neardup.pipeline.DocumentWatermarks;
import dev.neardup.pipeline.NearDupJob;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** The job between Kafka topics: the same graph as the file mode, Kafka source and sinks. */
public final class KafkaJob {

    private KafkaJob() {}

    /**
     * Starts the job in the environment {@code conf} describes (the embedded MiniCluster, or the
     * cluster a {@code flink run} submits to) and returns at once.
     *
     * <p>Unless the configuration (the program's, or the cluster's {@code config.yaml}) sets {@code
     * execution.checkpointing.timeout}, it is {@link KafkaSettings#DEFAULT_CHECKPOINT_TIMEOUT};
     * with exactly-once delivery the transaction timeout is checked against it (see {@link
     * KafkaSettings#checkTransactionTimeout}).
     *
     * @throws IllegalArgumentException when exactly-once delivery is asked for without checkpoints,
     *     which it needs to commit its transactions, or with a transaction timeout that does not
     *     outlast them
     */
    public static JobClient start(Configuration conf, NearDupSettings settings, KafkaSettings kafka)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        // On a cluster, the environment's configuration is the cluster's with conf on top.
        ReadableConfig effective = env.getConfiguration();
        if (kafka.delivery() == DeliveryGuarantee.EXACTLY_ONCE
                && effective.getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL).isEmpty()) {
            throw new IllegalArgumentException(
                    "exactly-once delivery commits Kafka transactions on checkpoints: set "
                            + CheckpointingOptions.CHECKPOINTING_INTERVAL.key()
                            + " (e.g. 10s) or use neardup.kafka.delivery-guarantee=at-least-once");
        }
        if (effective.getOptional(CheckpointingOptions.CHECKPOINTING_TIMEOUT).isEmpty()) {
            env.getCheckpointConfig()
                    .setCheckpointTimeout(KafkaSettings.DEFAULT_CHECKPOINT_TIMEOUT.toMillis());
        }
        kafka.checkTransactionTimeout(KafkaSettings.CheckpointTiming.of(effective));
        new NearDupJob(
                        settings,
                        kafka.source(settings.input()),
                        DocumentWatermarks.boundedOutOfOrderness(settings.watermarks()),
                        kafka.alertSink(),
                        kafka.verdictSink(),
                        kafka.deadLetterSink())
                .build(env);
        return env.executeAsync("neardup (Kafka)");
    }
}
