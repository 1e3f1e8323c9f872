/**
 * The records that travel between the job's operators, and their serializers: {@link
 * dev.neardup.pipeline.records.RoutedBands} (one per document and bucket subtask, to the band
 * buckets), {@link dev.neardup.pipeline.records.BandRecord} (one band of a document, unpacked
 * there), {@link dev.neardup.pipeline.records.VerdictEvent} (announcements and bucket reports, to
 * the verdicts) and, in containment mode, {@link dev.neardup.pipeline.records.SampleStoreRecord}
 * (samples, reports and candidate pairs, to the sample intake and store). {@link
 * dev.neardup.pipeline.records.RecordSerializers} writes the first three on the exchanges; the
 * sample intake keeps {@code SampleStoreRecord} (with its {@code VerdictEvent}) in keyed state with
 * Flink's POJO serializer, so once released those two names are in savepoints too. Design:
 * docs/design/streaming-operators.md.
 */
package dev.neardup.pipeline.records;
