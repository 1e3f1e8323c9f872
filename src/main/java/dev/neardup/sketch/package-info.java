/**
 * MinHash signatures of shingle-hash sets and the similarity estimators built on them.
 *
 * <p>Implements seed 001 ("MinHash signatures": the probability that two sets agree in one MinHash
 * row equals their Jaccard similarity, so the fraction of agreeing rows estimates it with error
 * O(1/sqrt(K)); "efficient minhashing" with hash functions instead of permutations) and seed 004
 * (the min-wise lemma, Broder 1997), plus one-permutation hashing with optimal densification
 * (Shrivastava, "Optimal Densification for Fast and Accurate Minwise Hashing", ICML 2017) as the
 * fast default.
 *
 * <ul>
 *   <li>{@link dev.neardup.sketch.MinHash}: the signature interface; {@link
 *       dev.neardup.sketch.MinHash#create} picks an implementation by {@link
 *       dev.neardup.sketch.MinHashAlgorithm}.
 *   <li>{@link dev.neardup.sketch.ClassicMinHash}: K independent hash functions, the reference.
 *   <li>{@link dev.neardup.sketch.OnePermutationMinHash}: one hash per shingle, K bins, optimal
 *       densification; the default.
 *   <li>{@link dev.neardup.sketch.Similarity}: estimated Jaccard from signatures; exact Jaccard and
 *       containment (seed 003's resemblance and containment) from {@link
 *       dev.neardup.sketch.ShingleSet}s.
 *   <li>{@link dev.neardup.sketch.Mix64}: the 64-bit mixing functions the sketches use, with their
 *       contracts.
 * </ul>
 *
 * <p>No Flink imports: this package is a plain Java library.
 */
package dev.neardup.sketch;
