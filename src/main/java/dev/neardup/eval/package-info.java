/**
 * Ground truth for evaluations: exact similarities that the sketches and candidate generators are
 * measured against, computed without sketches. No Flink: a plain Java library like {@code text},
 * {@code sketch} and {@code lsh}, used by {@code neardup evaluate} and the tests.
 *
 * <p>{@link dev.neardup.eval.ExactSimilarityJoin} (Jaccard), {@link
 * dev.neardup.eval.ExactCosineJoin} (cosine of {@link dev.neardup.eval.TermVector}s, the weighted
 * feature vectors that SimHash estimates) and {@link dev.neardup.eval.ExactContainmentJoin} find
 * every pair at or above a floor; {@link dev.neardup.eval.Evaluation} scores a job's verdicts
 * against them (recall, precision, recall by similarity next to the candidate generator's
 * prediction) for {@code neardup evaluate}.
 */
package dev.neardup.eval;
