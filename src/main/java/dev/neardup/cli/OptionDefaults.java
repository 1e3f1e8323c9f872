package dev.neardup.cli;

import dev.neardup.dedupe.DedupeOptions;
import dev.neardup.pipeline.NearDupOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ListResourceBundle;
import java.util.Locale;
import org.apache.flink.configuration.ConfigOption;

/**
 * The defaults that {@code --help} shows for the flags that map onto {@link NearDupOptions}, taken
 * from each {@link ConfigOption#defaultValue()}, so that the options class stays the one source of
 * defaults. The flags themselves have no default (null when not given: see {@link JobOptions}); a
 * description shows one with {@code ${bundle:neardup.threshold}} (for dedupe's options {@code
 * ${bundle:default.neardup.dedupe.block-size}}, {@link #bundleKey}), which picocli resolves against
 * this bundle ({@link Neardup#commandLine} installs it).
 */
public final class OptionDefaults extends ListResourceBundle {

    /** The options whose defaults help texts show. */
    static final List<ConfigOption<?>> OPTIONS =
            List.of(
                    NearDupOptions.THRESHOLD,
                    NearDupOptions.SIMILARITY,
                    NearDupOptions.MAX_HAMMING,
                    NearDupOptions.SIMHASH_BITS,
                    NearDupOptions.NUM_HASHES,
                    NearDupOptions.ALGORITHM,
                    NearDupOptions.SHINGLE_KIND,
                    NearDupOptions.STEMMING,
                    NearDupOptions.BUCKET_CAPACITY,
                    NearDupOptions.SIGNATURE_BITS,
                    NearDupOptions.RETENTION,
                    NearDupOptions.MAX_OUT_OF_ORDERNESS,
                    NearDupOptions.IDLE_TIMEOUT,
                    NearDupOptions.FP_WEIGHT,
                    NearDupOptions.FN_WEIGHT,
                    NearDupOptions.KAFKA_INPUT_TOPIC,
                    NearDupOptions.KAFKA_ALERTS_TOPIC,
                    NearDupOptions.KAFKA_VERDICTS_TOPIC,
                    NearDupOptions.KAFKA_DEAD_LETTER_TOPIC,
                    NearDupOptions.KAFKA_GROUP_ID,
                    NearDupOptions.KAFKA_STARTING_OFFSETS,
                    NearDupOptions.KAFKA_DELIVERY_GUARANTEE,
                    DedupeOptions.KEEP_POLICY,
                    DedupeOptions.BLOCK_SIZE,
                    DedupeOptions.ROUNDS,
                    DedupeOptions.CANDIDATES,
                    DedupeOptions.WINDOW,
                    DedupeOptions.PERMUTATIONS);

    @Override
    protected Object[][] getContents() {
        List<Object[]> entries = new ArrayList<>();
        for (ConfigOption<?> option : OPTIONS) {
            entries.add(new Object[] {bundleKey(option), display(option.defaultValue())});
        }
        return entries.toArray(new Object[0][]);
    }

    /**
     * The key of an option's default in this bundle: its configuration key, except for the keys
     * under {@code neardup.dedupe.}, which get the prefix {@code default.}. Picocli looks an
     * option's description up in the bundle under the qualified command name and the option's name
     * ({@code neardup.dedupe.keep-policy} for {@code neardup dedupe --keep-policy}); a default
     * under that key replaced the option's whole description in {@code dedupe --help}.
     */
    static String bundleKey(ConfigOption<?> option) {
        String key = option.key();
        return key.startsWith("neardup.dedupe.") ? "default." + key : key;
    }

    /** A default as the command line spells it: 0.8, 30d, 5m, oph. */
    static String display(Object value) {
        if (value instanceof Duration d) {
            return duration(d);
        }
        if (value instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
        if (value instanceof Double d) {
            return Format.plain(d);
        }
        return String.valueOf(value);
    }

    /** A duration in its largest whole unit, as the flags accept it: 30d, 12h, 5m, 10s, 500ms. */
    static String duration(Duration d) {
        long ms = d.toMillis();
        long[] units = {86_400_000L, 3_600_000L, 60_000L, 1000L};
        String[] names = {"d", "h", "m", "s"};
        for (int i = 0; i < units.length; i++) {
            if (ms != 0 && ms % units[i] == 0) {
                return ms / units[i] + names[i];
            }
        }
        return ms + "ms";
    }
}
