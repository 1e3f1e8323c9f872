package dev.neardup.runtime;

import dev.neardup.batch.DedupeJob;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Checks of the files a command is given, made before any work starts so that a wrong path is a
 * usage error (exit 2) with a message that says what is wrong, the same in every command.
 */
public final class CliFiles {

    private CliFiles() {}

    /**
     * An input file: it exists, is not a directory and can be read (a regular file's first byte is
     * read; a pipe or device is not: docs/design/local-runs.md). {@code what} names it in the
     * message ("input file", "file"), {@code argument} is how the user wrote it.
     */
    public static Path readableFile(String what, String argument, Path file) {
        if (!Files.exists(file)) {
            throw NeardupException.usage(what + " not found: " + argument);
        }
        if (Files.isDirectory(file)) {
            throw NeardupException.usage(argument + " is a directory, not a file");
        }
        if (!Files.isReadable(file)) {
            throw NeardupException.usage("cannot read " + argument + ": permission denied");
        }
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                in.read();
            } catch (AccessDeniedException e) {
                throw NeardupException.usage("cannot read " + argument + ": permission denied");
            } catch (IOException e) {
                throw NeardupException.usage(
                        "cannot read " + argument + ": " + NeardupException.reason(e));
            }
        }
        return file;
    }

    /**
     * An output file given to {@code option}: not a directory, and writable (it is replaced if it
     * exists; missing directories on its path are created, so the nearest existing one must be a
     * writable directory). {@code -} (standard output) and null pass.
     */
    public static void writableFile(String option, String argument) {
        if (argument == null || argument.equals("-")) {
            return;
        }
        Path file = Path.of(argument).toAbsolutePath();
        if (Files.isDirectory(file)) {
            throw NeardupException.usage(
                    option + " " + argument + " is a directory: give the path of a file in it");
        }
        if (Files.exists(file)) {
            if (!Files.isWritable(file)) {
                throw NeardupException.usage(
                        "cannot write " + option + " " + argument + ": permission denied");
            }
            return;
        }
        Path ancestor = file.getParent();
        while (ancestor != null && !Files.exists(ancestor)) {
            ancestor = ancestor.getParent();
        }
        if (ancestor != null && !Files.isDirectory(ancestor)) {
            throw NeardupException.usage(
                    option + " " + argument + ": " + ancestor + " is a file, not a directory");
        }
        if (ancestor != null && !Files.isWritable(ancestor)) {
            throw NeardupException.usage(
                    "cannot write "
                            + option
                            + " "
                            + argument
                            + ": permission denied in "
                            + ancestor);
        }
    }

    /**
     * The input files of the {@code --input} arguments {@code given}, in order: a file as it is; a
     * directory, the files in it and in its subdirectories whose names start with neither . nor _
     * (as Flink and Hadoop mark hidden and bookkeeping files), in the order of their paths; a glob
     * ({@code *}, {@code ?}, {@code [ab]}, {@code {a,b}}, {@code **} across directories) that names
     * no file, the files it matches, in the order of their paths. {@code -} (standard input), a
     * Flink filesystem URI and a path that does not exist pass as they are, to be checked where
     * they are read. A directory or glob without a file, and a file named twice, are usage errors.
     */
    public static List<String> inputs(List<String> given) {
        List<String> files = new ArrayList<>();
        for (String arg : given) {
            if (arg.equals("-") || DedupeJob.isFileSystemUri(arg)) {
                files.add(arg);
                continue;
            }
            Path path = Path.of(arg);
            if (Files.isDirectory(path)) {
                List<String> in = directoryFiles(arg, path);
                if (in.isEmpty()) {
                    throw NeardupException.usage(
                            "no input file in the directory "
                                    + arg
                                    + " (files whose names start with . or _ are left out)");
                }
                files.addAll(in);
            } else if (!Files.exists(path) && isGlob(arg)) {
                List<String> matched = globFiles(arg);
                if (matched.isEmpty()) {
                    throw NeardupException.usage("no file matches --input " + arg);
                }
                files.addAll(matched);
            } else {
                files.add(arg);
            }
        }
        Set<Path> seen = new HashSet<>();
        for (String f : files) {
            if (f.equals("-") || DedupeJob.isFileSystemUri(f)) {
                continue;
            }
            Path real = Path.of(f).toAbsolutePath().normalize();
            try {
                real = real.toRealPath();
            } catch (IOException e) {
                // not found: reported when it is read
            }
            if (!seen.add(real)) {
                throw NeardupException.usage(
                        "an input is given twice: "
                                + f
                                + (given.contains(f) ? "" : " (in a directory or glob)"));
            }
        }
        if (files.stream().filter("-"::equals).count() > 1) {
            throw NeardupException.usage("standard input (-) can be given once");
        }
        return files;
    }

    private static boolean isGlob(String arg) {
        return arg.chars().anyMatch(c -> c == '*' || c == '?' || c == '[' || c == '{');
    }

    private static boolean visible(Path file) {
        String name = String.valueOf(file.getFileName());
        return !name.startsWith(".") && !name.startsWith("_");
    }

    /** The visible files under {@code dir} (visible directories only), by path. */
    private static List<String> directoryFiles(String arg, Path dir) {
        try (Stream<Path> walk = Files.walk(dir, FileVisitOption.FOLLOW_LINKS)) {
            return walk.filter(Files::isRegularFile)
                    .filter(
                            f -> {
                                for (Path p = f; p != null && !p.equals(dir); p = p.getParent()) {
                                    if (!visible(p)) {
                                        return false;
                                    }
                                }
                                return true;
                            })
                    .map(Path::toString)
                    .sorted()
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            throw NeardupException.usage(
                    "cannot read the directory " + arg + ": " + NeardupException.reason(e));
        }
    }

    /** The regular files that match the glob {@code arg}, by path. */
    private static List<String> globFiles(String arg) {
        // The glob applies below its longest leading part without glob characters.
        String[] parts = arg.split("/", -1);
        int fixed = 0;
        while (fixed < parts.length - 1 && !isGlob(parts[fixed])) {
            fixed++;
        }
        String prefix = String.join("/", Arrays.asList(parts).subList(0, fixed));
        boolean relative = prefix.isEmpty() && !arg.startsWith("/");
        Path root = relative ? Path.of(".") : Path.of(prefix.isEmpty() ? "/" : prefix);
        String pattern = String.join("/", Arrays.asList(parts).subList(fixed, parts.length));
        PathMatcher matcher = root.getFileSystem().getPathMatcher("glob:" + pattern);
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        int depth = pattern.contains("**") ? Integer.MAX_VALUE : parts.length - fixed;
        try (Stream<Path> walk = Files.walk(root, depth, FileVisitOption.FOLLOW_LINKS)) {
            return walk.filter(Files::isRegularFile)
                    .filter(f -> matcher.matches(root.relativize(f)))
                    .map(f -> relative ? root.relativize(f) : f)
                    .map(Path::toString)
                    .sorted()
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            throw NeardupException.usage(
                    "cannot read the files of --input " + arg + ": " + NeardupException.reason(e));
        }
    }
}
