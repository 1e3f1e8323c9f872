package dev.neardup.cli;

import dev.neardup.config.ConfigException;
import dev.neardup.config.ConfigKeys;
import dev.neardup.config.Secrets;
import dev.neardup.runtime.NeardupException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code neardup} command line: a picocli command whose subcommands are the tools. Every
 * command inherits {@code -h/--help} and {@code -V/--version}, exits 0 on success, 2 on a usage
 * error (bad or missing argument, unreadable input file), 1 on a failure while running, 130 (129
 * after SIGHUP) when a signal stopped a local run, and prints an error as one line on stderr,
 * {@code "neardup <command>: <message>"} (a usage error adds a pointer to the help): no stack trace
 * unless {@code NEARDUP_DEBUG=1} (or {@code -Dneardup.debug=true}), and the value of a secret
 * ({@link Secrets}) given as {@code KEY=VALUE} shown as {@code ******}. A subcommand is a
 * {@code @Command} class listed in {@code subcommands} below.
 */
@Command(
        name = "neardup",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        scope = ScopeType.INHERIT,
        subcommands = {
            RunCommand.class,
            TuneCommand.class,
            CompareCommand.class,
            BenchCommand.class,
            EvaluateCommand.class,
            DedupeCommand.class,
            RulesCommand.class
        },
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Near-duplicate detection with shingling, MinHash and locality-sensitive hashing (LSH)"
                    + " banding.",
            ""
        },
        commandListHeading = "%nCommands:%n",
        footerHeading = "%nExamples:%n",
        footer = {
            "  neardup run --sample",
            "      find near-duplicates in the bundled sample crawl (embedded Flink)",
            "  neardup tune --threshold 0.8 --plot s-curve.png",
            "      choose LSH bands and rows for Jaccard similarity 0.8; draw the S-curve",
            "  neardup compare page.html copy.txt",
            "      exact and estimated similarity of two documents",
            "",
            "Run 'neardup COMMAND --help' for the options of a command.",
            "Exit codes: 0 success, 1 failure while running, 2 usage error,",
            "130 stopped by Ctrl-C (SIGINT) or SIGTERM."
        })
public final class Neardup implements Callable<Integer> {

    /** Environment variable that, set to 1, makes errors print their stack trace. */
    public static final String DEBUG_ENV = "NEARDUP_DEBUG";

    /** Exit code of a usage error (bad arguments, missing input file). */
    public static final int EXIT_USAGE = CommandLine.ExitCode.USAGE;

    /** Exit code of a failure while running. */
    public static final int EXIT_FAILURE = CommandLine.ExitCode.SOFTWARE;

    private final InputStream stdin;

    @Spec CommandSpec spec;

    /** The command reading standard input from {@link System#in}. */
    public Neardup() {
        this(System.in);
    }

    /** The command reading standard input ({@code -} as a file name) from {@code stdin}. */
    public Neardup(InputStream stdin) {
        this.stdin = stdin;
    }

    /** Standard input, for subcommands that accept {@code -} as a file. */
    InputStream stdin() {
        return stdin;
    }

    /** {@code neardup} without a command: print the usage on stderr, a usage error. */
    @Override
    public Integer call() {
        CommandLine cl = spec.commandLine();
        cl.getErr().println("neardup: missing command (see 'neardup --help')");
        cl.getErr().println();
        cl.usage(cl.getErr());
        return EXIT_USAGE;
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs with the process's standard streams; returns the exit code (no {@link System#exit}). */
    public static int execute(String... args) {
        Charset charset = consoleCharset();
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, charset), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, charset), true);
        return execute(System.in, out, err, args);
    }

    /** Runs the command line with the given streams and returns the exit code. */
    public static int execute(InputStream in, PrintWriter out, PrintWriter err, String... args) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        try {
            return commandLine(in, out, err).execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** The configured picocli command line (streams, error handlers), ready to execute. */
    public static CommandLine commandLine(InputStream in, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Neardup(in));
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        SettingFlags.install(cl);
        cl.setResourceBundle(ProgressOptions.HELP);
        HelpSections.install(cl);
        cl.setAbbreviatedOptionsAllowed(false);
        cl.setParameterExceptionHandler(Neardup::handleParameterException);
        cl.setExecutionExceptionHandler(Neardup::handleExecutionException);
        return cl;
    }

    private static int handleParameterException(ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        String message = sentenceCase(picocliMessage(NeardupException.oneLine(ex.getMessage())));
        if (ex instanceof UnmatchedArgumentException unmatched) {
            List<String> suggestions = unmatched.getSuggestions();
            if (suggestions.isEmpty()) {
                suggestions = closeOptionNames(unmatched);
            }
            if (!suggestions.isEmpty()) {
                message += "; did you mean " + String.join(" or ", suggestions) + "?";
            }
        }
        reportUsageError(cmd, Secrets.scrub(message, List.of(args)), ex);
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /**
     * Option names within two edits of the first unknown option ({@code --treshold}: {@code
     * --threshold}), for when picocli's own suggestions, which share the first two letters, find
     * none.
     */
    private static List<String> closeOptionNames(UnmatchedArgumentException ex) {
        List<String> unmatched = ex.getUnmatched();
        if (unmatched.isEmpty() || !unmatched.get(0).startsWith("-")) {
            return List.of();
        }
        String arg = unmatched.get(0);
        int eq = arg.indexOf('=');
        String name = eq < 0 ? arg : arg.substring(0, eq);
        return ex.getCommandLine().getCommandSpec().options().stream()
                .flatMap(option -> Arrays.stream(option.names()))
                .filter(c -> c.length() > 2 && ConfigKeys.editDistance(name, c) <= 2)
                .toList();
    }

    private static int handleExecutionException(
            Exception ex, CommandLine cmd, ParseResult parseResult) {
        List<String> args = parseResult.originalArgs();
        if (ex instanceof ConfigException || ex instanceof NeardupException n && n.isUsageError()) {
            reportUsageError(cmd, Secrets.scrub(ex.getMessage(), args), ex);
            return EXIT_USAGE;
        }
        String message = ex.getMessage();
        String type = ex.getClass().getSimpleName();
        if (ex instanceof java.io.IOException || ex instanceof java.io.UncheckedIOException) {
            message = "I/O error: " + (message != null ? message : type);
        } else if (!(ex instanceof NeardupException)) {
            message =
                    "internal error: "
                            + type
                            + (message != null ? ": " + message : "")
                            + (debug() ? "" : " (set " + DEBUG_ENV + "=1 to see the stack trace)");
        }
        report(
                cmd,
                commandName(cmd) + ": " + Secrets.scrub(NeardupException.oneLine(message), args),
                ex);
        return EXIT_FAILURE;
    }

    /** Prints a usage error; {@code message} is already scrubbed of secrets. */
    private static void reportUsageError(CommandLine cmd, String message, Exception ex) {
        String name = commandName(cmd);
        report(
                cmd,
                name + ": " + NeardupException.oneLine(message) + " (see '" + name + " --help')",
                ex);
    }

    /** Prints the error line, and the stack trace when {@link #debug()}. */
    private static void report(CommandLine cmd, String line, Exception ex) {
        PrintWriter err = cmd.getErr();
        err.println(line);
        if (debug()) {
            ex.printStackTrace(err);
        }
        err.flush();
    }

    private static String commandName(CommandLine cmd) {
        return cmd.getCommandSpec().qualifiedName();
    }

    /** True when errors should print their stack trace. */
    static boolean debug() {
        return "1".equals(System.getenv(DEBUG_ENV))
                || Boolean.parseBoolean(System.getProperty("neardup.debug"));
    }

    /**
     * A picocli message, with two of its wordings mended: "Value for option option '-D' (KEY=VALUE)
     * should be..." (picocli writes the word twice for a map option's value) and "Error: --a, --b
     * are mutually exclusive" (a prefix that says nothing after "neardup run: ").
     */
    static String picocliMessage(String message) {
        return message.replace("option option ", "option ").replaceFirst("^(?i)error: ", "");
    }

    /** "Unknown option: x" becomes "unknown option: x"; "K must...", "HTTP..." stay as they are. */
    private static String sentenceCase(String message) {
        if (message.length() > 1
                && Character.isUpperCase(message.charAt(0))
                && Character.isLowerCase(message.charAt(1))) {
            return message.substring(0, 1).toLowerCase(Locale.ROOT) + message.substring(1);
        }
        return message;
    }

    /** The charset of the terminal when there is one, else the platform's default. */
    private static Charset consoleCharset() {
        String name =
                System.getProperty("stdout.encoding", System.getProperty("sun.stdout.encoding"));
        if (name != null && Charset.isSupported(name)) {
            return Charset.forName(name);
        }
        return Charset.defaultCharset();
    }
}
