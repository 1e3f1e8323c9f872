package dev.neardup.io;

import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Kafka records to parsed records: {@link KafkaRawRecordDeserializer}'s raw record (value bytes,
 * {@code topic-partition@offset}, record timestamp), parsed and validated by a {@link
 * DocumentParser}. No record can fail here: anything unusable becomes a dead letter, and so does a
 * record whose parsing throws ({@code INTERNAL_ERROR}, {@link DocumentParser#parseRecord}).
 */
public class KafkaDocumentDeserializer implements KafkaRecordDeserializationSchema<ParsedRecord> {

    private static final long serialVersionUID = 1L;

    private final DocumentParser parser;

    public KafkaDocumentDeserializer(DocumentParser parser) {
        this.parser = Objects.requireNonNull(parser, "parser");
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<ParsedRecord> out) {
        RawRecord raw = KafkaRawRecordDeserializer.raw(record);
        out.collect(parser.parseRecord(raw, System.currentTimeMillis()));
    }

    @Override
    public TypeInformation<ParsedRecord> getProducedType() {
        return TypeInformation.of(ParsedRecord.class);
    }
}
