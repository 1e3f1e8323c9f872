package dev.neardup.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The directory of a local job run (checkpoints, RocksDB files, spooled input): the one the user
 * gave, kept afterwards, or a new temporary one under {@code java.io.tmpdir} (short, as RocksDB
 * wants), deleted on {@link #close()}.
 */
public final class WorkDir implements AutoCloseable {

    /**
     * The sample crawl's file name here, as dead letters and record sources name it: the name it
     * has in the jar and in the source tree ({@code sample/crawl.jsonl}).
     */
    public static final String SAMPLE_NAME = "crawl.jsonl";

    private final Path path;
    private final boolean temporary;

    /** Streams copied here so far ({@link #spoolIfStream}). */
    private int spooled;

    private WorkDir(Path path, boolean temporary) {
        this.path = path;
        this.temporary = temporary;
    }

    /** {@code given} (created if needed), or a new temporary directory when it is null. */
    public static WorkDir of(Path given, String prefix) throws IOException {
        if (given != null) {
            return new WorkDir(Files.createDirectories(given), false);
        }
        return new WorkDir(
                Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), prefix),
                true);
    }

    public Path path() {
        return path;
    }

    /** The sample crawl ({@code sample}) or {@code stdin}, copied here for the run to read. */
    public Path spool(boolean sample, InputStream stdin) throws IOException {
        if (!sample) {
            Path spooled = path.resolve("stdin.jsonl");
            Files.copy(stdin, spooled, StandardCopyOption.REPLACE_EXISTING);
            return spooled;
        }
        Path copy = path.resolve(SAMPLE_NAME);
        try (InputStream in = WorkDir.class.getResourceAsStream("/sample/crawl.jsonl")) {
            if (in == null) {
                throw NeardupException.failure("the sample crawl is missing from the jar", null);
            }
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
        }
        return copy;
    }

    /**
     * {@code input} itself when it is a regular file or a directory (or does not exist: the job
     * names it); otherwise (a named pipe, a process substitution such as {@code <(zcat f.gz)}, a
     * device) its bytes copied here under the same file name, since the job reads a file twice (for
     * its order) and by splits at offsets, which a stream cannot do.
     */
    public Path spoolIfStream(Path input) throws IOException {
        if (!Files.exists(input) || Files.isRegularFile(input) || Files.isDirectory(input)) {
            return input;
        }
        Path dir =
                Files.createDirectories(
                        path.resolve("streams").resolve(Integer.toString(spooled++)));
        Path copy = dir.resolve(input.getFileName().toString());
        try (InputStream in = Files.newInputStream(input)) {
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
        }
        return copy;
    }

    /**
     * Deletes a temporary directory with everything in it, best effort: entries that vanish are
     * skipped, and the walk is repeated for up to 5 seconds while Flink's shut-down still writes
     * files (docs/design/local-runs.md).
     */
    @Override
    public void close() {
        if (!temporary) {
            return;
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (true) {
            deleteTree();
            if (!Files.exists(path) || System.nanoTime() > deadline) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void deleteTree() {
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
