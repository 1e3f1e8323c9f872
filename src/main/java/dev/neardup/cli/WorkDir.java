package dev.neardup.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The directory of a local job run (checkpoints, RocksDB files, spooled input): the one the user
 * gave, kept afterwards, or a new temporary one under {@code java.io.tmpdir} (short, as RocksDB
 * wants), deleted on {@link #close()}.
 */
final class WorkDir implements AutoCloseable {

    private final Path path;
    private final boolean temporary;

    private WorkDir(Path path, boolean temporary) {
        this.path = path;
        this.temporary = temporary;
    }

    /** {@code given} (created if needed), or a new temporary directory when it is null. */
    static WorkDir of(Path given, String prefix) throws IOException {
        if (given != null) {
            return new WorkDir(Files.createDirectories(given), false);
        }
        return new WorkDir(
                Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), prefix),
                true);
    }

    Path path() {
        return path;
    }

    /** Deletes a temporary directory with everything in it (best effort). */
    @Override
    public void close() {
        if (!temporary) {
            return;
        }
        try (Stream<Path> paths = Files.walk(path)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
