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
 * cosine similarity, with ±1 hyperplanes for the tables and Gaussian ones (Goemans and Williamson
 * 1995) for verification, and the KOR sketch (Kushilevitz, Ostrovsky and Rabani 2000) for Hamming
 * distance. Each class's Javadoc states its contract.
 *
 * <p>No Flink imports: this package is a plain Java library.
 */
package dev.neardup.sketch;
