package dev.neardup.io;

/**
 * Output of {@code neardup dedupe --pairs}: a verified near-duplicate pair, the later document
 * first as in alerts ({@code duplicateOf} is the earlier by (fetchedAt, id)), with the estimated
 * Jaccard similarity of their full MinHash signatures. A Flink POJO. JSON schema, which describes
 * each field: {@code src/main/resources/schemas/pair.schema.json}.
 */
public class DuplicatePair {
    public static final int SCHEMA_VERSION = 1;

    public int schemaVersion = SCHEMA_VERSION;
    public String docId;
    public String duplicateOf;
    public double similarity;
    public boolean exactCopy;
}
