package dev.neardup.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.description.Formatter;
import org.apache.flink.configuration.description.TextElement;

/**
 * What a setting needs beyond a Flink {@link ConfigOption}'s key, type, default and description:
 * the command-line flag that sets it and the values it accepts, declared with the option in one
 * statement ({@code Setting.of(key, default, description).flag(...).between(...).declare()}, as in
 * {@link NearDupOptions}). A flag takes its type, default and description from the option and
 * writes its value into the configuration as {@code -D} and {@code config.yaml} do; {@link #check}
 * is the one place that checks values against their ranges, whichever way they came.
 *
 * @param <T> the option's type
 */
public final class Setting<T> {

    /** Every declared setting, by key, in declaration order. */
    private static final Map<String, Setting<?>> DECLARED =
            Collections.synchronizedMap(new LinkedHashMap<>());

    private final ConfigOption<T> option;
    private List<String> flags = List.of();
    private String label;
    private Predicate<T> accepts = value -> true;
    private String range;
    private final Map<String, String> spellings = new LinkedHashMap<>();
    private String help;

    private Setting(ConfigOption<T> option) {
        this.option = option;
    }

    /** Starts the declaration of {@code option}'s flag and range. */
    public static <T> Setting<T> of(ConfigOption<T> option) {
        return new Setting<>(option);
    }

    /** Starts the declaration of an option whose type is that of its default. */
    @SuppressWarnings("unchecked")
    public static <T> Setting<T> of(String key, T defaultValue, String description) {
        Class<?> type =
                defaultValue instanceof Enum<?> e ? e.getDeclaringClass() : defaultValue.getClass();
        return of(
                typed(key, (Class<T>) type)
                        .defaultValue(defaultValue)
                        .withDescription(description));
    }

    /** Starts the declaration of an option without a default. */
    public static <T> Setting<T> withoutDefault(String key, Class<T> type, String description) {
        return of(typed(key, type).noDefaultValue().withDescription(description));
    }

    /** The option builders of the types an option may have; any enum is the other. */
    private static final Map<Class<?>, Function<ConfigOptions.OptionBuilder, ?>> TYPES =
            Map.of(
                    Integer.class, ConfigOptions.OptionBuilder::intType,
                    Long.class, ConfigOptions.OptionBuilder::longType,
                    Double.class, ConfigOptions.OptionBuilder::doubleType,
                    Boolean.class, ConfigOptions.OptionBuilder::booleanType,
                    String.class, ConfigOptions.OptionBuilder::stringType,
                    Duration.class, ConfigOptions.OptionBuilder::durationType,
                    MemorySize.class, ConfigOptions.OptionBuilder::memoryType);

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T> ConfigOptions.TypedConfigOptionBuilder<T> typed(String key, Class<T> type) {
        ConfigOptions.OptionBuilder builder = ConfigOptions.key(key);
        return (ConfigOptions.TypedConfigOptionBuilder<T>)
                (type.isEnum() ? builder.enumType((Class) type) : TYPES.get(type).apply(builder));
    }

    /**
     * The flag that sets the option, e.g. {@code flag("K", "--num-hashes")}.
     *
     * @param label the value's name in the help, e.g. {@code K}, {@code DURATION}
     * @param names the flag's names, the long one first
     */
    public Setting<T> flag(String label, String... names) {
        this.label = label;
        this.flags = List.of(names);
        return this;
    }

    /**
     * The flag's help, with its default, for an option declared elsewhere (one of Flink's) whose
     * description and default do not fit this program.
     */
    public Setting<T> help(String text) {
        this.help = text;
        return this;
    }

    /** A spelling of a value on the command line, e.g. {@code snowball} for SNOWBALL_ENGLISH. */
    public Setting<T> spelling(String flagValue, T value) {
        spellings.put(flagValue, String.valueOf(value));
        return this;
    }

    /** Accepts values from {@code lo} to {@code hi}, both included. */
    public <C extends Comparable<? super C>> Setting<T> between(C lo, C hi) {
        return accept(
                v -> compare(v, lo) >= 0 && compare(v, hi) <= 0,
                "must be between " + display(lo) + " and " + display(hi));
    }

    /** Accepts values strictly between {@code lo} and {@code hi}. */
    public <C extends Comparable<? super C>> Setting<T> strictlyBetween(C lo, C hi) {
        return accept(
                v -> compare(v, lo) > 0 && compare(v, hi) < 0,
                "must be strictly between " + display(lo) + " and " + display(hi));
    }

    /** Accepts {@code lo} and more. */
    public <C extends Comparable<? super C>> Setting<T> atLeast(C lo) {
        return accept(v -> compare(v, lo) >= 0, "must be at least " + display(lo));
    }

    /** Accepts values above {@code lo} up to {@code hi}, included. */
    public <C extends Comparable<? super C>> Setting<T> aboveUpTo(C lo, C hi) {
        return accept(
                v -> compare(v, lo) > 0 && compare(v, hi) <= 0,
                "must be in (" + display(lo) + ", " + display(hi) + "]");
    }

    /** Accepts durations above zero. */
    public Setting<T> positive() {
        return accept(
                v -> !((Duration) v).isNegative() && !((Duration) v).isZero(), "must be positive");
    }

    /** Accepts durations of zero and more. */
    public Setting<T> notNegative() {
        return accept(v -> !((Duration) v).isNegative(), "must not be negative");
    }

    /** Accepts the listed values only. */
    @SafeVarargs
    public final Setting<T> oneOf(T... values) {
        List<T> allowed = Arrays.asList(values);
        return accept(
                allowed::contains,
                "must be " + either(allowed.stream().map(Setting::display).toList()));
    }

    /** Accepts strings with a character other than white space. */
    public Setting<T> notBlank() {
        return accept(v -> !((String) v).isBlank(), "must not be blank");
    }

    /** Accepts strings that match {@code regex}, ignoring case and surrounding white space. */
    public Setting<T> matches(String regex, String describes) {
        Pattern pattern = Pattern.compile(regex, Pattern.CASE_INSENSITIVE);
        return accept(v -> pattern.matcher(((String) v).strip()).matches(), describes);
    }

    private Setting<T> accept(Predicate<T> test, String describes) {
        this.accepts = test;
        this.range = describes;
        return this;
    }

    /** Registers this setting and returns its option, for the declaring {@code static final}. */
    public ConfigOption<T> declare() {
        Setting<?> previous = DECLARED.putIfAbsent(option.key(), this);
        if (previous != null && previous != this) {
            throw new IllegalStateException("option " + option.key() + " declared twice");
        }
        return option;
    }

    public ConfigOption<T> option() {
        return option;
    }

    /** The flag's names, long one first; empty when the option has no flag. */
    public List<String> flags() {
        return flags;
    }

    /** The flag's value label in the help, or null. */
    public String label() {
        return label;
    }

    /** The option's value for a flag's value: its spelling resolved, e.g. snowball. */
    public String fromFlag(String flagValue) {
        return spellings.getOrDefault(flagValue.toLowerCase(Locale.ROOT), flagValue);
    }

    /** The flag spelling of {@code value} (the value itself when it has none), for help texts. */
    public String toFlag(Object value) {
        return spellings.entrySet().stream()
                .filter(e -> e.getValue().equals(String.valueOf(value)))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseGet(() -> display(value));
    }

    /** The range as a sentence, e.g. "must be between 1 and 4096", or null when any is valid. */
    public String range() {
        return range;
    }

    /** The setting of {@code option}, or null when it was declared without {@link Setting}. */
    public static Setting<?> forKey(String key) {
        return DECLARED.get(key);
    }

    /** The setting whose flag is {@code name} (any of its names), or null. */
    public static Setting<?> forFlag(String name) {
        return all().stream().filter(s -> s.flags.contains(name)).findFirst().orElse(null);
    }

    /**
     * The option's description as plain text, for help texts and the configuration reference: code
     * in backquotes, list entries after line breaks ({@code <br>}).
     */
    public String description() {
        return help != null ? help : plainText(option);
    }

    /** A Flink option's description as plain text: code in backquotes, {@code <br>} for breaks. */
    public static String plainText(ConfigOption<?> option) {
        return new PlainText().format(option.description());
    }

    /** True when {@link #help} replaced the description and default of the option. */
    public boolean ownHelp() {
        return help != null;
    }

    /** Every declared setting, in declaration order. */
    public static List<Setting<?>> all() {
        // Loads every option-holder class, so that all are declared.
        ConfigKeys.OPTIONS.size();
        RuntimeOptions.PARALLELISM.key();
        synchronized (DECLARED) {
            return new ArrayList<>(DECLARED.values());
        }
    }

    /**
     * Checks each option set in {@code config} against its range: the one place ranges are checked.
     *
     * @throws ConfigException naming the option, its flag, its range and the value
     */
    public static void check(ReadableConfig config) {
        for (Setting<?> setting : all()) {
            setting.checkIn(config);
        }
    }

    private void checkIn(ReadableConfig config) {
        Optional<T> value;
        try {
            value = config.getOptional(option);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(
                    "invalid option %s: expected %s, got '%s'"
                            .formatted(name(), type(), raw(config)));
        }
        value.ifPresent(v -> require(v));
    }

    /**
     * Reads one option from {@code config} and checks it against its range.
     *
     * @throws ConfigException when it is out of range
     */
    @SuppressWarnings("unchecked")
    public static <T> T checked(ReadableConfig config, ConfigOption<T> option) {
        T value = config.get(option);
        Setting<T> setting = (Setting<T>) forKey(option.key());
        return setting == null ? value : setting.require(value);
    }

    /** Fails unless {@code value} is in the range. */
    public T require(T value) {
        if (!accepts.test(value)) {
            String shown = value instanceof String ? "'" + value + "'" : display(value);
            ConfigException.require(false, name(), range + ", got " + shown);
        }
        return value;
    }

    /** The key, with the flag when there is one: "neardup.num-hashes (--num-hashes)". */
    public String name() {
        return option.key() + (flags.isEmpty() ? "" : " (" + flags.get(0) + ")");
    }

    private String raw(ReadableConfig config) {
        return config.toMap().getOrDefault(option.key(), "?");
    }

    /** What the option's values look like: "jaccard, cosine or containment", "an integer". */
    private String type() {
        Object example = option.hasDefaultValue() ? option.defaultValue() : null;
        List<String> choices =
                example instanceof Enum<?> e
                        ? Arrays.stream(e.getDeclaringClass().getEnumConstants())
                                .map(this::toFlag)
                                .toList()
                        : label != null && label.contains("|")
                                ? List.of(label.split("\\|"))
                                : List.of();
        if (!choices.isEmpty()) {
            return either(choices);
        }
        return example instanceof Integer || example instanceof Long
                ? "an integer"
                : example instanceof Double ? "a number" : "a value of its type";
    }

    /** "a, b or c"; "a" alone. */
    public static String either(List<String> names) {
        int last = names.size() - 1;
        return last == 0
                ? names.get(0)
                : String.join(", ", names.subList(0, last)) + " or " + names.get(last);
    }

    @SuppressWarnings("unchecked")
    private static <C extends Comparable<? super C>> int compare(Object value, C bound) {
        return ((C) value).compareTo(bound);
    }

    /** A value as the command line spells it: 0.8, 30d, 5m, oph. */
    public static String display(Object value) {
        if (value instanceof Duration d) {
            return OptionValues.format(d);
        }
        if (value instanceof MemorySize m) {
            return OptionValues.format(m);
        }
        if (value instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
        if (value instanceof Double d) {
            return OptionValues.format(d);
        }
        return String.valueOf(value);
    }

    static final class PlainText extends Formatter {
        @Override
        protected void formatLink(StringBuilder state, String link, String description) {
            state.append('[').append(description).append("](").append(link).append(')');
        }

        @Override
        protected void formatLineBreak(StringBuilder state) {
            state.append("<br>");
        }

        @Override
        protected void formatText(
                StringBuilder state,
                String format,
                String[] elements,
                EnumSet<TextElement.TextStyle> styles) {
            String text = String.format(format, (Object[]) elements);
            state.append(styles.contains(TextElement.TextStyle.CODE) ? "`" + text + "`" : text);
        }

        @Override
        protected void formatList(StringBuilder state, String[] entries) {
            for (String entry : entries) {
                state.append("<br>- ").append(entry);
            }
        }

        @Override
        protected Formatter newInstance() {
            return new PlainText();
        }
    }
}
