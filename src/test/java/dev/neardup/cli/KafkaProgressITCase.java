package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.runtime.KafkaProgress;
import dev.neardup.testing.KafkaTestBroker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The consumer lag of the Kafka progress line, against the real test broker. */
class KafkaProgressITCase {

    @Test
    void consumerLagIsTheRecordsAfterTheGroupsCommittedOffsets() throws Exception {
        String topic = KafkaTestBroker.uniqueTopic("lag");
        KafkaTestBroker.createTopics(2, topic);
        List<Map.Entry<String, byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            records.add(Map.entry("k" + i, ("r" + i).getBytes(StandardCharsets.UTF_8)));
        }
        KafkaTestBroker.produce(topic, records);
        String group = "lag-" + topic;
        Duration timeout = Duration.ofSeconds(30);
        try (Admin admin =
                Admin.create(Map.of("bootstrap.servers", KafkaTestBroker.bootstrapServers()))) {
            // No committed offsets yet: every retained record is behind.
            assertThat(KafkaProgress.consumerLag(admin, topic, group, timeout)).isEqualTo(10);

            TopicPartition p0 = new TopicPartition(topic, 0);
            TopicPartition p1 = new TopicPartition(topic, 1);
            var ends =
                    admin.listOffsets(Map.of(p0, OffsetSpec.latest(), p1, OffsetSpec.latest()))
                            .all()
                            .get(30, TimeUnit.SECONDS);
            long end0 = ends.get(p0).offset();
            long end1 = ends.get(p1).offset();
            assertThat(end0 + end1).isEqualTo(10);
            admin.alterConsumerGroupOffsets(
                            group,
                            Map.of(
                                    p0, new OffsetAndMetadata(end0),
                                    p1, new OffsetAndMetadata(Math.min(1, end1))))
                    .all()
                    .get(30, TimeUnit.SECONDS);
            assertThat(KafkaProgress.consumerLag(admin, topic, group, timeout))
                    .isEqualTo(end1 - Math.min(1, end1));

            // A topic that does not exist: unknown, not zero.
            assertThat(
                            KafkaProgress.consumerLag(
                                    admin, KafkaTestBroker.uniqueTopic("absent"), group, timeout))
                    .isNull();
        }
    }
}
