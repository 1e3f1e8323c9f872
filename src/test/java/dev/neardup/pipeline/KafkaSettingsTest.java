package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        assertThat(KafkaSettings.isConfigured(base())).isTrue();
        assertThat(KafkaSettings.isConfigured(new Configuration())).isFalse();
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
                .hasMessageContaining("not a valid Kafka topic name");
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
                .contains("sasl.jaas.config=****")
                .contains("ssl.truststore.password=****")
                .doesNotContain("hunter2")
                .doesNotContain("s3cret");
        assertThat(KafkaSettings.redact("ssl.key.password", "x")).isEqualTo("****");
        assertThat(KafkaSettings.redact("bootstrap.servers", "h:1")).isEqualTo("h:1");
    }
}
