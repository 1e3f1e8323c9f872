package dev.neardup.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;

/**
 * The {@code neardup.*} configuration keys there are: every {@link ConfigOption} declared in {@link
 * NearDupOptions}, {@link DedupeOptions} and {@link RulesOptions} (with their deprecated keys), and
 * the Kafka client properties under {@link NearDupOptions#KAFKA_PROPERTIES_PREFIX}. {@link #check}
 * rejects a {@code neardup.*} key that is none of them, naming the closest known one, and a
 * duration or memory size without its unit ({@link OptionValues}). Keys of other prefixes are
 * Flink's and pass through.
 */
public final class ConfigKeys {

    private static final String PREFIX = "neardup.";

    /** Every known key (deprecated ones too) and the type of its values. */
    private static final Map<String, Type> KEYS =
            keys(
                    NearDupOptions.class,
                    DedupeOptions.class,
                    RulesOptions.class,
                    RuntimeOptions.class);

    /** Every option declared in the options classes, in declaration order. */
    public static final List<ConfigOption<?>> OPTIONS =
            options(NearDupOptions.class, DedupeOptions.class, RulesOptions.class);

    private ConfigKeys() {}

    /**
     * Checks the {@code neardup.*} entries of raw (string) configuration values.
     *
     * @param source where the values come from, for the message (e.g. "-D"), or null
     * @throws ConfigException for an unknown key or a duration or size without its unit
     */
    public static void check(Map<String, String> raw, String source) {
        String from = source == null ? "" : " (" + source + ")";
        for (Map.Entry<String, String> entry : raw.entrySet()) {
            String key = entry.getKey();
            if (!key.startsWith(PREFIX) || key.startsWith(NearDupOptions.KAFKA_PROPERTIES_PREFIX)) {
                continue;
            }
            Type type = KEYS.get(key);
            if (type == null) {
                String closest = closest(key);
                throw new ConfigException(
                        "unknown option "
                                + key
                                + from
                                + (closest == null
                                        ? "; see docs/reference/configuration.md for the neardup.*"
                                                + " options"
                                        : "; did you mean " + closest + "?"));
            }
            checkUnit(type, key + from, entry.getValue());
        }
    }

    /**
     * Checks that a duration or memory size names its unit.
     *
     * @param name the option as the message names it
     */
    public static void checkUnit(String key, String name, String value) {
        checkUnit(KEYS.get(key), name, value);
    }

    private static void checkUnit(Type type, String name, String value) {
        try {
            if (type == Duration.class) {
                OptionValues.duration(name, value);
            } else if (type == MemorySize.class) {
                OptionValues.memorySize(name, value);
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** {@link #check} of a configuration's values, as strings. */
    public static void check(Configuration conf, String source) {
        check(conf.toMap(), source);
    }

    /** The known key closest to {@code key} (edit distance), or null when none is close. */
    static String closest(String key) {
        // Within a third of the name after "neardup.", at least 2: a typo, not another option.
        int most = Math.max(2, (key.length() - PREFIX.length()) / 3);
        return KEYS.keySet().stream()
                .filter(known -> known.startsWith(PREFIX))
                .min(Comparator.comparingInt(known -> editDistance(key, known)))
                .filter(best -> editDistance(key, best) <= most)
                .orElse(null);
    }

    private static List<ConfigOption<?>> options(Class<?>... declaring) {
        return fields(declaring).map(ConfigKeys::option).toList();
    }

    private static Map<String, Type> keys(Class<?>... declaring) {
        Map<String, Type> out = new LinkedHashMap<>();
        for (Field f : fields(declaring).toList()) {
            Type type = ((ParameterizedType) f.getGenericType()).getActualTypeArguments()[0];
            ConfigOption<?> option = option(f);
            out.put(option.key(), type);
            option.fallbackKeys().forEach(k -> out.put(k.getKey(), type));
        }
        return out;
    }

    private static Stream<Field> fields(Class<?>... declaring) {
        return Arrays.stream(declaring)
                .flatMap(c -> Arrays.stream(c.getFields()))
                .filter(f -> Modifier.isStatic(f.getModifiers()))
                .filter(f -> f.getType() == ConfigOption.class);
    }

    private static ConfigOption<?> option(Field f) {
        try {
            return (ConfigOption<?>) f.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Levenshtein distance. */
    public static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
    }
}
