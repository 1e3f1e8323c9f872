/**
 * MinHash signatures of shingle-hash sets, SimHash fingerprints of weighted feature vectors, and
 * the similarity estimators built on them.
 *
 * <p>Implements MinHash (Broder 1997: the probability that two sets agree in one MinHash row equals
 * their Jaccard similarity, so the fraction of agreeing rows estimates it with error O(1/sqrt(K));
 * hash functions instead of permutations, as in Leskovec, Rajaraman and Ullman, Mining of Massive
 * Datasets, 2014, ch. 3), Broder's MIN_s and MOD_m sketches, plus one-permutation hashing with
 * optimal densification (Shrivastava, "Optimal Densification for Fast and Accurate Minwise
 * Hashing", ICML 2017) as the fast default; Charikar's random projections (SimHash, 2002) for
 * cosine similarity, and the KOR sketch (Kushilevitz, Ostrovsky and Rabani 2000) for Hamming
 * distance.
 *
 * <ul>
 *   <li>{@link dev.neardup.sketch.MinHash}: the signature interface; {@link
 *       dev.neardup.sketch.MinHash#create} picks an implementation by {@link
 *       dev.neardup.sketch.MinHashAlgorithm}.
 *   <li>{@link dev.neardup.sketch.ClassicMinHash}: K independent hash functions, the reference.
 *   <li>{@link dev.neardup.sketch.OnePermutationMinHash}: one hash per shingle, K bins, optimal
 *       densification; the default.
 *   <li>{@link dev.neardup.sketch.Similarity}: estimated Jaccard from signatures; exact Jaccard and
 *       containment (Broder 1997) from {@link dev.neardup.sketch.ShingleSet}s.
 *   <li>{@link dev.neardup.sketch.Mix64}: the 64-bit mixing functions the sketches use, with their
 *       contracts.
 *   <li>{@link dev.neardup.sketch.SimHash}: the cosine family (Charikar, STOC 2002): 64- to
 *       1,024-bit random-projection fingerprints of weighted features, whose Hamming distance
 *       estimates the angle, theta^ = pi hamming / D, and the cosine, cos(theta^).
 *   <li>{@link dev.neardup.sketch.KorSketch}: the KOR sketch (Kushilevitz, Ostrovsky and Rabani
 *       2000), O(log 1/delta) parity bits deciding Hamming distance &lt;= k against &gt;= 2k for
 *       bit vectors of any length, with a distance estimate.
 *   <li>{@link dev.neardup.sketch.MinSSketch} and {@link dev.neardup.sketch.ModMSketch}: MIN_s (the
 *       s smallest permuted shingle hashes) and MOD_m (the permuted hashes that are 0 mod m)
 *       sketches (Broder, "On the resemblance and containment of documents", 1997): seeded,
 *       mergeable, with a compact byte form. MIN_s estimates resemblance with a fixed-size sketch;
 *       MOD_m grows with the document and estimates containment c(A, B) = |A ∩ B| / |A| without
 *       bias, which resemblance misses when sizes differ.
 *   <li>{@link dev.neardup.sketch.BottomKContainment}: MIN_s with 32-bit values in a fixed-width
 *       byte form (2 + 4 s bytes), cut at the smaller of two samples' largest values to estimate
 *       containment both ways (bottom-k sketches, Cohen and Kaplan 2007): what the job's buckets
 *       keep per member in containment mode.
 *   <li>{@link dev.neardup.sketch.SampleEstimate}: their estimates with the sample they come from,
 *       the hypergeometric standard error and Hoeffding's error bound.
 * </ul>
 *
 * <p>No Flink imports: this package is a plain Java library.
 */
package dev.neardup.sketch;
