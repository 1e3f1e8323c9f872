/**
 * The band buckets: {@link dev.neardup.pipeline.buckets.BandBucketOperator} (keyed by band key) and
 * its parts: what a subtask does with a document it takes in ({@link
 * dev.neardup.pipeline.buckets.BucketLogic}), the members of a bucket packed into one state value
 * ({@link dev.neardup.pipeline.buckets.BucketMembers}), the deletions it keeps ({@link
 * dev.neardup.pipeline.buckets.BucketDeletions}), the band records waiting on the heap for the
 * watermark ({@link dev.neardup.pipeline.buckets.WaitingRecords}) and those a watermark passed, in
 * the order the buckets take them in ({@link dev.neardup.pipeline.buckets.DueRecords}). Design:
 * docs/design/streaming-operators.md.
 */
package dev.neardup.pipeline.buckets;
