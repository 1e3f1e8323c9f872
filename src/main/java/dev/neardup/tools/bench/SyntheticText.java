package dev.neardup.tools.bench;

import java.util.SplittableRandom;

/**
 * Deterministic pseudo-English text for benchmarks and tests: words drawn from a fixed vocabulary
 * with a Zipf-like distribution, sentences with punctuation and capitals, about 6 bytes per word
 * including the separator, like English prose.
 */
public final class SyntheticText {

    private static final String[] VOCABULARY = buildVocabulary();

    private SyntheticText() {}

    /** About {@code bytes} bytes of ASCII prose, a pure function of the seed. */
    public static String prose(long seed, int bytes) {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder out = new StringBuilder(bytes + 64);
        int inSentence = 0;
        while (out.length() < bytes) {
            String word = word(random);
            if (inSentence == 0) {
                out.append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
            } else {
                out.append(word);
            }
            inSentence++;
            if (inSentence > 8 && random.nextInt(10) == 0) {
                out.append(". ");
                inSentence = 0;
            } else if (random.nextInt(15) == 0) {
                out.append(", ");
            } else {
                out.append(' ');
            }
        }
        return out.toString();
    }

    /** The same prose as a web page: head, navigation, script and style around paragraphs. */
    public static String html(long seed, int textBytes) {
        String text = prose(seed, textBytes);
        StringBuilder out = new StringBuilder(textBytes * 2);
        out.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>")
                .append(text, 0, Math.min(40, text.length()))
                .append("</title><style>body{font-family:sans-serif} .nav a{margin:0 4px}</style>")
                .append("<script>window.dataLayer=[];function t(){return 1;}</script></head>")
                .append("<body><div class=\"nav\"><a href=\"/\">Home</a> | <a href=\"/news\">News")
                .append("</a> | <a href=\"/about\">About &amp; contact</a></div><main>");
        int pos = 0;
        while (pos < text.length()) {
            int end = Math.min(text.length(), pos + 600);
            while (end < text.length() && text.charAt(end) != ' ') {
                end++;
            }
            out.append("<p>").append(text, pos, end).append("</p>\n");
            pos = end;
        }
        out.append("</main><!-- tracking --><footer>&copy; 2026 Example</footer></body></html>");
        return out.toString();
    }

    private static String word(SplittableRandom random) {
        // Zipf-like: index = floor(V^u) - 1 for uniform u gives P(i) ~ 1/i.
        double u = random.nextDouble();
        int index = (int) Math.pow(VOCABULARY.length, u) - 1;
        return VOCABULARY[Math.min(index, VOCABULARY.length - 1)];
    }

    private static String[] buildVocabulary() {
        String[] common = {
            "the", "of", "and", "to", "a", "in", "is", "that", "for", "it", "as", "was", "with",
            "be", "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which"
        };
        String syllables = "ka lo mi ne ru sa ti po da fe gi ha jo ve wu ze ar en is on ul";
        String[] parts = syllables.split(" ");
        SplittableRandom random = new SplittableRandom(42);
        String[] vocabulary = new String[20000];
        System.arraycopy(common, 0, vocabulary, 0, common.length);
        for (int i = common.length; i < vocabulary.length; i++) {
            int syllableCount = 1 + random.nextInt(3) + (random.nextInt(4) == 0 ? 1 : 0);
            StringBuilder w = new StringBuilder();
            for (int s = 0; s < syllableCount; s++) {
                w.append(parts[random.nextInt(parts.length)]);
            }
            vocabulary[i] = w.toString();
        }
        return vocabulary;
    }
}
