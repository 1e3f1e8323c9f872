package dev.neardup.testing;

import dev.neardup.runtime.StateDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Work directories under {@code /tmp} for tests that run RocksDB or a Flink cluster: RocksDB
 * refuses instance paths longer than its limit, which JUnit's temporary directories under {@code
 * target/} can exceed. Each directory is removed, with everything in it, when the test JVM exits,
 * so a verify leaves nothing in {@code /tmp} (a test that fails keeps nothing for inspection
 * either: rerun it with its work directory of choice to look).
 */
public final class ShortTempDirs {

    private static final Set<Path> CREATED = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> CREATED.forEach(StateDir::deleteTree),
                                "remove-short-temp-dirs"));
    }

    private ShortTempDirs() {}

    /** A new directory {@code /tmp/PREFIX...}, removed when this JVM exits. */
    public static Path create(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(Path.of("/tmp"), prefix);
        CREATED.add(dir);
        return dir;
    }
}
