package dev.neardup.io;

import dev.neardup.io.warc.ArchiveFormat;
import dev.neardup.io.warc.WarcOutcome;
import dev.neardup.io.warc.WarcReadSettings;
import dev.neardup.io.warc.WarcRecordReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.flink.api.common.serialization.DeserializationSchema;
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
 *
 * <p>A value may also be WARC (or ARC) records, as {@code neardup.input.format} says: {@link
 * InputFormat.Kind#WARC} reads every value so, {@link InputFormat.Kind#AUTO} each value whose first
 * bytes are a record ({@link ArchiveFormat#sniffRecord}: {@code WARC/}, an ARC header, or a gzip
 * member that inflates to one; JSON never starts so), {@link InputFormat.Kind#JSON_LINES} none.
 * Such a value is read with {@link WarcRecordReader} as a WARC file is, and every record in it is
 * turned into a parsed record as a file's are ({@link WarcDocuments#parsed}): a document (id and
 * url the target URI, event time the {@code WARC-Date}; the record key and timestamp are not used),
 * a dead letter carrying the value (its source {@code topic-partition@offset}, and {@code +N} after
 * it for a record that starts N bytes into the value), or a skip counted in the metric {@link
 * SourceCounters#SKIPPED}. A tombstone is a deletion whatever the format.
 */
public class KafkaDocumentDeserializer implements KafkaRecordDeserializationSchema<ParsedRecord> {

    private static final long serialVersionUID = 1L;

    private final DocumentParser parser;
    private final InputFormat.Kind format;
    private final WarcReadSettings warc;

    /** Counts WARC records skipped; set by {@link #open}, counting nothing before. */
    private transient SourceCounters counters;

    /** Every value JSON: {@link InputFormat.Kind#JSON_LINES}. */
    public KafkaDocumentDeserializer(DocumentParser parser) {
        this(parser, InputFormat.Kind.JSON_LINES, WarcReadSettings.defaults());
    }

    /**
     * @param format which values are WARC records (AUTO: by their first bytes)
     * @param warc how WARC records become documents
     */
    public KafkaDocumentDeserializer(
            DocumentParser parser, InputFormat.Kind format, WarcReadSettings warc) {
        this.parser = Objects.requireNonNull(parser, "parser");
        this.format = Objects.requireNonNull(format, "format");
        this.warc = Objects.requireNonNull(warc, "warc");
    }

    @Override
    public void open(DeserializationSchema.InitializationContext context) {
        counters = new SourceCounters(context.getMetricGroup());
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<ParsedRecord> out) {
        long now = System.currentTimeMillis();
        RawRecord raw = raw(record);
        if (record.value() != null && isWarc(record.value())) {
            readWarc(raw, now, out::collect);
        } else {
            out.collect(parser.parseRecord(raw, now));
        }
    }

    private boolean isWarc(byte[] value) {
        return switch (format) {
            case WARC -> true;
            case JSON_LINES -> false;
            case AUTO -> ArchiveFormat.sniffRecord(value).isPresent();
        };
    }

    /**
     * The records of a value read as WARC: each one's parsed record, in order, skips counted. A
     * value without any record is one dead letter {@code MALFORMED_RECORD}; a failure of the reader
     * itself one {@code INTERNAL_ERROR} (the records before it are kept).
     */
    private void readWarc(RawRecord message, long now, Consumer<ParsedRecord> out) {
        Consumer<String> skip =
                counters != null ? reason -> counters.skipped(reason).inc() : reason -> {};
        // Collected first, so that only the reader's failures become INTERNAL_ERROR, not the
        // collector's.
        List<ParsedRecord> parsed = new ArrayList<>();
        boolean any = false;
        ParsedRecord failure = null;
        try (WarcRecordReader records =
                WarcRecordReader.ofMessage(message.payload, message.source, warc)) {
            WarcOutcome o;
            while ((o = records.read()) != null) {
                any = true;
                ParsedRecord r =
                        WarcDocuments.parsed(parser, o, ofRecord(message, o.offset()), now, skip);
                if (r != null) {
                    parsed.add(r);
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(KafkaDocumentDeserializer.class)
                    .warn(
                            "reading the WARC record at {} failed; it is a dead letter",
                            message.source,
                            e);
            failure =
                    new ParsedRecord(
                            null, DeadLetter.internalError(message, null, e, "reading", now));
        }
        if (failure == null && !any) {
            failure =
                    new ParsedRecord(
                            null,
                            DocumentParser.deadLetter(
                                    message,
                                    DeadLetter.Reason.MALFORMED_RECORD,
                                    "the message holds no WARC or ARC record",
                                    null,
                                    now));
        }
        parsed.forEach(out);
        if (failure != null) {
            out.accept(failure);
        }
    }

    /**
     * The message as the raw record of its record at {@code offset}: {@code +offset} when not 0.
     */
    private static RawRecord ofRecord(RawRecord message, long offset) {
        if (offset == 0) {
            return message;
        }
        RawRecord r = new RawRecord(message.payload, message.source + "+" + offset);
        r.timestamp = message.timestamp;
        r.topic = message.topic;
        r.partition = message.partition;
        r.offset = message.offset;
        return r;
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
