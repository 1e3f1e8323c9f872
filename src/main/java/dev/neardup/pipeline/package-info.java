/**
 * The Flink job: the graph builder {@link dev.neardup.pipeline.NearDupJob} and what its operators
 * share. A parsed record goes to the {@link dev.neardup.pipeline.SignatureFunction} (band records
 * grouped per bucket subtask by {@link dev.neardup.pipeline.BandRouting}, an announcement), keyed
 * by band key to the {@link dev.neardup.pipeline.buckets.BandBucketOperator}, then keyed by
 * document to the {@link dev.neardup.pipeline.verdicts.VerdictOperator} (alerts and verdicts);
 * containment mode puts the {@link dev.neardup.pipeline.samples.SampleIntakeFunction} and the
 * {@link dev.neardup.pipeline.samples.SampleStoreFunction} between the buckets and the verdicts.
 * "Earlier" is the order (event time, id) everywhere, and a verdict is final once the event-time
 * watermark passes its document ({@link dev.neardup.pipeline.DocumentWatermarks}).
 *
 * <p>Here: the strategy every operator holds ({@link dev.neardup.pipeline.CandidatePath}), the base
 * of the operators that keep raw keyed state ({@link dev.neardup.pipeline.RawKeyedStateOperator}),
 * the state check ({@link dev.neardup.pipeline.StateCompatibility}), metrics, RocksDB options, and
 * the types of released keyed state, which savepoints name and which therefore keep their package
 * and names: {@link dev.neardup.pipeline.PendingVerdict}, {@link
 * dev.neardup.pipeline.PendingContainmentVerdict} and {@link dev.neardup.pipeline.MatchList}, with
 * the readers of their older layouts ({@link dev.neardup.pipeline.OlderPendingVerdicts}). The
 * operators and the records between them are in the sub-packages {@code records}, {@code buckets},
 * {@code verdicts} and {@code samples}. Design: docs/design/streaming-operators.md.
 */
package dev.neardup.pipeline;
