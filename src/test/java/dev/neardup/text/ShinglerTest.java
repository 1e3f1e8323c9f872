package dev.neardup.text;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.dynatrace.hash4j.hashing.Hashing;
import dev.neardup.text.Tokenizer.Stemming;
import dev.neardup.tools.bench.SyntheticText;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ShinglerTest {

    private static final long SEED = ShingleOptions.DEFAULT_SEED;

    /** XXH3-64 of a string's UTF-8 bytes, computed with hash4j directly. */
    static long xxh3(String s, long seed) {
        return Hashing.xxh3_64(seed).hashBytesToLong(s.getBytes(UTF_8));
    }

    /** Checks that {@code hashes[i]} is the XXH3 of {@code shingles[i]}, then returns them. */
    static long[] assertHashesOfShingles(Shingler shingler, String text) {
        String[] shingles = shingler.shingles(text);
        long[] hashes = shingler.shingleHashes(text);
        assertThat(hashes).hasSameSizeAs(shingles);
        long seed = shingler.options().seed();
        for (int i = 0; i < shingles.length; i++) {
            assertThat(hashes[i])
                    .as("hash of shingle %d '%s'", i, shingles[i])
                    .isEqualTo(xxh3(shingles[i], seed));
        }
        return hashes;
    }

    // ---- hash4j is the reference XXH3 -------------------------------------------------------

    /**
     * The two empty-input vectors of xxHash's own sanity test table (XXH3_64bits with seed 0 and
     * with seed PRIME64 = 0x9E3779B185EBCA8D).
     */
    @Test
    void hash4jMatchesPublishedXxh3Vectors() {
        assertThat(Hashing.xxh3_64().hashBytesToLong(new byte[0])).isEqualTo(0x2D06800538D394C2L);
        assertThat(Hashing.xxh3_64(0L).hashBytesToLong(new byte[0])).isEqualTo(0x2D06800538D394C2L);
        assertThat(Hashing.xxh3_64(0x9E3779B185EBCA8DL).hashBytesToLong(new byte[0]))
                .isEqualTo(0xA8A6B918B2F0364AL);
    }

    /**
     * XXH3_64bits_withSeed(prefix, len, DEFAULT_SEED) from the reference C library (libxxhash
     * 0.8.1, through ctypes), for a length in each of XXH3's code paths (0, 1-3, 4-8, 9-16, 17-128,
     * 129-240, over 240). The prefix is of {@code "the quick brown fox jumps over the lazy dog "}
     * repeated.
     */
    static Object[][] referenceVectors() {
        return new Object[][] {
            {0, 0x07536717C44F0273L},
            {1, 0x5145DCFF5139B9B5L},
            {2, 0x746C8F07BC43DD5DL},
            {3, 0x12CC6ECA65FBFB7AL},
            {4, 0x3CEA1E32BBC14967L},
            {7, 0xEE29B311D9279839L},
            {8, 0xAB13648C6B4A3D20L},
            {9, 0xBD3C8DD9285120DBL},
            {15, 0xABDD7DD7E1DB58D6L},
            {16, 0x80C766D40EF52FC0L},
            {17, 0x5EB287B6B7167163L},
            {100, 0x41CF19DAA9434257L},
            {128, 0xA287948C09E10ADBL},
            {129, 0xF5475F9424B5673AL},
            {200, 0x995D3BC508548A53L},
            {240, 0xD961D78FFAEE0A21L},
            {241, 0x9A00F3E24F3EB563L},
            {1000, 0x31D93A680CB9EBFBL},
        };
    }

    @ParameterizedTest
    @MethodSource("referenceVectors")
    void hash4jMatchesTheReferenceCImplementation(int length, long expected) {
        byte[] bytes =
                "the quick brown fox jumps over the lazy dog "
                        .repeat(40)
                        .substring(0, length)
                        .getBytes(UTF_8);
        assertThat(Hashing.xxh3_64(SEED).hashBytesToLong(bytes)).isEqualTo(expected);
    }

    /**
     * End to end against the reference C library: the shingle hashes are part of the stored state,
     * and the contract promises Python's {@code xxhash.xxh3_64_intdigest(shingle, seed)}.
     */
    @Test
    void shingleHashesMatchTheReferenceCImplementation() {
        assertThat(new Shingler(ShingleOptions.words(2)).shingleHashes("Hello, World!"))
                .containsExactly(0x2816407FE6B9472EL); // "hello world"
        assertThat(
                        new Shingler(ShingleOptions.words(5))
                                .shingleHashes("Caf\u00C9 NA\u00CFVE \u6771\u4EAC"))
                .containsExactly(0xC40A79B650C98F6CL); // "café naïve 東京", one short shingle
        assertThat(new Shingler(ShingleOptions.words(5).withSeed(0L)).shingleHashes("hello world"))
                .containsExactly(0xD447B1EA40E6988BL);
        assertThat(new Shingler(ShingleOptions.chars(3)).shingleHashes("Caf\u00E9"))
                .startsWith(0xB689477E0ED23D41L); // "caf"
    }

    // ---- word shingles ------------------------------------------------------------------------

    @Test
    void wordShingleCountIsTokensMinusWPlusOne() {
        Shingler shingler = new Shingler(ShingleOptions.words(3));
        assertThat(shingler.shingles("a b c d e f g"))
                .containsExactly("a b c", "b c d", "c d e", "d e f", "e f g");
        String text = SyntheticText.prose(1, 2_000);
        int tokens = new Tokenizer(false, Tokenizer.Stemming.NONE).tokenize(text).tokenCount();
        for (int w = 1; w <= 8; w++) {
            assertThat(new Shingler(ShingleOptions.words(w)).shingleHashes(text))
                    .hasSize(tokens - w + 1);
        }
    }

    @Test
    void wordShinglesAreTheTokensJoinedBySingleSpaces() {
        Shingler shingler = new Shingler(ShingleOptions.words(2));
        assertThat(shingler.shingles("Hello,   World!!  foo\tBAR\n"))
                .containsExactly("hello world", "world foo", "foo bar");
        assertHashesOfShingles(shingler, "Hello,   World!!  foo\tBAR\n");
    }

    @Test
    void wordShinglesOfUnicodeText() {
        Shingler shingler = new Shingler(ShingleOptions.words(2));
        assertThat(shingler.shingles("Caf\u00E9 NA\u00CFVE \u6771\u4EAC \uD835\uDC00"))
                .containsExactly(
                        "caf\u00E9 na\u00EFve", "na\u00EFve \u6771\u4EAC", "\u6771\u4EAC a");
        assertHashesOfShingles(shingler, "Caf\u00E9 NA\u00CFVE \u6771\u4EAC \uD835\uDC00");
    }

    @Test
    void hashOfEachShingleIsXxh3OfItsUtf8Bytes() {
        String[] texts = {
            SyntheticText.prose(5, 3_000),
            "Stra\u00DFe \u03A3\u039F\u03A6\u039F\u03A3 caf\u00E9 co\u00ADoperate \uD83D\uDE00 end",
            "one",
            "a b c d e f g h i j k l m n o p"
        };
        for (ShingleOptions options :
                new ShingleOptions[] {
                    ShingleOptions.defaults(),
                    ShingleOptions.words(1),
                    ShingleOptions.words(3).withStopWords(true).withStemming(Stemming.PORTER),
                    ShingleOptions.chars(9),
                    ShingleOptions.chars(4).withSeed(-1L),
                    ShingleOptions.chars(5).withStemming(Stemming.SNOWBALL_ENGLISH)
                }) {
            Shingler shingler = new Shingler(options);
            for (String text : texts) {
                assertHashesOfShingles(shingler, text);
            }
        }
    }

    @Test
    void fewerTokensThanWGiveOneShingleOfTheWholeNormalisedText() {
        Shingler shingler = new Shingler(ShingleOptions.words(5));
        assertThat(shingler.shingles("Only THREE words!")).containsExactly("only three words");
        assertThat(shingler.shingleHashes("Only THREE words!"))
                .containsExactly(xxh3("only three words", SEED));
        assertThat(shingler.shingles("single")).containsExactly("single");
    }

    @Test
    void exactlyWTokensGiveOneShingleAndOneMoreGivesTwo() {
        Shingler shingler = new Shingler(ShingleOptions.words(3));
        assertThat(shingler.shingles("a b c")).containsExactly("a b c");
        assertThat(shingler.shingles("a b c d")).containsExactly("a b c", "b c d");
        assertThat(shingler.shingles("a b")).containsExactly("a b");
    }

    @Test
    void documentsWithoutTokensHaveNoShingles() {
        String[] empty = {"", "   ", "!!! ... ???", "\uD83D\uDE00 \u2713 \u00AD", "\n\t"};
        for (ShingleOptions options :
                new ShingleOptions[] {
                    ShingleOptions.words(5),
                    ShingleOptions.words(1),
                    ShingleOptions.chars(9),
                    ShingleOptions.chars(1)
                }) {
            Shingler shingler = new Shingler(options);
            for (String text : empty) {
                assertThat(shingler.shingleHashes(text)).as("%s of '%s'", options, text).isEmpty();
                assertThat(shingler.shingles(text)).as("%s of '%s'", options, text).isEmpty();
                assertThat(shingler.normalize(text)).isEmpty();
            }
        }
        Shingler stop = new Shingler(ShingleOptions.words(2).withStopWords(true));
        assertThat(stop.shingleHashes("the and of THE")).isEmpty();
        Shingler html = new Shingler(ShingleOptions.defaults());
        assertThat(html.shingleHashes("<script>var x = 1;</script><!-- c -->", ContentType.HTML))
                .isEmpty();
    }

    @Test
    void repeatedShinglesRepeatInDocumentOrder() {
        Shingler shingler = new Shingler(ShingleOptions.words(2));
        long[] hashes = shingler.shingleHashes("a a a a b");
        long aa = xxh3("a a", SEED);
        assertThat(hashes).containsExactly(aa, aa, aa, xxh3("a b", SEED));
    }

    @Test
    void stopWordsAndStemmingApplyBeforeShingling() {
        Shingler shingler =
                new Shingler(
                        ShingleOptions.words(2).withStopWords(true).withStemming(Stemming.PORTER));
        assertThat(shingler.shingles("The running of the horses")).containsExactly("run hors");
        assertThat(shingler.shingleHashes("The running of the horses"))
                .containsExactly(0x307ED7A7F80E6707L); // C reference
        Shingler chars = new Shingler(ShingleOptions.chars(3).withStopWords(true));
        assertThat(chars.shingles("the cat")).containsExactly("cat");
    }

    // ---- character shingles
    // ----------------------------------------------------------------------

    @Test
    void charShinglesOfAsciiTextIncludeTheSingleSpaces() {
        Shingler shingler = new Shingler(ShingleOptions.chars(5));
        assertThat(shingler.shingles("Hello,   World"))
                .containsExactly("hello", "ello ", "llo w", "lo wo", "o wor", " worl", "world");
        assertHashesOfShingles(shingler, "Hello,   World");
    }

    @Test
    void charShinglesCountCodePointsNotBytes() {
        // c a f é ␠ n a ï v e ␠ 東 京: 13 code points, 19 bytes of UTF-8.
        String text = "caf\u00E9 na\u00EFve \u6771\u4EAC";
        Shingler shingler = new Shingler(ShingleOptions.chars(4));
        String[] expected = {
            "caf\u00E9",
            "af\u00E9 ",
            "f\u00E9 n",
            "\u00E9 na",
            " na\u00EF",
            "na\u00EFv",
            "a\u00EFve",
            "\u00EFve ",
            "ve \u6771",
            "e \u6771\u4EAC"
        };
        assertThat(shingler.shingles(text)).containsExactly(expected);
        long[] hashes = assertHashesOfShingles(shingler, text);
        assertThat(hashes).hasSize(13 - 4 + 1);
        // Decomposed input normalises (NFKC) to the same shingles.
        assertThat(shingler.shingleHashes("CAFE\u0301 NAI\u0308VE \u6771\u4EAC"))
                .containsExactly(hashes);
    }

    @Test
    void charShinglesOfSupplementaryCodePoints() {
        // U+20000..20002: one code point each, four bytes of UTF-8, two UTF-16 chars.
        String a = "\uD840\uDC00";
        String b = "\uD840\uDC01";
        String c = "\uD840\uDC02";
        Shingler shingler = new Shingler(ShingleOptions.chars(2));
        assertThat(shingler.shingles(a + b + c)).containsExactly(a + b, b + c);
        assertHashesOfShingles(shingler, a + b + c);
    }

    @Test
    void charShinglesWhenNonAsciiInputNormalisesToAscii() {
        // Mathematical bold ABCD and the fi ligature normalise to ASCII letters.
        Shingler shingler = new Shingler(ShingleOptions.chars(3));
        assertThat(shingler.shingles("\uD835\uDC00\uD835\uDC01\uD835\uDC02\uD835\uDC03"))
                .containsExactly("abc", "bcd");
        assertThat(shingler.shingles("\uFB01le")).containsExactly("fil", "ile");
        assertThat(shingler.shingleHashes("\uFB01le"))
                .containsExactly(shingler.shingleHashes("file"));
    }

    @Test
    void textShorterThanKGivesOneShingleOfTheWholeText() {
        Shingler shingler = new Shingler(ShingleOptions.chars(9));
        assertThat(shingler.shingles("ab, CD")).containsExactly("ab cd");
        assertThat(shingler.shingleHashes("ab, CD")).containsExactly(xxh3("ab cd", SEED));
        assertThat(shingler.shingles("\u6771\u4EAC")).containsExactly("\u6771\u4EAC");
        // Exactly k code points: one shingle; k + 1: two.
        assertThat(shingler.shingles("abcd efgh")).containsExactly("abcd efgh");
        assertThat(shingler.shingles("abcd efghi")).containsExactly("abcd efgh", "bcd efghi");
        assertThat(shingler.shingles("\u00E9\u00E9\u00E9\u00E9 \u00E9\u00E9\u00E9\u00E9"))
                .containsExactly("\u00E9\u00E9\u00E9\u00E9 \u00E9\u00E9\u00E9\u00E9");
    }

    // ---- seeds, invariance, content types ----------------------------------------------------

    @Test
    void theSeedChangesEveryHash() {
        String text = SyntheticText.prose(9, 1_000);
        for (ShingleOptions options :
                new ShingleOptions[] {ShingleOptions.words(4), ShingleOptions.chars(7)}) {
            long[] one = new Shingler(options.withSeed(1L)).shingleHashes(text);
            long[] two = new Shingler(options.withSeed(2L)).shingleHashes(text);
            assertThat(one).hasSameSizeAs(two).isNotEmpty();
            for (int i = 0; i < one.length; i++) {
                assertThat(one[i]).as("shingle %d", i).isNotEqualTo(two[i]);
            }
            assertHashesOfShingles(new Shingler(options.withSeed(1L)), text);
            assertHashesOfShingles(new Shingler(options.withSeed(2L)), text);
        }
    }

    @Test
    void caseWhiteSpaceAndPunctuationDoNotChangeTheHashes() {
        for (ShingleOptions options :
                new ShingleOptions[] {
                    ShingleOptions.words(1),
                    ShingleOptions.words(2),
                    ShingleOptions.defaults(),
                    ShingleOptions.chars(5),
                    ShingleOptions.chars(9)
                }) {
            Shingler shingler = new Shingler(options);
            long[] reference = shingler.shingleHashes("hello world");
            assertThat(reference).isNotEmpty();
            for (String variant :
                    new String[] {
                        "Hello,   World!!",
                        "HELLO\tworld\n",
                        "  ...hello -- WORLD?  ",
                        "hello\u00A0world",
                        "\uFF28ello \uFF37orld"
                    }) {
                assertThat(shingler.shingleHashes(variant))
                        .as("%s: '%s'", options, variant)
                        .containsExactly(reference);
            }
            assertThat(shingler.shingleHashes("hello worlds")).isNotEqualTo(reference);
        }
    }

    @Test
    void htmlAndPlainTextOfTheSameContentGiveTheSameHashes() {
        String html =
                "<!DOCTYPE html><html><head><title>Title here</title><style>p { margin: 0 }</style>"
                        + "<script>track('visit');</script></head><body><h1>The heading</h1><p>Some"
                        + " <b>bold</b> text &amp; more&nbsp;words.</p><!-- a comment"
                        + " --><ul><li>one</li><li>two</li></ul><img alt=\"picture\""
                        + " src=\"p.png\"><p>Caf&eacute; ends.</p></body></html>";
        String text =
                "Title here\nThe heading\nSome bold text & more words.\none\ntwo\nCaf\u00E9 ends.";
        for (ShingleOptions options :
                new ShingleOptions[] {
                    ShingleOptions.defaults(),
                    ShingleOptions.words(2),
                    ShingleOptions.chars(9),
                    ShingleOptions.defaults()
                            .withStopWords(true)
                            .withStemming(Stemming.SNOWBALL_ENGLISH)
                }) {
            Shingler shingler = new Shingler(options);
            long[] fromText = shingler.shingleHashes(text, ContentType.TEXT);
            assertThat(fromText).isNotEmpty().containsExactly(shingler.shingleHashes(text));
            assertThat(shingler.shingleHashes(html, ContentType.HTML))
                    .as("%s", options)
                    .containsExactly(fromText);
            assertThat(
                            shingler.shingleHashes(
                                    html, ContentType.detect("text/html; charset=utf-8", html)))
                    .containsExactly(fromText);
            assertThat(shingler.shingleHashes(html, ContentType.detect(null, html)))
                    .containsExactly(fromText);
            // Read as plain text, the markup itself becomes tokens and the hashes differ.
            assertThat(shingler.shingleHashes(html, ContentType.TEXT)).isNotEqualTo(fromText);
        }
    }

    // ---- the instance
    // -----------------------------------------------------------------------------

    @Test
    void normalizeIsTheTokenizersNormalisedText() {
        Shingler shingler = new Shingler(ShingleOptions.words(3).withStopWords(true));
        assertThat(shingler.normalize("The  Cat, and THE hat!")).isEqualTo("cat hat");
        assertThat(shingler.normalize("Stra\u00DFe")).isEqualTo("strasse");
    }

    @Test
    void optionsAreTheGivenOnes() {
        ShingleOptions options = ShingleOptions.chars(6).withSeed(7L);
        assertThat(new Shingler(options).options()).isSameAs(options);
    }

    @Test
    void oneInstanceAcrossDocumentsOfChangingSizeAndKind() {
        String[] texts = {
            SyntheticText.prose(2, 50_000),
            "short",
            "",
            "caf\u00E9 ".repeat(5_000),
            "x y z",
            "\uD840\uDC00".repeat(300),
            SyntheticText.prose(3, 10_000),
            "\u00E9"
        };
        for (ShingleOptions options :
                new ShingleOptions[] {
                    ShingleOptions.words(4),
                    ShingleOptions.chars(9),
                    ShingleOptions.chars(2).withStopWords(true)
                }) {
            Shingler reused = new Shingler(options);
            for (String text : texts) {
                Shingler fresh = new Shingler(options);
                assertThat(reused.shingleHashes(text)).containsExactly(fresh.shingleHashes(text));
                assertThat(reused.shingles(text)).containsExactly(fresh.shingles(text));
                assertHashesOfShingles(reused, text);
            }
        }
    }

    @Test
    void largeDocument() {
        String text = SyntheticText.prose(11, 5_000_000);
        Shingler shingler = new Shingler(ShingleOptions.defaults());
        long[] hashes = shingler.shingleHashes(text);
        int tokens = text.strip().split("[^A-Za-z0-9]+").length;
        assertThat(hashes).hasSize(tokens - 5 + 1);
        String[] shingles = shingler.shingles(text);
        for (int i : new int[] {0, 1, hashes.length / 2, hashes.length - 1}) {
            assertThat(hashes[i]).isEqualTo(xxh3(shingles[i], SEED));
        }
        assertThat(Arrays.stream(hashes).distinct().count()).isGreaterThan(hashes.length / 2);
    }
}
