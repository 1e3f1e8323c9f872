/**
 * The Flink job: operators ({@code *Function}), the records between them, options and the graph
 * builder {@link dev.neardup.pipeline.NearDupJob}.
 *
 * <pre>
 *   source: read + parse (DocumentParser) -&gt; ParsedRecord, event time, watermarks per split
 *     -&gt; SignatureFunction: dead letters aside; one BandRecord per band, one announcement;
 *                          a deletion: one copy per key group (DeletionCopies), one
 *                          announcement
 *     -&gt; keyBy(band key)  BandBucketOperator: members of one bucket (b-bit signatures);
 *                          documents wait for the watermark (heap, else keyed state),
 *                          verified on the spot; one report per document and subtask;
 *                          deleted members dropped (deletions in broadcast state)
 *     -&gt; keyBy(document)  VerdictOperator: announcement + matches -&gt; alerts at once,
 *                          one verdict per record when the watermark passes the document,
 *                          DELETED for a deletion
 *
 *   containment mode: band records and members carry no samples, the buckets verify nothing;
 *   between them (and the signature operator's samples) and the verdicts
 *     -&gt; keyBy(document)  SampleIntakeFunction: each document's sample until the buckets
 *                          have reported all its band records; their reports (with the
 *                          candidate pairs) joined with it, the reports on to the verdicts
 *     -&gt; keyBy(document)  SampleStoreFunction: one bottom-s sample per kept document; the
 *                          candidates (keyed by member, with the document's sample) verified
 *                          against it, one result per candidate to the verdicts, which wait
 *                          for them all
 * </pre>
 *
 * <p>Why the buckets keep their members' signatures: verification then needs no lookup, so the job
 * has two keyed exchanges after sketching and a document costs at most one state read and write per
 * band plus one verdict entry. The replication is kept small by b-bit minwise hashing (Li and König
 * 2010; {@link dev.neardup.sketch.BbitMinHash}): 32 bytes per member at K = 128 and b = 2.
 * "Earlier" is the order (event time, id) everywhere, and a verdict is final once the event-time
 * watermark passes its document ({@link dev.neardup.pipeline.DocumentWatermarks}).
 */
package dev.neardup.pipeline;
