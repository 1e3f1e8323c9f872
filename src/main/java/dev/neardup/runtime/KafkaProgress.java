package dev.neardup.runtime;

import dev.neardup.config.OptionValues;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The progress of a Kafka-mode run on this machine, every few seconds on stderr ({@link Progress},
 * {@code "progress":"kafka"}): documents read and per second, alerts, verdicts and dead letters
 * sent ({@link JobCounts}), and the consumer lag, null when the brokers do not answer. Format:
 * docs/kafka.md; the counts: docs/design/local-runs.md.
 */
public final class KafkaProgress implements AutoCloseable {

    /** System property overriding the interval between lines (a Flink duration, e.g. "1s"). */
    public static final String INTERVAL_PROPERTY = "neardup.progress.interval";

    private static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
    private static final Duration LAG_TIMEOUT = Duration.ofSeconds(3);

    private final KafkaSettings kafka;
    private final Progress progress;
    private Admin admin;

    public KafkaProgress(JobCounts counts, KafkaSettings kafka, PrintWriter err) {
        this.kafka = kafka;
        Progress.Counts kafkaCounts =
                Progress.streaming(
                        counts,
                        () -> counts.written(EmbeddedJob.ALERTS),
                        () -> {
                            List<Progress.Field> more = new java.util.ArrayList<>();
                            more.add(Progress.Field.named("consumerLag", "consumer lag", lag()));
                            more.addAll(Progress.latencies(counts));
                            return more;
                        });
        this.progress = Progress.onStderr(err, null, "kafka", kafkaCounts);
    }

    public static Duration interval() {
        String text = System.getProperty(INTERVAL_PROPERTY);
        if (text == null) {
            return DEFAULT_INTERVAL;
        }
        Duration d =
                NeardupException.usageIfInvalid(
                        () -> OptionValues.duration("-D" + INTERVAL_PROPERTY, text));
        return d.isZero() || d.isNegative() ? DEFAULT_INTERVAL : d;
    }

    public void report() {
        progress.report();
    }

    public void finish() {
        progress.finish();
    }

    private Long lag() {
        try {
            if (admin == null) {
                admin = Admin.create(kafka.adminProperties(LAG_TIMEOUT));
            }
            return consumerLag(admin, kafka.inputTopic(), kafka.groupId(), LAG_TIMEOUT);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The records of {@code topic} after the committed offsets of {@code group}: per partition the
     * end offset less the committed one, or less the earliest retained one where the group has
     * committed none.
     *
     * @return the lag, or null when the brokers do not answer within {@code timeout}
     */
    public static Long consumerLag(Admin admin, String topic, String group, Duration timeout) {
        try {
            long ms = timeout.toMillis();
            var description =
                    admin.describeTopics(List.of(topic))
                            .allTopicNames()
                            .get(ms, TimeUnit.MILLISECONDS)
                            .get(topic);
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            for (var p : description.partitions()) {
                TopicPartition tp = new TopicPartition(topic, p.partition());
                latest.put(tp, OffsetSpec.latest());
                earliest.put(tp, OffsetSpec.earliest());
            }
            var ends = admin.listOffsets(latest).all().get(ms, TimeUnit.MILLISECONDS);
            var starts = admin.listOffsets(earliest).all().get(ms, TimeUnit.MILLISECONDS);
            Map<TopicPartition, OffsetAndMetadata> committed =
                    admin.listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata()
                            .get(ms, TimeUnit.MILLISECONDS);
            long lag = 0;
            for (TopicPartition tp : latest.keySet()) {
                long end = ends.get(tp).offset();
                OffsetAndMetadata c = committed.get(tp);
                long from = c != null ? c.offset() : starts.get(tp).offset();
                lag += Math.max(0, end - from);
            }
            return lag;
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void close() {
        finish();
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }
}
