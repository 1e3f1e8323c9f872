package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.sketch.BbitMinHash;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.MinHashAlgorithm;
import dev.neardup.sketch.Similarity;
import dev.neardup.text.ShingleOptions;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Pages shorter than the shingle size (issue 12: "one-word pages are called DUPLICATE of each
 * other"). A page with fewer tokens than w has one shingle, its whole normalised text (Shingler's
 * contract), so two one-word pages with different words share nothing (Jaccard 0) and two with the
 * same word are exact copies. Checked here down to the band keys, which decide whether a pair is
 * even compared; the whole job on such pages is in RunCommandITCase.
 */
class ShortDocumentsTest {

    private static DocumentSketcher sketcher(MinHashAlgorithm algorithm, ShingleOptions shingles) {
        return new DocumentSketcher(
                shingles,
                MinHash.create(algorithm, 128, MinHash.DEFAULT_SEED),
                new Banding(new LshParams(11, 11)));
    }

    @ParameterizedTest
    @EnumSource(MinHashAlgorithm.class)
    void differentOneWordPagesAreNotSimilarAndTheSameWordIsAnExactCopy(MinHashAlgorithm algorithm) {
        for (ShingleOptions shingles :
                new ShingleOptions[] {ShingleOptions.words(5), ShingleOptions.chars(9)}) {
            DocumentSketcher sketcher = sketcher(algorithm, shingles);
            DocumentSketcher.Sketch hello = sketcher.sketch("hello");
            DocumentSketcher.Sketch world = sketcher.sketch("world");
            DocumentSketcher.Sketch helloAgain = sketcher.sketch("  Hello! ");
            assertThat(hello.shingleCount()).isOne();
            assertThat(Similarity.estimateJaccard(hello.signature(), world.signature())).isZero();
            assertThat(
                            new Banding(new LshParams(11, 11))
                                    .firstAgreeingBand(hello.signature(), world.signature()))
                    .as("hello and world are not even candidates")
                    .isNegative();
            assertThat(helloAgain.signature()).isEqualTo(hello.signature());
            assertThat(helloAgain.bandKeys()).isEqualTo(hello.bandKeys());
        }
    }

    /**
     * Among thousands of different one-word pages, no two share a band key (so no bucket ever
     * compares them), although a bucket's 2-bit signatures of two such pages would agree in every
     * position a quarter of the time: a one-shingle signature repeats one value K times.
     */
    @ParameterizedTest
    @EnumSource(MinHashAlgorithm.class)
    void noTwoDifferentOneWordPagesShareABucket(MinHashAlgorithm algorithm) {
        DocumentSketcher sketcher = sketcher(algorithm, ShingleOptions.words(5));
        Map<Long, String> owner = new HashMap<>();
        SplittableRandom random = new SplittableRandom(12);
        int identicalLowBits = 0;
        long[] previous = null;
        for (int i = 0; i < 3_000; i++) {
            StringBuilder word = new StringBuilder();
            for (int c = 0, n = 2 + random.nextInt(8); c < n; c++) {
                word.append((char) ('a' + random.nextInt(26)));
            }
            String w = word.toString();
            DocumentSketcher.Sketch s = sketcher.sketch(w);
            for (long key : s.bandKeys()) {
                String before = owner.putIfAbsent(key, w);
                assertThat(before == null || before.equals(w))
                        .as("%s and %s share band key %d", before, w, key)
                        .isTrue();
            }
            if (previous != null
                    && BbitMinHash.agreements(
                                    BbitMinHash.pack(previous, 2),
                                    BbitMinHash.pack(s.signature(), 2),
                                    128,
                                    2)
                            == 128) {
                identicalLowBits++;
            }
            previous = s.signature();
        }
        if (algorithm == MinHashAlgorithm.OPH) {
            // Why a bucket must never see such a pair: a one-shingle OPH signature is one value
            // repeated, so a quarter of such pairs agree in all 2-bit positions (estimate 1.0).
            assertThat(identicalLowBits).isBetween(500, 1_000);
        }
    }
}
