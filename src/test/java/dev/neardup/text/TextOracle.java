package dev.neardup.text;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UScript;
import com.ibm.icu.text.Normalizer2;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.tartarus.snowball.SnowballStemmer;
import org.tartarus.snowball.ext.EnglishStemmer;
import org.tartarus.snowball.ext.PorterStemmer;

/**
 * A slow, literal reading of the {@link Tokenizer} and {@link Shingler} contracts, written without
 * looking at their fast paths: the reference the property tests compare against. Letters, digits
 * and marks are ICU4J's (the Unicode version the pom pins), not the JVM's.
 */
final class TextOracle {

    private static final Normalizer2 NFKC_CASEFOLD = Normalizer2.getNFKCCasefoldInstance();

    /**
     * Whether src/main's {@link Tokenizer} has the two fixes proposed with these tests: keep a
     * token whose stem would be empty (Porter stems "s", as in "it's", to ""), and take letters,
     * digits and marks from ICU4J rather than from the JVM. Until then the two example tests of the
     * fixes are skipped and the properties skip the inputs the first fix affects. Set to true
     * together with the fixes.
     */
    static final boolean TOKENIZER_FIXES_APPLIED = true;

    /** True for inputs that the missing empty-stem fix affects: a token "s" stemmed by Porter. */
    static boolean affectedByMissingTokenizerFix(String text, Tokenizer.Stemming stemming) {
        return !TOKENIZER_FIXES_APPLIED
                && stemming == Tokenizer.Stemming.PORTER
                && tokens(text).contains("s");
    }

    private TextOracle() {}

    /**
     * Tokens of {@code text}: NFKC_Casefold, then runs of letters/digits with trailing marks
     * ({@link #wordRuns}), each split by script: runs of letters and digits whose Script_Extensions
     * are all among Han, Hiragana, Katakana, Hangul, Thai, Lao, Khmer and Myanmar (each with the
     * marks after it) into overlapping bigrams, or the letter alone if it has no such neighbour;
     * the rest kept whole.
     */
    static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        for (String run : wordRuns(text)) {
            // Units: a letter or digit and the marks after it, with its script group.
            List<String> units = new ArrayList<>();
            List<Integer> groups = new ArrayList<>();
            for (int i = 0; i < run.length(); ) {
                int cp = run.codePointAt(i);
                i += Character.charCount(cp);
                if (isMark(cp)) {
                    int last = units.size() - 1;
                    units.set(last, units.get(last) + Character.toString(cp));
                } else {
                    units.add(Character.toString(cp));
                    groups.add(scriptGroup(cp));
                }
            }
            for (int u = 0; u < units.size(); ) {
                int group = groups.get(u);
                int end = u;
                while (end < units.size() && groups.get(end) == group) {
                    end++;
                }
                List<String> same = units.subList(u, end);
                if (group == OTHER) {
                    out.add(String.join("", same));
                } else {
                    if (same.size() == 1) {
                        out.add(same.get(0));
                    }
                    for (int k = 0; k + 1 < same.size(); k++) {
                        out.add(same.get(k) + same.get(k + 1));
                    }
                }
                u = end;
            }
        }
        return out;
    }

    static final int OTHER = 0;
    static final int BIGRAMS = 1;

    private static final int[] BIGRAM_SCRIPTS = {
        UScript.HAN,
        UScript.HIRAGANA,
        UScript.KATAKANA,
        UScript.HANGUL,
        UScript.THAI,
        UScript.LAO,
        UScript.KHMER,
        UScript.MYANMAR
    };

    /** BIGRAMS when every script of the Script_Extensions of {@code cp} is a bigram script. */
    static int scriptGroup(int cp) {
        BitSet scripts = new BitSet();
        UScript.getScriptExtensions(cp, scripts);
        BitSet bigram = new BitSet();
        for (int script : BIGRAM_SCRIPTS) {
            bigram.set(script);
        }
        scripts.andNot(bigram);
        return scripts.isEmpty() ? BIGRAMS : OTHER;
    }

    /** True when the NFKC_Casefold of {@code text} has a letter or digit the script rules split. */
    static boolean hasSplitScript(String text) {
        return NFKC_CASEFOLD
                .normalize(text)
                .codePoints()
                .anyMatch(
                        cp ->
                                (UCharacter.isLetter(cp) || UCharacter.isDigit(cp))
                                        && scriptGroup(cp) != OTHER);
    }

    /**
     * NFKC_Casefold, then maximal runs of letters/digits with trailing marks: the tokens of the
     * contract before the script rules (and the whole tokens for text without those scripts).
     */
    static List<String> wordRuns(String text) {
        String normalized = NFKC_CASEFOLD.normalize(text);
        List<String> out = new ArrayList<>();
        StringBuilder current = null;
        for (int i = 0; i < normalized.length(); ) {
            int cp = normalized.codePointAt(i);
            i += Character.charCount(cp);
            boolean letterOrDigit = UCharacter.isLetter(cp) || UCharacter.isDigit(cp);
            if (letterOrDigit || (current != null && isMark(cp))) {
                if (current == null) {
                    current = new StringBuilder();
                }
                current.appendCodePoint(cp);
            } else if (current != null) {
                out.add(current.toString());
                current = null;
            }
        }
        if (current != null) {
            out.add(current.toString());
        }
        return out;
    }

    /** Tokens with the contract's stop-word removal (first) and stemming (second). */
    static List<String> tokens(String text, boolean removeStopWords, Tokenizer.Stemming stemming) {
        return tokens(text, removeStopWords, stemming, true);
    }

    /** As above; without the script rules when {@code segmentScripts} is false. */
    static List<String> tokens(
            String text,
            boolean removeStopWords,
            Tokenizer.Stemming stemming,
            boolean segmentScripts) {
        List<String> out = new ArrayList<>();
        for (String token : segmentScripts ? tokens(text) : wordRuns(text)) {
            if (removeStopWords && EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(token)) {
                continue;
            }
            out.add(stem(token, stemming));
        }
        return out;
    }

    /**
     * {@code token} stemmed by a fresh stemmer, so no state can leak between tokens; a token whose
     * stem would be empty (Porter: "s") is kept as it is, as tokens are never empty.
     */
    static String stem(String token, Tokenizer.Stemming stemming) {
        SnowballStemmer stemmer;
        switch (stemming) {
            case PORTER:
                stemmer = new PorterStemmer();
                break;
            case SNOWBALL_ENGLISH:
                stemmer = new EnglishStemmer();
                break;
            default:
                return token;
        }
        stemmer.setCurrent(token);
        stemmer.stem();
        String stem = stemmer.getCurrent();
        return stem.isEmpty() ? token : stem;
    }

    static boolean isMark(int cp) {
        return isIcuMark(cp);
    }

    private static boolean isJdkMark(int cp) {
        int type = Character.getType(cp);
        return type == Character.NON_SPACING_MARK
                || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }

    /**
     * True when the JDK (whose Unicode version depends on the JVM) and ICU4J (pinned by the pom)
     * agree on whether {@code cp} is a letter, a digit or a mark; random test input is restricted
     * to such code points so that the properties do not depend on the JVM running them.
     */
    static boolean jdkAndIcuAgree(int cp) {
        return Character.isLetter(cp) == UCharacter.isLetter(cp)
                && Character.isDigit(cp) == UCharacter.isDigit(cp)
                && isJdkMark(cp) == isIcuMark(cp);
    }

    private static boolean isIcuMark(int cp) {
        int type = UCharacter.getType(cp);
        return type == UCharacter.NON_SPACING_MARK
                || type == UCharacter.COMBINING_SPACING_MARK
                || type == UCharacter.ENCLOSING_MARK;
    }

    /** The normalised buffer as a string: tokens joined by single spaces. */
    static String normalizedText(List<String> tokens) {
        return String.join(" ", tokens);
    }

    /** Word w-shingles: windows of w tokens, or the whole text when there are fewer tokens. */
    static List<String> wordShingles(List<String> tokens, int w) {
        List<String> out = new ArrayList<>();
        if (tokens.isEmpty()) {
            return out;
        }
        if (tokens.size() < w) {
            out.add(String.join(" ", tokens));
            return out;
        }
        for (int i = 0; i + w <= tokens.size(); i++) {
            out.add(String.join(" ", tokens.subList(i, i + w)));
        }
        return out;
    }

    /** Character k-shingles: windows of k code points of the normalised text. */
    static List<String> charShingles(String normalizedText, int k) {
        List<String> out = new ArrayList<>();
        int[] cps = normalizedText.codePoints().toArray();
        if (cps.length == 0) {
            return out;
        }
        if (cps.length < k) {
            out.add(normalizedText);
            return out;
        }
        for (int i = 0; i + k <= cps.length; i++) {
            out.add(new String(cps, i, k));
        }
        return out;
    }
}
