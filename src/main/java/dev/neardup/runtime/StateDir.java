package dev.neardup.runtime;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.runtime.checkpoint.Checkpoints;

/**
 * Where a Kafka-mode {@code neardup run} keeps its state between runs: one directory per input
 * topic and consumer group under a root ({@code --state-dir}, by default {@code
 * $XDG_DATA_HOME/neardup} or {@code ~/.local/share/neardup}), holding Flink's retained checkpoints
 * ({@code checkpoints/JOB_ID/chk-N}) and the savepoints taken when the run is stopped ({@code
 * savepoints/savepoint-...}).
 *
 * <p>All snapshots in one directory belong to one line of runs: each run resumes from the latest
 * one (Flink then continues the checkpoint numbering), and a run that starts over ({@code --fresh},
 * or a restore from elsewhere) first discards them. So the snapshot with the highest checkpoint id
 * is the latest; its id is read from its {@code _metadata} file, which Flink writes last, so a
 * checkpoint that was being written when the process died is skipped.
 *
 * <p>A lock file keeps two runs from using the same directory at once.
 */
public final class StateDir implements AutoCloseable {

    public static final String CHECKPOINTS = "checkpoints";
    public static final String SAVEPOINTS = "savepoints";
    private static final String METADATA = "_metadata";
    private static final Pattern CHECKPOINT_DIR = Pattern.compile("chk-\\d+");
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT)
                    .withZone(ZoneId.systemDefault());

    /** A retained checkpoint or a savepoint that a run can resume from. */
    public record Snapshot(Path dir, long checkpointId, boolean savepoint, Instant written) {

        /** "checkpoint 42 (2026-11-24 12:40:03)", "savepoint of checkpoint 43 (...)". */
        public String describe() {
            return (savepoint ? "savepoint of checkpoint " : "checkpoint ")
                    + checkpointId
                    + " ("
                    + TIME.format(written)
                    + ")";
        }
    }

    /** A snapshot directory whose metadata cannot be read (incomplete or damaged). */
    public record Unreadable(Path dir, String reason) {}

    private final Path path;

    /** Holds the lock file's lock, which closing it releases. */
    private final FileChannel lockChannel;

    private StateDir(Path path, FileChannel lockChannel) {
        this.path = path;
        this.lockChannel = lockChannel;
    }

    /**
     * The default root: {@code $XDG_DATA_HOME/neardup} when that variable holds an absolute path
     * (the XDG base directory specification ignores relative ones), else {@code
     * ~/.local/share/neardup}.
     */
    public static Path defaultRoot(Map<String, String> environment, String userHome) {
        String xdg = environment.get("XDG_DATA_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "neardup");
        }
        return Path.of(userHome, ".local", "share", "neardup");
    }

    /**
     * The name of a job's directory: {@code TOPIC+GROUP}, the group id percent-encoded where it has
     * characters other than letters, digits, '.', '_' and '-' (topic names have no others), so that
     * different jobs never share a name; long names are shortened with a hash.
     */
    public static String jobDirName(String inputTopic, String groupId) {
        StringBuilder name = new StringBuilder(inputTopic).append('+');
        for (byte b : groupId.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 128 && (Character.isLetterOrDigit(c) || "._-".indexOf(c) >= 0)) {
                name.append(c);
            } else {
                name.append('%').append(String.format(Locale.ROOT, "%02X", b & 0xff));
            }
        }
        if (name.length() > 200) {
            String full = name.toString();
            try {
                byte[] digest =
                        java.security.MessageDigest.getInstance("SHA-256")
                                .digest(full.getBytes(StandardCharsets.UTF_8));
                return full.substring(0, 160)
                        + "~"
                        + java.util.HexFormat.of().formatHex(digest, 0, 8);
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e); // every JVM has SHA-256
            }
        }
        return name.toString();
    }

    /**
     * Opens (creating it if needed) and locks the directory of one job under {@code root}.
     *
     * @throws NeardupException a usage error when it cannot be created or written, or another run
     *     holds it
     */
    public static StateDir open(Path root, String inputTopic, String groupId) {
        Path dir = root.toAbsolutePath().normalize().resolve(jobDirName(inputTopic, groupId));
        FileChannel channel;
        try {
            Files.createDirectories(dir.resolve(CHECKPOINTS));
            Files.createDirectories(dir.resolve(SAVEPOINTS));
            channel =
                    FileChannel.open(
                            dir.resolve("lock"),
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE);
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            throw NeardupException.usage(
                    "cannot use the state directory "
                            + dir
                            + ": "
                            + reason(e)
                            + "; give a writable --state-dir DIR");
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (IOException | OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            closeQuietly(channel);
            throw NeardupException.usage(
                    "the state directory "
                            + dir
                            + " is in use by another neardup run of input topic "
                            + inputTopic
                            + " and group "
                            + groupId
                            + ": stop that one first, or give another --group-id or"
                            + " --state-dir");
        }
        return new StateDir(dir, channel);
    }

    private static String reason(Exception e) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied (" + e.getMessage() + ")";
        }
        if (e instanceof java.nio.file.FileAlreadyExistsException) {
            return e.getMessage() + " exists and is not a directory";
        }
        if (e instanceof java.nio.file.FileSystemException f) {
            return f.getReason() != null ? f.getFile() + ": " + f.getReason() : e.getMessage();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    public Path path() {
        return path;
    }

    /** Where Flink writes the job's checkpoints. */
    public Path checkpoints() {
        return path.resolve(CHECKPOINTS);
    }

    /** Where the savepoint of a stop goes. */
    public Path savepoints() {
        return path.resolve(SAVEPOINTS);
    }

    /** The snapshot to resume from: the one with the highest checkpoint id, if any. */
    public Optional<Snapshot> latest() {
        return snapshots(new ArrayList<>()).stream().findFirst();
    }

    /** The readable snapshots, latest first; unreadable ones are added to {@code unreadable}. */
    public List<Snapshot> snapshots(List<Unreadable> unreadable) {
        List<Snapshot> out = new ArrayList<>();
        for (Path dir : candidateDirs()) {
            Path metadata = dir.resolve(METADATA);
            try {
                long id = checkpointId(metadata);
                out.add(
                        new Snapshot(
                                dir,
                                id,
                                dir.startsWith(savepoints()),
                                Files.getLastModifiedTime(metadata).toInstant()));
            } catch (IOException | RuntimeException e) {
                unreadable.add(new Unreadable(dir, reason(e)));
            }
        }
        out.sort(
                Comparator.comparingLong(Snapshot::checkpointId)
                        .thenComparing(Snapshot::written)
                        .reversed());
        return out;
    }

    /** Directories that hold a {@code _metadata} file: chk-N of any job, and savepoints. */
    private List<Path> candidateDirs() {
        Stream<Path> checkpoints =
                list(checkpoints()).stream()
                        .flatMap(job -> list(job).stream())
                        .filter(StateDir::isCheckpoint);
        return Stream.concat(checkpoints, list(savepoints()).stream())
                .filter(dir -> Files.isRegularFile(dir.resolve(METADATA)))
                .toList();
    }

    private static List<Path> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(Files::isDirectory).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /** The checkpoint id in a snapshot's metadata, reading all of it (so that it is complete). */
    public static long checkpointId(Path metadata) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(metadata))) {
            return Checkpoints.loadCheckpointMetadata(
                            new DataInputStream(in),
                            StateDir.class.getClassLoader(),
                            metadata.getParent().toString())
                    .getCheckpointId();
        }
    }

    /**
     * Deletes every snapshot but {@code keep} (and the other files of its job, which its
     * incremental state may refer to). Called before a run resumes from {@code keep}: the others
     * are older, and the run's own first checkpoint will not depend on them (Flink restores in
     * NO_CLAIM mode, whose first checkpoint is a full one).
     *
     * @return how many snapshot directories were deleted
     */
    public int deleteAllBut(Snapshot keep) {
        int deleted = 0;
        for (Path job : list(checkpoints())) {
            if (!keep.dir().startsWith(job)) {
                deleted += (int) list(job).stream().filter(StateDir::isCheckpoint).count();
                deleteTree(job);
            }
        }
        for (Path savepoint : list(savepoints())) {
            if (!keep.dir().equals(savepoint)) {
                deleted++;
                deleteTree(savepoint);
            }
        }
        return deleted;
    }

    /**
     * Deletes all checkpoints and savepoints ({@code --fresh}, or a restore from elsewhere).
     *
     * @return what was discarded, for the user: "checkpoint 42 (2026-11-24 12:40:03), 3.1 MB", or
     *     null when there was nothing
     */
    public String discardAll() {
        Optional<Snapshot> latest = latest();
        long bytes = size(checkpoints()) + size(savepoints());
        List<Path> all =
                Stream.concat(list(checkpoints()).stream(), list(savepoints()).stream()).toList();
        all.forEach(StateDir::deleteTree);
        if (all.isEmpty()) {
            return null;
        }
        return latest.map(Snapshot::describe).orElse("no complete snapshot") + ", " + bytes(bytes);
    }

    /** "512 bytes", "3.1 MB". */
    public static String bytes(long n) {
        if (n < 1024) {
            return n + " bytes";
        }
        int unit = Math.min(4, (63 - Long.numberOfLeadingZeros(n)) / 10); // 1 KB ... 4 TB
        return String.format(
                Locale.ROOT, "%.1f %cB", n / Math.pow(1024, unit), " KMGT".charAt(unit));
    }

    private static boolean isCheckpoint(Path dir) {
        return CHECKPOINT_DIR.matcher(dir.getFileName().toString()).matches();
    }

    private static long size(Path dir) {
        long[] total = {0};
        walk(
                dir,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        total[0] += attrs.size();
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE;
                    }
                });
        return total[0];
    }

    /** Deletes a directory tree; a file that cannot be deleted is an error. */
    public static void deleteTree(Path dir) {
        walk(
                dir,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                            throws IOException {
                        Files.deleteIfExists(file);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e)
                            throws IOException {
                        if (e instanceof NoSuchFileException) {
                            return FileVisitResult.CONTINUE;
                        }
                        throw e;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path d, IOException e)
                            throws IOException {
                        if (e != null && !(e instanceof NoSuchFileException)) {
                            throw e;
                        }
                        Files.deleteIfExists(d);
                        return FileVisitResult.CONTINUE;
                    }
                });
    }

    private static void walk(Path dir, SimpleFileVisitor<Path> visitor) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, visitor);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir + ": " + reason(e), e);
        }
    }

    @Override
    public void close() {
        closeQuietly(lockChannel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
