package dev.neardup.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;

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
}
