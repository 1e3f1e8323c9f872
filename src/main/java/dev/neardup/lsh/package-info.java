/**
 * Locality-sensitive hashing: banding for MinHash and permuted blocks for SimHash. Banding is the
 * locality-sensitive hashing of Indyk and Motwani 1998, as Leskovec, Rajaraman and Ullman apply it
 * to MinHash (Mining of Massive Datasets, 2014, ch. 3): cut a K-value MinHash signature into b
 * bands of r rows and hash each band to a bucket key; two documents are a candidate pair when they
 * share a bucket in at least one band. A pair of Jaccard similarity s becomes a candidate with
 * probability P(s) = 1 - (1 - s^r)^b, the S-curve.
 *
 * <ul>
 *   <li>{@link dev.neardup.lsh.LshParams}: b and r, the S-curve, the effective threshold
 *       (1/b)^(1/r), false-positive and false-negative areas, and {@link
 *       dev.neardup.lsh.LshParams#suggest} choosing b and r from a threshold by minimising the
 *       weighted areas (the approach of datasketch's MinHashLSH).
 *   <li>{@link dev.neardup.lsh.Banding}: 64-bit band keys that include the band index.
 *   <li>{@link dev.neardup.lsh.DocumentSketcher}: the whole algorithm path, document to signature
 *       and band keys.
 *   <li>{@link dev.neardup.lsh.SuperShingles} and {@link dev.neardup.lsh.SuperShingleParams}: the
 *       super-shingles of Broder 1997, an optional candidate generator for very high thresholds: k
 *       super-shingles of l signature values, one key per t-subset (t = 2 as in Fetterly et al.,
 *       2003), with the S-curve P[Binomial(k, r^l) &gt;= t] and {@link
 *       dev.neardup.lsh.SuperShingleParams#suggest} under a budget of keys.
 *   <li>{@link dev.neardup.lsh.SizePartitions}: LSH Ensemble's size partitions for containment
 *       search (Zhu et al., VLDB 2016): equi-depth size bounds and the resemblance threshold t q /
 *       (q + u - t q) to query each partition at for containment threshold t.
 *   <li>{@link dev.neardup.lsh.ContainmentBanding} and {@link dev.neardup.lsh.ContainmentSketcher}:
 *       the job's containment mode, size partitions [2^p, 2^(p+1)) with one banding per partition
 *       offset tuned for the resemblance containment t implies there, every document emitting the
 *       keys of its pairs of partitions (LSH Ensemble made symmetric for a stream).
 * </ul>
 *
 * <p>For SimHash fingerprints (the cosine family, Charikar 2002) candidates come from permuted
 * blocks instead (Manku, Jain and Das Sarma, WWW 2007): cut a D-bit fingerprint into B blocks and
 * key each of C(B, k) tables by B - k of them; two fingerprints within Hamming distance k agree on
 * at least B - k blocks (pigeonhole), so they always share a key. Two unrelated fingerprints share
 * a key of w bits with probability 2^-w.
 *
 * <ul>
 *   <li>{@link dev.neardup.lsh.BlockParams}: the block layout, the table count, the expected random
 *       candidates per document in a corpus of n, and {@link dev.neardup.lsh.BlockParams#suggest}
 *       choosing the layout from (D, k) and a table budget.
 *   <li>{@link dev.neardup.lsh.PermutedBlocks}: 64-bit table keys (table index and seed in the
 *       key), used as the band keys of the same bucket operator; {@link dev.neardup.lsh.BandKeys}
 *       is what it and {@link dev.neardup.lsh.Banding} have in common.
 *   <li>{@link dev.neardup.lsh.SortedWindow}: the offline "sliding window" over sorted permuted
 *       fingerprints (Manku, Jain and Das Sarma 2007; Ture et al., SIGIR 2011): M random
 *       permutations of the fingerprint bits, each sorted, each fingerprint compared with the next
 *       W; {@code neardup dedupe --candidates window}.
 * </ul>
 *
 * <p>No Flink imports: this package is a plain Java library.
 */
package dev.neardup.lsh;
