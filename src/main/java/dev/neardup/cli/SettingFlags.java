package dev.neardup.cli;

import dev.neardup.config.ConfigKeys;
import dev.neardup.config.Setting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The flags of settings ({@link Setting}): a command names the options it takes, and each becomes a
 * picocli option with the flag, value label, description and default of its declaration. A flag has
 * no default of its own: when it is given, its value goes into the configuration as the option's
 * string value, the path {@code -D} and {@code config.yaml} take, and is checked with them.
 */
final class SettingFlags {

    /** A command (or mixin) whose flags are settings. */
    interface Bound {
        /** The options whose flags the command takes, in the order of its help. */
        List<ConfigOption<?>> settings();
    }

    private SettingFlags() {}

    /** Adds the flags of every {@link Bound} command under {@code top} (itself included). */
    static void install(CommandLine top) {
        if (top.getCommand() instanceof Bound bound) {
            add(top.getCommandSpec(), bound.settings());
        }
        top.getSubcommands().values().forEach(SettingFlags::install);
    }

    static void add(CommandSpec command, List<ConfigOption<?>> options) {
        for (ConfigOption<?> option : options) {
            Setting<?> setting = Setting.forKey(option.key());
            if (setting == null || setting.flags().isEmpty()) {
                throw new IllegalStateException(option.key() + " has no flag");
            }
            boolean bool = option.defaultValue() instanceof Boolean;
            command.addOption(
                    OptionSpec.builder(setting.flags().toArray(String[]::new))
                            .type(bool ? Boolean.class : String.class)
                            .arity(bool ? "0" : "1")
                            // A flag that is on by default is turned off as --no-FLAG.
                            .negatable(Boolean.TRUE.equals(option.defaultValue()))
                            .paramLabel(bool ? "" : setting.label())
                            .description(help(setting))
                            .build());
        }
    }

    /** The option's description, then its default as the flag spells it. */
    static String help(Setting<?> setting) {
        ConfigOption<?> option = setting.option();
        String text = setting.description();
        if (setting.ownHelp()
                || !option.hasDefaultValue()
                || option.defaultValue() instanceof Boolean
                || text.contains("Default")) {
            return text;
        }
        return text
                + (text.endsWith(".") ? "" : ".")
                + " Default: "
                + setting.toFlag(option.defaultValue())
                + ".";
    }

    /** The settings given as flags on {@code command}'s line: key to configuration string. */
    static Map<String, String> given(CommandSpec command) {
        Map<String, String> values = new LinkedHashMap<>();
        CommandLine.ParseResult parsed = command.commandLine().getParseResult();
        for (OptionSpec spec : command.options()) {
            Setting<?> setting = Setting.forFlag(spec.longestName());
            if (setting == null || parsed == null || !parsed.hasMatchedOption(spec)) {
                continue;
            }
            String key = setting.option().key();
            String value = setting.fromFlag(String.valueOf((Object) spec.getValue()));
            ConfigKeys.checkUnit(key, spec.longestName(), value);
            values.put(key, value);
        }
        return values;
    }
}
