package dev.neardup.batch;

/**
 * A document as the dedupe job carries it, from the sketch on: where it came from, its place in the
 * order, and its full MinHash signature (with exact verification, its shingle set goes to the
 * verification apart: {@link DocShingles}). A Flink POJO, and the JSON of the job's working files.
 */
public class DedupeDoc {
    /** {@link VertexKeys#key} of (event time, id): the order "earlier". */
    public String key;

    public String id;
    public String url;

    /** file:line of the record. */
    public String source;

    public long eventTime;

    /** Length of the content in characters (the keep policy {@code longest}). */
    public long length;

    /** Input order: the input's index (high bits) and the line (low 40 bits). */
    public long order;

    /**
     * {@link dev.neardup.sketch.BbitMinHash#fingerprint} of the signature, or with exact
     * verification {@link dev.neardup.sketch.ShingleSet#fingerprint} of the shingle set (equal for
     * exact copies).
     */
    public long fingerprint;

    /** The full signature; null for an exact copy (see {@link #copyOf}). */
    public long[] signature;

    /** For an exact copy: the key of the earliest document with the same signature; else null. */
    public String copyOf;

    /** True for a deletion line ({@code "deleted": true}): no content, no signature. */
    public boolean deleted;

    /** The key of the cluster (its earliest document), once components are known. */
    public String cluster;

    /**
     * With exact verification and the repeat filter: the document's shingle set, from the sketch
     * step to {@link RouteByRepeatsFunction}, which sends it to the verification only for the
     * documents that can be candidates; else null.
     */
    public long[] shingles;

    public DedupeDoc() {}
}
