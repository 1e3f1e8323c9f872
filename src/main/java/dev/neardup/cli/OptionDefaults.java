package dev.neardup.cli;

import dev.neardup.config.ConfigKeys;
import dev.neardup.config.Format;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.OptionValues;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.ListResourceBundle;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import picocli.CommandLine.Command;

/**
 * The defaults that {@code --help} shows for the flags that map onto {@link NearDupOptions}, taken
 * from each {@link ConfigOption#defaultValue()}, so that the options class stays the one source of
 * defaults. The flags themselves have no default (null when not given: see {@link JobOptions}); a
 * description shows one with {@code ${bundle:neardup.threshold}} (for dedupe's options {@code
 * ${bundle:default.neardup.dedupe.block-size}}, {@link #bundleKey}), which picocli resolves against
 * this bundle ({@link Neardup#commandLine} installs it).
 */
public final class OptionDefaults extends ListResourceBundle {

    /** The options whose defaults help texts show: all that have one. */
    static final List<ConfigOption<?>> OPTIONS =
            ConfigKeys.OPTIONS.stream().filter(ConfigOption::hasDefaultValue).toList();

    /** The names of the subcommands ({@code run}, {@code tune}, ...). */
    private static final Set<String> COMMANDS =
            Arrays.stream(Neardup.class.getAnnotation(Command.class).subcommands())
                    .map(c -> c.getAnnotation(Command.class).name())
                    .collect(Collectors.toSet());

    @Override
    protected Object[][] getContents() {
        List<Object[]> entries = new ArrayList<>();
        for (ConfigOption<?> option : OPTIONS) {
            entries.add(new Object[] {bundleKey(option), display(option.defaultValue())});
        }
        return entries.toArray(new Object[0][]);
    }

    /**
     * The key of an option's default in this bundle: its configuration key, except for keys whose
     * second part is a command's name ({@code neardup.dedupe.}, {@code neardup.tune.}), which get
     * the prefix {@code default.}. Picocli looks an option's description up in the bundle under the
     * qualified command name and the option's name ({@code neardup.tune.fp-weight} for {@code
     * neardup tune --fp-weight}); a default under that key replaced the option's whole description.
     */
    static String bundleKey(ConfigOption<?> option) {
        String key = option.key();
        String[] parts = key.split("\\.");
        return parts.length > 2 && COMMANDS.contains(parts[1]) ? "default." + key : key;
    }

    /** A default as the command line spells it: 0.8, 30d, 5m, oph. */
    static String display(Object value) {
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
            return Format.plain(d);
        }
        return String.valueOf(value);
    }
}
