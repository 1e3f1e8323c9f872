/**
 * Reading crawls as crawlers write them: WARC files (ISO 28500:2017, WARC 1.1, and WARC 1.0 of
 * 2009), Common Crawl's WET files (WARC {@code conversion} records), and the Internet Archive's
 * older ARC files, plain or as one gzip member per record. A plain library, free of Flink, that any
 * source can use; jwarc reads the records, the HTTP messages and the chunked transfer coding.
 *
 * <p>{@link dev.neardup.io.warc.WarcRecordReader} turns a file into one {@link
 * dev.neardup.io.warc.WarcOutcome} per record: a {@link dev.neardup.io.warc.WarcDocument} (a {@code
 * response}, {@code resource} or {@code conversion} whose payload is text, decoded to a string), a
 * {@link dev.neardup.io.warc.WarcSkip} counted by reason (other record types, non-text payloads,
 * non-2xx responses), an {@link dev.neardup.io.warc.IdenticalRevisit} (the page captured again with
 * the same payload, without it), or a {@link dev.neardup.io.warc.WarcError} with the file and byte
 * offset of broken input, after which reading goes on at the next record. {@link
 * dev.neardup.io.warc.ArchiveFormat} tells input files apart by name and first bytes; {@link
 * dev.neardup.io.warc.WarcReadSettings} holds the choices. Design: docs/design/warc-input.md.
 */
package dev.neardup.io.warc;
