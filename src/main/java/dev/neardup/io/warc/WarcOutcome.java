package dev.neardup.io.warc;

/**
 * What one record of a WARC or ARC file (ISO 28500:2017, WARC 1.1) became: exactly one of a {@link
 * WarcDocument}, a {@link WarcSkip}, an {@link IdenticalRevisit} or a {@link WarcError}. A {@link
 * WarcError} may also stand for bytes between records that are no record at all.
 */
public sealed interface WarcOutcome permits WarcDocument, WarcSkip, IdenticalRevisit, WarcError {

    /** The name of the file the record is in, as given to the reader. */
    String file();

    /**
     * The byte offset of the record in the file: of its header line, or for a gzip file of the gzip
     * member that holds it (where a reader can seek to).
     */
    long offset();

    /** Where the record is: {@code file@offset}. Unique per record. */
    default String source() {
        return file() + "@" + offset();
    }
}
