package dev.neardup.cli;

import dev.neardup.config.Secrets;
import java.util.Map;
import java.util.Stack;
import picocli.CommandLine.IParameterConsumer;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The parameter of a repeatable {@code KEY=VALUE} option ({@code -D}, {@code --kafka-property}),
 * put into its {@code Map<String, String>} as it is: the key up to the first {@code =}, the value
 * after it, quotes and all. Unlike picocli's own map handling, it never prints the argument (a
 * warning on a stray quote), and an error shows a secret's value as {@link Secrets#HIDDEN}.
 */
final class KeyValueOption implements IParameterConsumer {

    @Override
    public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec spec) {
        String option =
                argSpec.isOption()
                        ? ((picocli.CommandLine.Model.OptionSpec) argSpec).longestName()
                        : argSpec.paramLabel();
        if (args.isEmpty()) {
            throw new ParameterException(
                    spec.commandLine(), "option '" + option + "' needs a KEY=VALUE parameter");
        }
        String arg = args.pop();
        int eq = arg.indexOf('=');
        if (eq <= 0) {
            throw new ParameterException(
                    spec.commandLine(),
                    "option '"
                            + option
                            + "' takes KEY=VALUE, got "
                            + (Secrets.isSecret(arg)
                                    ? "an argument without '=' that names a secret (not shown)"
                                    : "'" + arg + "'"));
        }
        Map<String, String> map = argSpec.getValue();
        map.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
}
