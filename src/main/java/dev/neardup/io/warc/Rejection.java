package dev.neardup.io.warc;

/**
 * Why a record's payload is not a document, thrown while it is decoded: a skip or an error of the
 * record alone (the file around it is fine).
 */
final class Rejection extends Exception {
    private static final long serialVersionUID = 1L;

    /** The skip reason, or null for an error. */
    final WarcSkip.Reason skip;

    /** The error reason, or null for a skip. */
    final WarcError.Reason error;

    private Rejection(WarcSkip.Reason skip, WarcError.Reason error, String message) {
        super(message, null, false, false);
        this.skip = skip;
        this.error = error;
    }

    static Rejection skip(WarcSkip.Reason reason, String detail) {
        return new Rejection(reason, null, detail);
    }

    static Rejection error(WarcError.Reason reason, String message) {
        return new Rejection(null, reason, message);
    }
}
