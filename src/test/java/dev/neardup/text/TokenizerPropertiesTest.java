package dev.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.text.Tokenizer.Stemming;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;

/**
 * Randomised cross-checks of {@link Tokenizer}: against {@link TextOracle} (a literal reading of
 * the contract), and of the fast ASCII path against the Unicode path.
 */
class TokenizerPropertiesTest {

    /** Characters that exercise normalisation, folding, ignorables, marks and surrogates. */
    static final String[] INTERESTING = {
        "\u00E9",
        "e\u0301",
        "\u00AD",
        "\u200D",
        "\u200B",
        "\u00DF",
        "\u03A3",
        "\u03C2",
        "\uFB01",
        "\uFB00",
        "\uFF21",
        "\uFF11",
        "\u6771\u4EAC",
        "\u30FC",
        "\uD835\uDC00",
        "\uD801\uDC00",
        "\uD840\uDC00",
        "\uD83D\uDE00",
        "\u0307",
        "\u0308",
        "\u093F",
        "\u094D",
        "\u0939",
        "\u20DD",
        "\u0130",
        "\u00A0",
        "\u3000",
        "\u2122",
        "\u2460",
        "\u00B2",
        "\uD800",
        "\uDC00",
        "\u01C5",
        "\uFDFA",
        "\u0345",
        "\u212B",
        "\u212A",
        "\u0149",
        "\u00BD",
        "\u00A8",
        "\u1FBC",
        "\u0651",
        "\u0628",
        "\u0663",
        "\u0410",
        "\uAC00",
        "\u1100\u1161",
        " ",
        ",",
        "-",
        "'",
        "A",
        "z",
        "9"
    };

    @Provide
    static Arbitrary<String> unicodeText() {
        Arbitrary<String> piece =
                Arbitraries.frequencyOf(
                        Tuple.of(
                                4,
                                Arbitraries.strings()
                                        .withCharRange('a', 'z')
                                        .withCharRange('A', 'Z')
                                        .ofMinLength(1)
                                        .ofMaxLength(8)),
                        Tuple.of(2, Arbitraries.strings().ascii().ofMaxLength(4)),
                        Tuple.of(6, Arbitraries.of(INTERESTING)),
                        Tuple.of(2, stableCodePoint()));
        return piece.list().ofMaxSize(25).map(list -> String.join("", list));
    }

    /** Any code point, assigned or not, on which the JVM's and ICU's Unicode data agree. */
    static Arbitrary<String> stableCodePoint() {
        return Arbitraries.integers()
                .between(0, Character.MAX_CODE_POINT)
                .filter(TextOracle::jdkAndIcuAgree)
                .map(Character::toString);
    }

    @Provide
    static Arbitrary<String> asciiText() {
        return Arbitraries.oneOf(
                Arbitraries.strings().ascii().ofMaxLength(120),
                Arbitraries.strings()
                        .withCharRange('a', 'z')
                        .withCharRange('A', 'Z')
                        .withCharRange('0', '9')
                        .withChars(" ,.!?-_'\t\n\"()")
                        .ofMaxLength(120));
    }

    static List<String> tokensOf(Tokenizer t) {
        return TokenizerTest.tokens(t); // also checks the buffer against the tokens
    }

    @Property(tries = 500)
    void tokensFollowTheContract(@ForAll("unicodeText") String text) {
        Tokenizer t = new Tokenizer(false, Tokenizer.Stemming.NONE).tokenize(text);
        assertThat(tokensOf(t)).isEqualTo(TextOracle.tokens(text));
    }

    @Property(tries = 400)
    void stopWordsAndStemmingFollowTheContract(
            @ForAll("unicodeText") String text,
            @ForAll boolean removeStopWords,
            @ForAll Stemming stemming) {
        Assume.that(!TextOracle.affectedByMissingTokenizerFix(text, stemming));
        Tokenizer t = new Tokenizer(removeStopWords, stemming).tokenize(text);
        assertThat(tokensOf(t)).isEqualTo(TextOracle.tokens(text, removeStopWords, stemming));
    }

    @Property(tries = 500)
    void asciiTextIsLowerCasedAndSplitOnNonAlphanumerics(@ForAll("asciiText") String text) {
        List<String> expected = new ArrayList<>();
        for (String part : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (!part.isEmpty()) {
                expected.add(part);
            }
        }
        Tokenizer t = new Tokenizer(false, Tokenizer.Stemming.NONE).tokenize(text);
        assertThat(tokensOf(t)).isEqualTo(expected);
        assertThat(t.isAscii()).isTrue();
    }

    /** Appending " é" forces the Unicode path; it must only add the token "é". */
    @Property(tries = 500)
    void asciiFastPathAgreesWithUnicodePath(
            @ForAll("asciiText") String text,
            @ForAll boolean removeStopWords,
            @ForAll Stemming stemming) {
        Assume.that(!TextOracle.affectedByMissingTokenizerFix(text, stemming));
        Tokenizer fast = new Tokenizer(removeStopWords, stemming).tokenize(text);
        List<String> fastTokens = tokensOf(fast);
        assertThat(fast.isAscii()).isTrue();

        Tokenizer slow = new Tokenizer(removeStopWords, stemming).tokenize(text + " \u00E9");
        assertThat(slow.isAscii()).isFalse();
        List<String> expected = new ArrayList<>(fastTokens);
        expected.add(TextOracle.stem("\u00E9", stemming));
        assertThat(tokensOf(slow)).isEqualTo(expected);

        Tokenizer prefixed = new Tokenizer(removeStopWords, stemming).tokenize("\u00E9 " + text);
        List<String> prefixedTokens = tokensOf(prefixed);
        assertThat(prefixedTokens.subList(1, prefixedTokens.size())).isEqualTo(fastTokens);
    }

    /**
     * A soft hyphen is removed by normalisation: the buffer must be byte-for-byte the same, and is
     * still reported as ASCII.
     */
    @Property(tries = 500)
    void anIgnorableCharacterDoesNotChangeTheBuffer(
            @ForAll("asciiText") String text, @ForAll boolean removeStopWords) {
        Tokenizer fast = new Tokenizer(removeStopWords, Stemming.NONE).tokenize(text);
        String fastText = fast.normalizedText();
        List<String> fastTokens = tokensOf(fast);
        Tokenizer slow = new Tokenizer(removeStopWords, Stemming.NONE).tokenize(text + "\u00AD");
        assertThat(slow.isAscii()).isTrue();
        assertThat(tokensOf(slow)).isEqualTo(fastTokens);
        assertThat(slow.normalizedText()).isEqualTo(fastText);
    }

    @Property(tries = 200)
    void oneInstanceGivesTheSameResultsAsFreshOnes(
            @ForAll @Size(max = 8) List<@From("mixedText") String> texts,
            @ForAll boolean removeStopWords,
            @ForAll Stemming stemming) {
        for (String text : texts) {
            Assume.that(!TextOracle.affectedByMissingTokenizerFix(text, stemming));
        }
        Tokenizer reused = new Tokenizer(removeStopWords, stemming);
        for (String text : texts) {
            List<String> expected =
                    tokensOf(new Tokenizer(removeStopWords, stemming).tokenize(text));
            assertThat(tokensOf(reused.tokenize(text))).isEqualTo(expected);
        }
    }

    @Provide
    static Arbitrary<String> mixedText() {
        // Short and long, ASCII and not, so that buffers both grow and are reused while larger.
        return Arbitraries.oneOf(
                asciiText(),
                unicodeText(),
                asciiText().list().ofMaxSize(40).map(l -> String.join(" ", l)),
                unicodeText().list().ofMaxSize(20).map(l -> String.join(" ", l)));
    }

    /** NFKC_Casefold is idempotent and tokens are separated by spaces: re-tokenizing is stable. */
    @Property(tries = 500)
    void normalisedTextTokenizesToItself(@ForAll("unicodeText") String text) {
        Tokenizer t = new Tokenizer(false, Tokenizer.Stemming.NONE).tokenize(text);
        String normalized = t.normalizedText();
        List<String> tokens = tokensOf(t);
        Tokenizer again = new Tokenizer(false, Tokenizer.Stemming.NONE).tokenize(normalized);
        assertThat(tokensOf(again)).isEqualTo(tokens);
        assertThat(again.normalizedText()).isEqualTo(normalized);
    }
}
