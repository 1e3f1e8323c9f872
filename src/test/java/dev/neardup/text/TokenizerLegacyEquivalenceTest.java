package dev.neardup.text;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.text.Tokenizer.Stemming;
import dev.neardup.tools.bench.SyntheticText;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The incremental tokenizer (ASCII runs copied, ICU only on the segments that need it) gives byte
 * for byte the buffer, token offsets and count of {@link LegacyTokenizer}, which normalises the
 * whole text as soon as one character is not ASCII, on every text without the scripts that the
 * bigram and dictionary rules split (Han, kana, Hangul, Thai, Lao, Khmer, Myanmar); on text with
 * them it follows {@link TextOracle}.
 */
class TokenizerLegacyEquivalenceTest {

    /** Pieces that interact with their neighbours under NFKC_Casefold, or are odd UTF-16. */
    static final String[] PIECES = {
        "e",
        "E",
        "a",
        "A",
        "i",
        "I",
        "s",
        "S",
        "k",
        "K",
        "o",
        "1",
        " ",
        ".",
        "-",
        "'",
        "\t",
        // Latin-1 and composed letters, upper and lower case
        "\u00E9",
        "\u00C9",
        "\u00FC",
        "\u00DC",
        "\u00E5",
        "\u00C5",
        "\u00F1",
        "\u00E7",
        "\u00FF",
        // combining marks that compose with the letter before them, or do not
        "\u0301",
        "\u0300",
        "\u0308",
        "\u0304",
        "\u030A",
        "\u0327",
        "\u0307",
        "\u0323",
        "\u0345",
        "\u20DD",
        "\u093F",
        "\u094D",
        "\u0651",
        "\u3099",
        "\u309A",
        // compatibility characters: ligatures, fullwidth, superscripts, fractions, signs
        "\uFB01",
        "\uFB00",
        "\uFB03",
        "\uFF21",
        "\uFF41",
        "\uFF11",
        "\u00B2",
        "\u00B9",
        "\u2074",
        "\u00BD",
        "\u2122",
        "\u2460",
        "\u212A",
        "\u212B",
        "\u2126",
        "\u01C5",
        "\u01C4",
        "\u0149",
        "\uFDFA",
        "\u3300",
        "\u32FF",
        "\u00A8",
        "\u1FBC",
        "\u00AA",
        "\u00BA",
        // Hangul syllables and conjoining jamo (L, V, T), halfwidth katakana and its voicing
        "\uAC00",
        "\u1100",
        "\u1161",
        "\u11A8",
        "\u1100\u1161\u11A8",
        "\uFF76",
        "\uFF9E",
        "\u30AB",
        // Greek with final sigma, Turkish dotted and dotless I, sharp s, capital sharp s
        "\u03A3",
        "\u03C3",
        "\u03C2",
        "\u0391\u03A3",
        "\u0130",
        "\u0131",
        "\u00DF",
        "\u1E9E",
        // default ignorables and spaces
        "\u00AD",
        "\u200D",
        "\u200C",
        "\u200B",
        "\u2060",
        "\uFEFF",
        "\u00A0",
        "\u3000",
        "\u2003",
        // CJK, Cyrillic, Arabic, Devanagari
        "\u6771",
        "\u4EAC",
        "\u30FC",
        "\u3005",
        "\u0410",
        "\u0436",
        "\u0628",
        "\u0663",
        "\u0939",
        // surrogate pairs (math bold, Deseret, CJK extension B, emoji) and unpaired halves
        "\uD835\uDC00",
        "\uD801\uDC00",
        "\uD840\uDC00",
        "\uD83D\uDE00",
        "\uD800",
        "\uDC00",
        "\uDBFF",
        "\uDFFF",
        // punctuation and symbols outside ASCII
        "\u2014",
        "\u2019",
        "\u201C",
        "\u00A9",
        "\u20AC",
        "\u2026"
    };

    @Provide
    static Arbitrary<String> mixedText() {
        Arbitrary<String> piece =
                Arbitraries.frequencyOf(
                        Tuple.of(3, Arbitraries.strings().withCharRange('a', 'z').ofMaxLength(6)),
                        Tuple.of(2, Arbitraries.strings().ascii().ofMaxLength(4)),
                        Tuple.of(8, Arbitraries.of(PIECES)),
                        Tuple.of(1, Arbitraries.chars().map(String::valueOf)),
                        Tuple.of(
                                1,
                                Arbitraries.integers()
                                        .between(0, Character.MAX_CODE_POINT)
                                        .map(Character::toString)));
        return piece.list().ofMaxSize(40).map(list -> String.join("", list));
    }

    @Property(tries = 3000)
    void sameBufferOffsetsAndCountAsTheLegacyTokenizer(
            @ForAll("mixedText") String text,
            @ForAll boolean removeStopWords,
            @ForAll Stemming stemming) {
        assertSame(text, removeStopWords, stemming);
    }

    /** The char[] overload reads only its range, even when a surrogate pair straddles an end. */
    @Property(tries = 1000)
    void theCharArrayOverloadReadsOnlyItsRange(
            @ForAll("mixedText") String text,
            @ForAll("mixedText") String before,
            @ForAll("mixedText") String after,
            @ForAll boolean loneSurrogatesAtTheEdges) {
        String prefix = loneSurrogatesAtTheEdges ? before + "\uD835" : before;
        String suffix = loneSurrogatesAtTheEdges ? "\uDC00" + after : after;
        String all = prefix + "\uDC01" + text + "\uD801" + suffix;
        int offset = prefix.length();
        char[] array = all.toCharArray();
        String range = all.substring(offset, offset + text.length() + 2);
        Tokenizer fast =
                new Tokenizer(false, Tokenizer.Stemming.NONE)
                        .tokenize(array, offset, text.length() + 2);
        assertAgrees(fast, range, false, Stemming.NONE);
        assertThat(array).isEqualTo(all.toCharArray());
    }

    /** Long, mostly ASCII prose with pieces inserted anywhere, also inside words. */
    @Property(tries = 60)
    void longMostlyAsciiText(
            @ForAll @IntRange(min = 0, max = 1000) int seed,
            @ForAll @IntRange(min = 1, max = 200) int oneInsertionIn,
            @ForAll Stemming stemming) {
        SplittableRandom random = new SplittableRandom(seed);
        String prose = SyntheticText.prose(seed, 20_000);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < prose.length(); i++) {
            text.append(prose.charAt(i));
            if (random.nextInt(oneInsertionIn) == 0) {
                text.append(PIECES[random.nextInt(PIECES.length)]);
            }
        }
        assertSame(text.toString(), false, stemming);
        assertSame(text.toString(), true, stemming);
    }

    @Test
    void examplesWhereAnAsciiLetterCombinesWithWhatFollows() {
        for (String text :
                new String[] {
                    "cafe\u0301",
                    "e\u0301",
                    "E\u0301x",
                    "\u0301e\u0301",
                    "ab e\u0301 cd",
                    "a\u0308\u0304b",
                    "A\u030A",
                    "x \u0301y",
                    "-\u0301a",
                    "\u1100\u1161\u11A8",
                    "K\u0323\u0307",
                    "I\u0307stanbul",
                    "s\u0307\u0323",
                    "\u03A3\u03C2 x\u0345",
                    "a\uD834\uDD65",
                    // Normalisation removes what is between two lone surrogates: they form a
                    // pair, as when the whole text is normalised at once.
                    "\uD800\u00AD\uDC00",
                    "a\uD835\u200D\uDC00b",
                    "\uD835\u00AD\u00AD\uDC01 \uD835\u00AD x"
                }) {
            for (Stemming stemming : Stemming.values()) {
                assertSame(text, false, stemming);
                assertSame(text, true, stemming);
            }
        }
    }

    @Test
    void oneInstanceReusedAcrossMixedInputs() {
        Tokenizer reused = new Tokenizer(false, Tokenizer.Stemming.NONE);
        SplittableRandom random = new SplittableRandom(5);
        for (int round = 0; round < 300; round++) {
            StringBuilder text = new StringBuilder();
            int pieces = random.nextInt(round % 7 == 0 ? 3000 : 30);
            for (int i = 0; i < pieces; i++) {
                text.append(PIECES[random.nextInt(PIECES.length)]);
            }
            assertAgrees(reused.tokenize(text), text.toString(), false, Stemming.NONE);
        }
    }

    static void assertSame(String text, boolean removeStopWords, Stemming stemming) {
        // Without the script rules, every text tokenizes exactly as before.
        assertEqual(
                new Tokenizer(removeStopWords, stemming, false).tokenize(text),
                new LegacyTokenizer(removeStopWords, stemming).tokenize(text),
                text);
        assertAgrees(
                new Tokenizer(removeStopWords, stemming).tokenize(text),
                text,
                removeStopWords,
                stemming);
        assertAgrees(
                new Tokenizer(removeStopWords, stemming).tokenize(new StringBuilder(text)),
                text,
                removeStopWords,
                stemming);
        char[] padded = ("E\u0301" + text + "\u0301").toCharArray();
        assertAgrees(
                new Tokenizer(removeStopWords, stemming).tokenize(padded, 2, text.length()),
                text,
                removeStopWords,
                stemming);
    }

    /**
     * Byte for byte the legacy result when the text has none of the split scripts, else the
     * oracle's tokens (with a consistent buffer).
     */
    static void assertAgrees(
            Tokenizer fast, String text, boolean removeStopWords, Stemming stemming) {
        if (TextOracle.hasSplitScript(text)) {
            assertThat(TokenizerTest.tokens(fast))
                    .as("tokens of " + escape(text))
                    .isEqualTo(TextOracle.tokens(text, removeStopWords, stemming));
        } else {
            assertEqual(fast, new LegacyTokenizer(removeStopWords, stemming).tokenize(text), text);
        }
    }

    static void assertEqual(Tokenizer fast, LegacyTokenizer legacy, CharSequence text) {
        String what = "tokens of " + escape(text);
        assertThat(fast.tokenCount()).as(what).isEqualTo(legacy.tokenCount());
        assertThat(Arrays.copyOf(fast.buffer(), fast.bufferLength()))
                .as(what)
                .isEqualTo(Arrays.copyOf(legacy.buffer(), legacy.bufferLength()));
        for (int i = 0; i < legacy.tokenCount(); i++) {
            assertThat(fast.tokenStart(i)).as(what).isEqualTo(legacy.tokenStart(i));
            assertThat(fast.tokenEnd(i)).as(what).isEqualTo(legacy.tokenEnd(i));
        }
        boolean asciiBuffer = true;
        for (int i = 0; i < fast.bufferLength(); i++) {
            asciiBuffer &= fast.buffer()[i] >= 0;
        }
        assertThat(fast.isAscii()).as("isAscii() of " + what).isEqualTo(asciiBuffer);
    }

    static String escape(CharSequence text) {
        StringBuilder out = new StringBuilder("\"");
        text.chars()
                .forEach(
                        c -> {
                            if (c >= 0x20 && c < 0x7F) {
                                out.append((char) c);
                            } else {
                                out.append(String.format("\\u%04X", c));
                            }
                        });
        return out.append('"').toString();
    }
}
