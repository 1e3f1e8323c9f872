package dev.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.text.Tokenizer.Stemming;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Randomised checks of {@link Shingler} against {@link TextOracle}'s reading of the contract. */
class ShinglerPropertiesTest {

    @Provide
    Arbitrary<String> text() {
        return TokenizerPropertiesTest.unicodeText();
    }

    @Provide
    Arbitrary<String> asciiText() {
        return TokenizerPropertiesTest.asciiText();
    }

    @Property(tries = 400)
    void wordShinglesFollowTheContract(
            @ForAll("text") String text,
            @ForAll @IntRange(min = 1, max = 8) int w,
            @ForAll boolean removeStopWords,
            @ForAll Stemming stemming,
            @ForAll long seed) {
        Assume.that(!TextOracle.affectedByMissingTokenizerFix(text, stemming));
        ShingleOptions options =
                new ShingleOptions(ShingleOptions.Kind.WORD, w, removeStopWords, stemming, seed);
        Shingler shingler = new Shingler(options);
        List<String> expected =
                TextOracle.wordShingles(TextOracle.tokens(text, removeStopWords, stemming), w);
        assertThat(shingler.shingles(text)).containsExactlyElementsOf(expected);
        long[] hashes = shingler.shingleHashes(text);
        assertThat(hashes).hasSize(expected.size());
        for (int i = 0; i < hashes.length; i++) {
            assertThat(hashes[i]).isEqualTo(ShinglerTest.xxh3(expected.get(i), seed));
        }
    }

    @Property(tries = 400)
    void charShinglesFollowTheContract(
            @ForAll("text") String text,
            @ForAll @IntRange(min = 1, max = 12) int k,
            @ForAll boolean removeStopWords,
            @ForAll long seed) {
        ShingleOptions options =
                new ShingleOptions(
                        ShingleOptions.Kind.CHAR, k, removeStopWords, Stemming.NONE, seed);
        Shingler shingler = new Shingler(options);
        // Character shingles are over the tokens without the script rules.
        String normalized =
                TextOracle.normalizedText(
                        TextOracle.tokens(text, removeStopWords, Stemming.NONE, false));
        List<String> expected = TextOracle.charShingles(normalized, k);
        assertThat(shingler.shingles(text)).containsExactlyElementsOf(expected);
        long[] hashes = shingler.shingleHashes(text);
        assertThat(hashes).hasSize(expected.size());
        for (int i = 0; i < hashes.length; i++) {
            assertThat(hashes[i]).isEqualTo(ShinglerTest.xxh3(expected.get(i), seed));
        }
    }

    /** Both the ASCII and the code-point index path of character shingles give the same hashes. */
    @Property(tries = 300)
    void charShinglesOfAsciiTextDoNotDependOnThePath(
            @ForAll("asciiText") String text, @ForAll @IntRange(min = 1, max = 12) int k) {
        Shingler shingler = new Shingler(ShingleOptions.chars(k));
        long[] fast = shingler.shingleHashes(text);
        String normalized = shingler.normalize(text);
        Assume.that(normalized.length() >= k);
        // A trailing " é" makes the buffer non-ASCII (the code-point index path) and only adds
        // shingles at the end.
        long[] slow = shingler.shingleHashes(text + " \u00E9");
        assertThat(slow).startsWith(fast);
        assertThat(slow).hasSize(fast.length + 2);
    }

    @Property(tries = 300)
    void normalizeIsTheOraclesNormalisedText(@ForAll("text") String text) {
        Shingler shingler = new Shingler(ShingleOptions.defaults());
        assertThat(shingler.normalize(text))
                .isEqualTo(TextOracle.normalizedText(TextOracle.tokens(text)));
    }
}
