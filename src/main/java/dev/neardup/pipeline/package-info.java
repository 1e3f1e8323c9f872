/**
 * The Flink job: operators ({@code *Function}, {@code *Operator}), the records between them, and
 * the graph builder {@link dev.neardup.pipeline.NearDupJob}. A parsed record goes to the {@link
 * dev.neardup.pipeline.SignatureFunction} (band records, an announcement), keyed by band key to the
 * {@link dev.neardup.pipeline.buckets.BandBucketOperator}, then keyed by document to the {@link
 * dev.neardup.pipeline.verdicts.VerdictOperator} (alerts and verdicts); containment mode puts the
 * {@link dev.neardup.pipeline.samples.SampleIntakeFunction} and the {@link
 * dev.neardup.pipeline.samples.SampleStoreFunction} between the buckets and the verdicts. "Earlier"
 * is the order (event time, id) everywhere, and a verdict is final once the event-time watermark
 * passes its document ({@link dev.neardup.pipeline.DocumentWatermarks}). Design:
 * docs/design/streaming-operators.md.
 */
package dev.neardup.pipeline;
