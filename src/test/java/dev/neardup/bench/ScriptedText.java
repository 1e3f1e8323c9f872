package dev.neardup.bench;

import java.util.SplittableRandom;

/**
 * Benchmark inputs in other scripts, derived deterministically from {@code SyntheticText}'s ASCII
 * prose so that every variant has the same word structure: see {@link SignatureBenchmark#script}.
 */
final class ScriptedText {

    private ScriptedText() {}

    /** Non-ASCII characters a real English page has a few of per paragraph. */
    private static final String[] ENGLISH_EXTRAS = {
        "\u2014",
        "\u201Cquoted\u201D",
        "\u2019s",
        "\u00A9",
        "caf\u00E9",
        "na\u00EFve",
        "\u2026",
        "\u20AC5",
        "\u00A0"
    };

    private static final String CYRILLIC = "абцдефгхийклмнопярстувшхыз";
    private static final String GERMAN_VOWELS = "äöüÄÖÜß";

    /** {@code text} (ASCII prose) rewritten in {@code script}. */
    static String transform(String text, String script) {
        switch (script) {
            case "ASCII":
                return text;
            case "MOSTLY_ASCII":
                return mostlyAscii(text);
            case "GERMAN":
                return german(text);
            case "CYRILLIC":
                return cyrillic(text);
            case "CJK":
                return cjk(text);
            default:
                throw new IllegalArgumentException("unknown script " + script);
        }
    }

    /** As {@link #transform}, only for the text between tags and outside entities. */
    static String transformHtml(String html, String script) {
        StringBuilder out = new StringBuilder(html.length() * 2);
        int i = 0;
        while (i < html.length()) {
            int lt = html.indexOf('<', i);
            if (lt < 0) {
                lt = html.length();
            }
            String text = html.substring(i, lt);
            out.append(text.indexOf('&') >= 0 ? text : transform(text, script));
            int gt = html.indexOf('>', lt);
            gt = gt < 0 ? html.length() : gt + 1;
            out.append(html, lt, gt);
            i = gt;
        }
        return out.toString();
    }

    /** About three non-ASCII characters or words per 200 characters, at word boundaries. */
    private static String mostlyAscii(String text) {
        SplittableRandom random = new SplittableRandom(11);
        StringBuilder out = new StringBuilder(text.length() + text.length() / 20);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out.append(c);
            if (c == ' ' && random.nextInt(12) == 0) {
                out.append(ENGLISH_EXTRAS[random.nextInt(ENGLISH_EXTRAS.length)]).append(' ');
            }
        }
        return out.toString();
    }

    /** Every other word gets an umlaut (or ß) in place of its first vowel. */
    private static String german(String text) {
        SplittableRandom random = new SplittableRandom(12);
        StringBuilder out = new StringBuilder(text.length());
        boolean changed = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ') {
                changed = random.nextBoolean();
            } else if (!changed && "aeiouAEIOU".indexOf(c) >= 0) {
                c = GERMAN_VOWELS.charAt(random.nextInt(GERMAN_VOWELS.length()));
                changed = true;
            }
            out.append(c);
        }
        return out.toString();
    }

    /** Letter by letter to Cyrillic, keeping capitals. */
    private static String cyrillic(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 'a' && c <= 'z') {
                out.append(CYRILLIC.charAt(c - 'a'));
            } else if (c >= 'A' && c <= 'Z') {
                out.append(Character.toUpperCase(CYRILLIC.charAt(c - 'A')));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /**
     * Each word becomes one to three characters (CJK ideographs, or katakana for one word in eight)
     * chosen by its letters; spaces disappear and '.' and ',' become '。' and '、'.
     */
    private static String cjk(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int wordHash = 0;
        int wordLength = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ' ';
            if (Character.isLetterOrDigit(c) && c < 0x80) {
                wordHash = 31 * wordHash + Character.toLowerCase(c);
                wordLength++;
                continue;
            }
            if (wordLength > 0) {
                int chars = 1 + Math.min(2, wordLength / 3);
                boolean katakana = Math.floorMod(wordHash, 8) == 0;
                for (int k = 0; k < chars; k++) {
                    int h = Math.floorMod(wordHash * (k + 7) + k, 3000);
                    out.append(katakana ? (char) (0x30A1 + h % 90) : (char) (0x4E00 + h));
                }
                wordHash = 0;
                wordLength = 0;
            }
            if (c == '.') {
                out.append('\u3002');
            } else if (c == ',') {
                out.append('\u3001');
            } else if (c != ' ') {
                out.append(c);
            }
        }
        return out.toString();
    }
}
