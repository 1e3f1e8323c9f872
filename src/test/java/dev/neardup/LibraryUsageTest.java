package dev.neardup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.lsh.Banding;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.LshParams;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.ShingleSet;
import dev.neardup.sketch.Similarity;
import dev.neardup.text.ContentType;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Shingler;
import dev.neardup.tools.bench.SyntheticText;
import org.junit.jupiter.api.Test;

/** The example of docs/library.md, "Using the algorithms from Java", kept compiling and true. */
class LibraryUsageTest {

    @Test
    void readmeExampleWorks() {
        String textA = SyntheticText.prose(11, 4000);
        String textB = textA.replace(" the ", " a ");
        String htmlA = "<html><body><nav>Home</nav><p>" + textA + "</p></body></html>";

        ShingleOptions shingles = ShingleOptions.defaults(); // word 5-shingles
        MinHash minHash = MinHash.defaults(); // OPH, K = 128
        Banding banding = new Banding(LshParams.suggest(0.8, 128)); // 11 bands x 11 rows
        DocumentSketcher sketcher = new DocumentSketcher(shingles, minHash, banding);

        DocumentSketcher.Sketch a = sketcher.sketch(htmlA, ContentType.HTML);
        DocumentSketcher.Sketch b = sketcher.sketch(textB, ContentType.TEXT);
        double estimate = Similarity.estimateJaccard(a.signature(), b.signature());
        boolean candidate = banding.firstAgreeingBand(a.signature(), b.signature()) >= 0;

        Shingler shingler = new Shingler(shingles);
        double exact =
                Similarity.jaccard(
                        ShingleSet.of(shingler.shingleHashes(textA)),
                        ShingleSet.of(shingler.shingleHashes(textB)));

        assertThat(banding.params()).isEqualTo(new LshParams(11, 11));
        assertThat(exact).isBetween(0.5, 0.99);
        assertThat(estimate).isCloseTo(exact, org.assertj.core.api.Assertions.within(0.15));
        // Below 0.6 a pair is an LSH candidate with probability < 4% (S-curve of 11 x 11).
        if (exact < 0.6) {
            assertThat(candidate).isFalse();
        }
        // The navigation bar adds one shingle window's worth of difference at most.
        assertThat(Similarity.estimateJaccard(a.signature(), sketcher.sketch(textA).signature()))
                .isGreaterThan(0.9);
    }
}
