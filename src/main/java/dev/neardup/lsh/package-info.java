/**
 * Locality-sensitive hashing: banding for MinHash and permuted blocks for SimHash. Banding is the
 * locality-sensitive hashing of Indyk and Motwani 1998, as Leskovec, Rajaraman and Ullman apply it
 * to MinHash (Mining of Massive Datasets, 2014, ch. 3): cut a K-value MinHash signature into b
 * bands of r rows and hash each band to a bucket key; two documents are a candidate pair when they
 * share a bucket in at least one band ({@link dev.neardup.lsh.LshParams}, {@link
 * dev.neardup.lsh.Banding}, {@link dev.neardup.lsh.DocumentSketcher}). Variants: Broder's 1997
 * super-shingles ({@link dev.neardup.lsh.SuperShingles}) and LSH Ensemble's size partitions for
 * containment (Zhu et al., VLDB 2016; {@link dev.neardup.lsh.ContainmentBanding}).
 *
 * <p>For SimHash fingerprints (the cosine family, Charikar 2002) candidates come from the permuted
 * blocks of Manku, Jain and Das Sarma, WWW 2007 ({@link dev.neardup.lsh.PermutedBlocks}), and
 * {@link dev.neardup.lsh.SortedWindow} is the offline sliding window of the same paper.
 *
 * <p>No Flink imports: this package is a plain Java library.
 */
package dev.neardup.lsh;
