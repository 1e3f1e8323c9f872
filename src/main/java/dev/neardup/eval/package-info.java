/**
 * Ground truth for evaluations: exact similarities that the sketches and candidate generators are
 * measured against, computed without sketches. No Flink: a plain Java library like {@code text},
 * {@code sketch} and {@code lsh}, used by {@code neardup evaluate} and the tests.
 *
 * <p>Implements the exact side of the cosine family (sim(x, y) = x . y / (|x| |y|) over feature
 * vectors built with the hashing trick, Weinberger et al. 2009), which SimHash (Charikar, STOC
 * 2002) estimates from fingerprints: {@link dev.neardup.eval.TermVector} is a document's weighted
 * feature vector, {@link dev.neardup.eval.ExactCosineJoin} finds every pair of vectors at or above
 * a cosine floor with the All-Pairs algorithm of Bayardo, Ma and Srikant (WWW 2007). The exact
 * Jaccard join of the MinHash family is {@link dev.neardup.eval.ExactSimilarityJoin}, the exact
 * containment join {@link dev.neardup.eval.ExactContainmentJoin}; {@link
 * dev.neardup.eval.Evaluation} scores a job's verdicts against them (recall, precision, recall by
 * similarity next to the candidate generator's prediction) for {@code neardup evaluate}.
 */
package dev.neardup.eval;
