package dev.neardup.config;

import java.util.Arrays;
import org.apache.flink.configuration.Configuration;

/** Settings for tests, from configuration keys and values, as a user's -D key=value pairs. */
public final class Settings {

    private Settings() {}

    /** The settings of {@code keyValues} (key, value, key, value, ...); later keys win. */
    public static NearDupSettings of(String... keyValues) {
        Configuration conf = new Configuration();
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.setString(keyValues[i], keyValues[i + 1]);
        }
        return NearDupSettings.from(conf);
    }

    /** Cosine similarity with {@code keyValues}. */
    public static NearDupSettings cosine(String... keyValues) {
        String[] all = new String[keyValues.length + 2];
        all[0] = NearDupOptions.SIMILARITY.key();
        all[1] = "COSINE";
        System.arraycopy(keyValues, 0, all, 2, keyValues.length);
        return of(all);
    }

    /** {@code first} followed by {@code more}. */
    public static String[] concat(String[] first, String... more) {
        String[] all = Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
