package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.Secrets;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.junit.jupiter.api.Test;

/** Validation of the Kafka options and masking of secrets (no broker needed). */
class KafkaSettingsTest {

    private static Configuration base() {
        Configuration c = new Configuration();
        c.set(NearDupOptions.KAFKA_BOOTSTRAP_SERVERS, "127.0.0.1:9092");
        return c;
    }

    @Test
    void defaultsAreExactlyOnceFromCommittedOffsets() {
        KafkaSettings k = KafkaSettings.from(base());
        assertThat(k.delivery()).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
        assertThat(k.bounded()).isFalse();
        assertThat(k.describe())
                .contains("documents -> alerts, verdicts, dead-letters")
                .contains("start committed")
                .contains("exactly-once");
    }

    @Test
    void rejectsUnusableOptionsNamingThem() {
        Configuration c = base();
        c.set(NearDupOptions.KAFKA_STARTING_OFFSETS, "yesterday");
        assertThatThrownBy(() -> KafkaSettings.from(c))
                .hasMessageContaining("neardup.kafka.starting-offsets")
                .hasMessageContaining("timestamp:EPOCH_MILLIS");
        Configuration d = base();
        d.set(NearDupOptions.KAFKA_DELIVERY_GUARANTEE, "maybe");
        assertThatThrownBy(() -> KafkaSettings.from(d))
                .hasMessageContaining("neardup.kafka.delivery-guarantee");
        Configuration e = base();
        e.set(NearDupOptions.KAFKA_ALERTS_TOPIC, "documents");
        assertThatThrownBy(() -> KafkaSettings.from(e)).hasMessageContaining("must differ");
        Configuration f = base();
        f.set(NearDupOptions.KAFKA_VERDICTS_TOPIC, "bad topic!");
        assertThatThrownBy(() -> KafkaSettings.from(f))
                .hasMessageContaining("neardup.kafka.verdicts-topic (--verdicts-topic)")
                .hasMessageContaining("must be a Kafka topic name")
                .hasMessageContaining("got 'bad topic!'");
        assertThatThrownBy(() -> KafkaSettings.from(new Configuration()))
                .hasMessageContaining("neardup.kafka.bootstrap-servers: must be set");
        Configuration g = base();
        g.set(NearDupOptions.KAFKA_STARTING_OFFSETS, "timestamp:1700000000000");
        assertThat(KafkaSettings.from(g).describe()).contains("timestamp:1700000000000");
    }

    @Test
    void exactlyOnceWithoutCheckpointsFailsFast() {
        Configuration c = base();
        assertThatThrownBy(() -> KafkaJob.start(c, NearDupSettings.from(c), KafkaSettings.from(c)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("execution.checkpointing.interval");
    }

    @Test
    void clientPropertiesPassThroughWithSecretsMasked() {
        Configuration c = base();
        c.setString(NearDupOptions.KAFKA_PROPERTIES_PREFIX + "security.protocol", "SASL_SSL");
        c.setString(
                NearDupOptions.KAFKA_PROPERTIES_PREFIX + "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"u\" password=\"hunter2\";");
        c.setString(NearDupOptions.KAFKA_PROPERTIES_PREFIX + "ssl.truststore.password", "s3cret");
        String described = KafkaSettings.from(c).describe();
        assertThat(described)
                .contains("security.protocol=SASL_SSL")
                .contains("sasl.jaas.config=******")
                .contains("ssl.truststore.password=******")
                .doesNotContain("hunter2")
                .doesNotContain("s3cret");
        assertThat(Secrets.redact("ssl.key.password", "x")).isEqualTo("******");
        assertThat(Secrets.redact("bootstrap.servers", "h:1")).isEqualTo("h:1");
    }

    private static Configuration timing(String interval, String timeout) {
        Configuration c = base();
        c.setString("execution.checkpointing.interval", interval);
        if (timeout != null) {
            c.setString("execution.checkpointing.timeout", timeout);
        }
        return c;
    }

    @Test
    void defaultsLeaveElevenMinutesToRestartAfterACrash() {
        Configuration c = timing("10s", null);
        KafkaSettings k = KafkaSettings.from(c);
        KafkaSettings.CheckpointTiming t = KafkaSettings.CheckpointTiming.of(c);
        assertThat(k.transactionTimeout()).isEqualTo(Duration.ofMinutes(15));
        assertThat(t.timeout()).isEqualTo(KafkaSettings.DEFAULT_CHECKPOINT_TIMEOUT);
        // max(10 s, 2 min) + 2 min: a barrier may wait for a slow checkpoint to time out
        assertThat(t.longestTransaction()).isEqualTo(Duration.ofMinutes(4));
        assertThat(k.allowedDowntime(t)).isEqualTo(Duration.ofMinutes(11));
        k.checkTransactionTimeout(t); // consistent
    }

    @Test
    void theLongestTransactionGrowsWithIntervalPauseAndToleratedFailures() {
        assertThat(KafkaSettings.CheckpointTiming.of(timing("10min", "1min")).longestTransaction())
                .isEqualTo(Duration.ofMinutes(11));
        Configuration c = timing("30s", "1min");
        c.setString("execution.checkpointing.min-pause", "30s");
        c.setString("execution.checkpointing.tolerable-failed-checkpoints", "2");
        // max(30 s, 1 min + 30 s) x 3 + 1 min
        assertThat(KafkaSettings.CheckpointTiming.of(c).longestTransaction())
                .isEqualTo(Duration.ofSeconds(330));
    }

    @Test
    void anInconsistentTransactionTimeoutFailsNamingTheSettings() {
        Configuration c = timing("10s", "3min");
        c.setString(NearDupOptions.KAFKA_PROPERTIES_PREFIX + "transaction.timeout.ms", "300000");
        KafkaSettings k = KafkaSettings.from(c);
        KafkaSettings.CheckpointTiming t = KafkaSettings.CheckpointTiming.of(c);
        assertThatThrownBy(() -> k.checkTransactionTimeout(t))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("neardup.kafka.properties.transaction.timeout.ms = 300000")
                .hasMessageContaining("5 min")
                .hasMessageContaining("6 min")
                .hasMessageContaining("execution.checkpointing.timeout 3 min")
                .hasMessageContaining("lower execution.checkpointing.timeout or raise");
        // 5 min - (2 min + 2 min) leaves exactly the minimum restart window: accepted
        Configuration ok = timing("10s", "2min");
        ok.setString(NearDupOptions.KAFKA_PROPERTIES_PREFIX + "transaction.timeout.ms", "300000");
        KafkaSettings.from(ok).checkTransactionTimeout(KafkaSettings.CheckpointTiming.of(ok));
        // at-least-once writes without transactions: nothing to check
        c.set(NearDupOptions.KAFKA_DELIVERY_GUARANTEE, "at-least-once");
        KafkaSettings.from(c).checkTransactionTimeout(t);
    }

    @Test
    void theJobRefusesInconsistentTimeoutsBeforeItStarts() {
        Configuration c = timing("10s", "14min");
        assertThatThrownBy(() -> KafkaJob.start(c, NearDupSettings.from(c), KafkaSettings.from(c)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("execution.checkpointing.timeout 14 min");
    }

    @Test
    void aTransactionTimeoutMustBeAPositiveNumberOfMilliseconds() {
        Configuration c = base();
        c.setString(NearDupOptions.KAFKA_PROPERTIES_PREFIX + "transaction.timeout.ms", "15min");
        assertThatThrownBy(() -> KafkaSettings.from(c))
                .hasMessageContaining("neardup.kafka.properties.transaction.timeout.ms")
                .hasMessageContaining("positive number of milliseconds");
        assertThat(KafkaSettings.human(Duration.ofSeconds(150))).isEqualTo("2 min 30 s");
        assertThat(KafkaSettings.human(Duration.ofMillis(500))).isEqualTo("500 ms");
        assertThat(KafkaSettings.human(Duration.ofMinutes(90))).isEqualTo("1 h 30 min");
    }
}
