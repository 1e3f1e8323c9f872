package dev.neardup.io;

import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Kafka records to parsed records: the raw record (value bytes, {@code topic-partition@offset} as
 * the source, record timestamp, and the coordinates for dead letters; a tombstone, with a null
 * value, has an empty payload, {@link RawRecord#tombstone} set and its key in {@link
 * RawRecord#key}), parsed and validated by a {@link DocumentParser}. No record can fail here:
 * anything unusable becomes a dead letter, and so does a record whose parsing throws ({@code
 * INTERNAL_ERROR}, {@link DocumentParser#parseRecord}).
 */
public class KafkaDocumentDeserializer implements KafkaRecordDeserializationSchema<ParsedRecord> {

    private static final long serialVersionUID = 1L;

    private final DocumentParser parser;

    public KafkaDocumentDeserializer(DocumentParser parser) {
        this.parser = Objects.requireNonNull(parser, "parser");
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<ParsedRecord> out) {
        out.collect(parser.parseRecord(raw(record), System.currentTimeMillis()));
    }

    private static RawRecord raw(ConsumerRecord<byte[], byte[]> record) {
        byte[] value = record.value() == null ? new byte[0] : record.value();
        RawRecord r =
                new RawRecord(
                        value, record.topic() + "-" + record.partition() + "@" + record.offset());
        r.timestamp = record.timestamp();
        r.topic = record.topic();
        r.partition = record.partition();
        r.offset = record.offset();
        if (record.value() == null) {
            r.tombstone = true;
            r.key = record.key();
        }
        return r;
    }

    @Override
    public TypeInformation<ParsedRecord> getProducedType() {
        return TypeInformation.of(ParsedRecord.class);
    }
}
