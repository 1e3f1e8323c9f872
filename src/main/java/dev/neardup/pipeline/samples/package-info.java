/**
 * Containment mode's sample store, between the band buckets and the verdicts: the {@link
 * dev.neardup.pipeline.samples.SampleIntakeFunction} (keyed by document) holds each document's
 * bottom-s sample until its buckets have reported and joins their candidate pairs with it; the
 * {@link dev.neardup.pipeline.samples.SampleStoreFunction} (keyed by member) keeps the samples of
 * the documents the buckets keep ({@link dev.neardup.pipeline.samples.StoredSamples}) and verifies
 * each pair. Design: docs/design/streaming-operators.md.
 */
package dev.neardup.pipeline.samples;
