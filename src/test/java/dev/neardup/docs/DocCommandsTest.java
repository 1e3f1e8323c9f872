package dev.neardup.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.cli.Neardup;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Every neardup command line shown in README.md, CHANGELOG.md and docs/**.md (a line of a code
 * block that runs {@code neardup.jar}, with its continuation lines) parses with the tool's own
 * picocli model: its command, options and their values exist as written. An optional group {@code
 * [A | B]} stands for each of its variants (none, A, B); an upper-case placeholder value ({@code
 * N}, {@code FILE}) takes a sample value of its option's type. What follows a pipe or a redirection
 * is not neardup's.
 */
class DocCommandsTest {

    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Pattern PLACEHOLDER = Pattern.compile("[A-Z][A-Z_0-9]*");
    private static final String JAR = "neardup.jar";

    /** The neardup command lines of a Markdown text: the words after the jar, as written. */
    static List<String> commandLines(String text) {
        List<String> out = new ArrayList<>();
        boolean inFence = false;
        StringBuilder pending = null;
        for (String line : text.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                continue;
            }
            if (!inFence) {
                continue;
            }
            if (pending == null) {
                int at = line.indexOf(JAR + " ");
                if (!line.contains("java ") || at < 0) {
                    continue;
                }
                pending = new StringBuilder();
                line = line.substring(at + JAR.length());
            }
            String trimmed = line.stripTrailing();
            if (trimmed.endsWith("\\")) {
                pending.append(trimmed, 0, trimmed.length() - 1).append(' ');
            } else {
                out.add(pending.append(trimmed).toString().trim().replaceAll("\\s+", " "));
                pending = null;
            }
        }
        return out;
    }

    /** The words of a command line up to a pipe, redirection or command separator. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
                continue;
            }
            if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
                continue;
            }
            word = word == null ? new StringBuilder() : word;
            word.append(c);
        }
        if (word != null) {
            words.add(word.toString());
        }
        List<String> command = new ArrayList<>();
        int depth = 0;
        for (String w : words) {
            depth += count(w, '[') - count(w, ']');
            boolean shell =
                    w.equals("|")
                            || w.matches("[0-9]*[<>].*")
                            || w.equals("&&")
                            || w.equals("&")
                            || w.equals(";")
                            || w.startsWith("#");
            if (depth == 0 && shell) {
                break; // a pipe, redirection, separator, background or comment: not neardup's
            }
            command.add(w);
        }
        return command;
    }

    private static int count(String s, char c) {
        return (int) s.chars().filter(x -> x == c).count();
    }

    /**
     * The variants of a command written with optional groups: {@code [A | B]} is left out, or is A,
     * or B (groups nest).
     */
    static List<List<String>> variants(List<String> words) {
        int open = -1;
        for (int i = 0; i < words.size(); i++) {
            if (words.get(i).startsWith("[")) {
                open = i;
                break;
            }
        }
        if (open < 0) {
            return List.of(words);
        }
        int depth = 0;
        int close = -1;
        List<List<String>> alternatives = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (int i = open; i < words.size() && close < 0; i++) {
            String w = words.get(i);
            int before = depth;
            depth += count(w, '[') - count(w, ']');
            String inner = w;
            if (before == 0) {
                inner = inner.substring(1); // the group's own bracket
            }
            if (depth == 0) {
                inner = inner.substring(0, inner.length() - 1);
                close = i;
            }
            if (before == 1 && w.equals("|")) {
                alternatives.add(current);
                current = new ArrayList<>();
            } else if (!inner.isEmpty()) {
                current.add(inner);
            }
        }
        if (close < 0) {
            throw new IllegalArgumentException("unclosed [ in " + words);
        }
        alternatives.add(current);
        List<List<String>> out = new ArrayList<>();
        List<String> head = words.subList(0, open);
        List<String> tail = words.subList(close + 1, words.size());
        List<List<String>> choices = new ArrayList<>();
        choices.add(List.of());
        for (List<String> a : alternatives) {
            choices.addAll(variants(a));
        }
        for (List<String> choice : choices) {
            List<String> v = new ArrayList<>(head);
            v.addAll(choice);
            v.addAll(tail);
            out.addAll(variants(v));
        }
        return out;
    }

    /** Parses {@code args} as neardup would; null when they parse, else picocli's message. */
    static String parseError(List<String> args) {
        CommandLine cl =
                Neardup.commandLine(
                        new ByteArrayInputStream(new byte[0]),
                        new PrintWriter(new StringWriter()),
                        new PrintWriter(new StringWriter()));
        try {
            cl.parseArgs(withSampleValues(cl, args).toArray(String[]::new));
            return null;
        } catch (ParameterException e) {
            return e.getMessage();
        }
    }

    /** {@code args} with each placeholder value replaced by a value of its option's type. */
    private static List<String> withSampleValues(CommandLine root, List<String> args) {
        List<String> out = new ArrayList<>(args);
        CommandSpec spec = root.getCommandSpec();
        for (int i = 0; i < out.size(); i++) {
            String w = out.get(i);
            CommandLine sub = spec.subcommands().get(w);
            if (sub != null && i == 0) {
                spec = sub.getCommandSpec();
                continue;
            }
            OptionSpec option = spec.findOption(w);
            if (option == null
                    || option.arity().max() == 0
                    || i + 1 >= out.size()
                    || !PLACEHOLDER.matcher(out.get(i + 1)).matches()) {
                continue;
            }
            Class<?> type = option.type();
            if (type.isArray()) {
                type = type.getComponentType();
            } else if (!option.auxiliaryTypes()[0].equals(type)) {
                type = option.auxiliaryTypes()[0]; // the element type of a list
            }
            String sample = sample(type);
            if (sample != null) {
                out.set(i + 1, sample);
            }
        }
        return out;
    }

    private static String sample(Class<?> type) {
        if (type == int.class
                || type == Integer.class
                || type == long.class
                || type == Long.class) {
            return "2";
        }
        if (type == double.class || type == Double.class) {
            return "0.5";
        }
        return null; // a path, a name or a string: the placeholder itself is a value
    }

    @Test
    void everyCommandLineInTheDocsParses() throws IOException {
        List<String> failures = new ArrayList<>();
        int parsed = 0;
        for (Path doc : DocLinksTest.documents()) {
            for (String line : commandLines(Files.readString(doc, StandardCharsets.UTF_8))) {
                for (List<String> args : variants(words(line))) {
                    String error = parseError(args);
                    parsed++;
                    if (error != null) {
                        failures.add(
                                doc + ": neardup.jar " + String.join(" ", args) + "\n  " + error);
                    }
                }
            }
        }
        assertThat(parsed).as("command lines found").isGreaterThan(50);
        assertThat(failures).as(String.join("\n", failures)).isEmpty();
    }

    @Test
    void aDriftedCommandLineFails() {
        String doc =
                """
                ```bash
                java -jar target/neardup.jar run --input crawl.jsonl \\
                    --alerts a.jsonl --no-such-option 3 | head # a comment
                java -jar target/neardup.jar tune --threshold 0.8 --bands B [--rows R | --json]
                ```
                """;
        List<String> lines = commandLines(doc);
        assertThat(lines)
                .containsExactly(
                        "run --input crawl.jsonl --alerts a.jsonl --no-such-option 3 | head # a"
                                + " comment",
                        "tune --threshold 0.8 --bands B [--rows R | --json]");
        assertThat(words(lines.get(0)))
                .containsExactly(
                        "run",
                        "--input",
                        "crawl.jsonl",
                        "--alerts",
                        "a.jsonl",
                        "--no-such-option",
                        "3");
        assertThat(parseError(words(lines.get(0)))).contains("--no-such-option");
        List<List<String>> variants = variants(words(lines.get(1)));
        assertThat(variants)
                .containsExactly(
                        List.of("tune", "--threshold", "0.8", "--bands", "B"),
                        List.of("tune", "--threshold", "0.8", "--bands", "B", "--rows", "R"),
                        List.of("tune", "--threshold", "0.8", "--bands", "B", "--json"));
        for (List<String> v : variants) {
            assertThat(parseError(v)).as("%s", v).isNull();
        }
        assertThat(parseError(List.of("bench", "--documents", "many"))).contains("--documents");
        assertThat(parseError(List.of("bench", "--documents", "N"))).isNull(); // a placeholder
        assertThatThrownBy(() -> variants(List.of("run", "[--json")))
                .hasMessageContaining("unclosed");
    }
}
