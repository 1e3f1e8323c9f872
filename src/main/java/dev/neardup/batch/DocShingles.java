package dev.neardup.batch;

/**
 * One document's shingle set for exact verification: its key and its distinct shingle hashes in
 * ascending order (a {@link dev.neardup.sketch.ShingleSet}'s array). A Flink POJO.
 */
public class DocShingles {
    public String key;
    public long[] shingles;

    public DocShingles() {}

    public DocShingles(String key, long[] shingles) {
        this.key = key;
        this.shingles = shingles;
    }
}
