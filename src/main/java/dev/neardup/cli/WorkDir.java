package dev.neardup.cli;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

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

    /**
     * Deletes a temporary directory with everything in it (best effort). Flink may still be
     * removing its own files under it when the job has just ended: entries that vanish during the
     * walk are skipped, never an error (a run that succeeded must not exit with one).
     */
    @Override
    public void close() {
        if (!temporary) {
            return;
        }
        try {
            Files.walkFileTree(
                    path,
                    new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                            file.toFile().delete();
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException e) {
                            return FileVisitResult.CONTINUE; // vanished meanwhile
                        }

                        @Override
                        public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                            dir.toFile().delete();
                            return FileVisitResult.CONTINUE;
                        }
                    });
        } catch (IOException | RuntimeException e) {
            // best effort: a temporary directory
        }
    }
}
