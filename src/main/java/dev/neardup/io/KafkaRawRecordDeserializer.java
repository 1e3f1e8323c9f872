package dev.neardup.io;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Kafka records to {@link RawRecord}s, untouched: the value's bytes, {@code topic-partition@offset}
 * as the source, the record timestamp, and the coordinates for dead letters. A tombstone (null
 * value) has an empty payload, {@link RawRecord#tombstone} set and its key in {@link
 * RawRecord#key}. Parsing and validation happen downstream, so no record can fail here and stop the
 * job.
 */
public class KafkaRawRecordDeserializer implements KafkaRecordDeserializationSchema<RawRecord> {

    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawRecord> out) {
        out.collect(raw(record));
    }

    static RawRecord raw(ConsumerRecord<byte[], byte[]> record) {
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
    public TypeInformation<RawRecord> getProducedType() {
        return TypeInformation.of(RawRecord.class);
    }
}
