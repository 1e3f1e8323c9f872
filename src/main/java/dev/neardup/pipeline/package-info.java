/**
 * The Flink job: operators ({@code *Function}), the records between them, options and the graph
 * builder {@link dev.neardup.pipeline.NearDupJob}.
 *
 * <pre>
 *   raw records -&gt; ParseDocumentFunction --------------------------&gt; dead letters
 *     -&gt; SignatureFunction (one BandRecord per band) ----------------&gt; dead letters (no text)
 *     -&gt; keyBy(band key)  BandBucketFunction   (members of one bucket)
 *          -&gt; keyBy(doc id) SignatureStoreFunction (one signature per live document;
 *                                                   verifies candidates) -&gt; alerts
 *          -&gt; keyBy(record)  VerdictFunction  (collects all bands and results) -&gt; verdicts
 * </pre>
 *
 * <p>Why three keyed stages instead of keeping signatures in the buckets: a document sits in b
 * buckets, and storing its signature in each would cost b times the state. Buckets keep only (id,
 * record, event time); the signature is stored once, keyed by document id, and a bucket's
 * registration of a member always reaches the store before any candidate query the same bucket
 * sends about it (both travel the same channel, which Flink keeps in order).
 */
package dev.neardup.pipeline;
