package dev.neardup.similarity;

import dev.neardup.config.NearDupOptions;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Tokenizer;
import java.time.Duration;
import java.util.Map;

/** What the modes share in their state shapes and settings lines. */
public final class ShapeKeys {

    /**
     * The recorded key of where containment mode keeps its samples: {@code intake} (the sample
     * intake and the sample store; bucket members keep ids only); {@code store} before (band
     * records carried the sample); not recorded before that, when every bucket member kept one
     * ({@code in-buckets}). Only {@code intake} is restored.
     */
    public static final String CONTAINMENT_SAMPLES = "containment.samples";

    private ShapeKeys() {}

    /** The shingling's state-shaping settings. */
    static void putShingles(Map<String, String> m, ShingleOptions sh) {
        m.put(NearDupOptions.SHINGLE_KIND.key(), sh.kind().name());
        m.put(NearDupOptions.SHINGLE_SIZE.key(), Integer.toString(sh.size()));
        m.put(NearDupOptions.STOP_WORDS.key(), Boolean.toString(sh.removeStopWords()));
        m.put(NearDupOptions.STEMMING.key(), sh.stemming().name());
        m.put("shingle-seed", Long.toHexString(sh.seed()));
    }

    /** The settings line's text options: " stop-words", " stem=PORTER", or nothing. */
    static String textOptions(ShingleOptions sh) {
        return (sh.removeStopWords() ? " stop-words" : "")
                + (sh.stemming() == Tokenizer.Stemming.NONE ? "" : " stem=" + sh.stemming());
    }

    /** The settings line's retention, as the flags take it. */
    static String retention(long millis) {
        return dev.neardup.config.OptionValues.format(Duration.ofMillis(millis));
    }
}
