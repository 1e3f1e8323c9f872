package dev.neardup.lsh;

/**
 * The bucket keys of a sketch, whichever family: the band keys of a MinHash signature ({@link
 * Banding}, Leskovec, Rajaraman and Ullman, Mining of Massive Datasets, 2014, ch. 3) or the table
 * keys of a SimHash fingerprint ({@link PermutedBlocks}, Manku, Jain and Das Sarma, WWW 2007). Two
 * sketches are a candidate pair when they share a key; {@link #firstAgreeingBand} names the lowest
 * band (table) in which they agree, where a pair that shares several buckets is reported once.
 */
public interface BandKeys {

    /** The keys of a sketch, in band (table) order. */
    long[] bandKeys(long[] sketch);

    /** The lowest band (table) on which two sketches agree exactly, or -1 when none does. */
    int firstAgreeingBand(long[] a, long[] b);
}
