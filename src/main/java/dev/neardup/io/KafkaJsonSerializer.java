package dev.neardup.io;

import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Output records to Kafka: the JSON of the record as the value, the document id (UTF-8) as the key,
 * so all records about one document land in one partition in order. Dead letters also carry their
 * reason and origin as headers, in the manner of Kafka Connect's dead-letter queue: {@code
 * neardup.dlq.reason}, {@code neardup.dlq.message}, {@code neardup.dlq.topic}, {@code
 * neardup.dlq.partition}, {@code neardup.dlq.offset}.
 */
public class KafkaJsonSerializer<T> implements KafkaRecordSerializationSchema<T> {

    private static final long serialVersionUID = 1L;

    private final String topic;

    /** The record key (a document id, or null). */
    private final SerializableFunction<T, String> key;

    public KafkaJsonSerializer(String topic, SerializableFunction<T, String> key) {
        this.topic = topic;
        this.key = key;
    }

    /** Alerts keyed by the new document's id. */
    public static KafkaJsonSerializer<Alert> alerts(String topic) {
        return new KafkaJsonSerializer<>(topic, a -> a.docId);
    }

    /** Verdicts keyed by document id. */
    public static KafkaJsonSerializer<Verdict> verdicts(String topic) {
        return new KafkaJsonSerializer<>(topic, v -> v.docId);
    }

    /** Dead letters keyed by document id when it is known. */
    public static KafkaJsonSerializer<DeadLetter> deadLetters(String topic) {
        return new KafkaJsonSerializer<>(topic, d -> d.docId);
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(
            T element, KafkaSinkContext context, Long timestamp) {
        String k = key.apply(element);
        byte[] keyBytes = k == null ? null : k.getBytes(StandardCharsets.UTF_8);
        byte[] value = Json.write(element).getBytes(StandardCharsets.UTF_8);
        RecordHeaders headers = new RecordHeaders();
        if (element instanceof DeadLetter d) {
            header(headers, "neardup.dlq.reason", d.reason);
            header(headers, "neardup.dlq.message", d.message);
            header(headers, "neardup.dlq.source", d.source);
            header(headers, "neardup.dlq.topic", d.sourceTopic);
            header(headers, "neardup.dlq.partition", d.sourcePartition);
            header(headers, "neardup.dlq.offset", d.sourceOffset);
        }
        return new ProducerRecord<>(topic, null, null, keyBytes, value, headers);
    }

    private static void header(RecordHeaders headers, String name, Object value) {
        if (value != null) {
            headers.add(name, String.valueOf(value).getBytes(StandardCharsets.UTF_8));
        }
    }
}
