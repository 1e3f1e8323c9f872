package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where Kafka-mode state lives, and how the snapshot to resume from is found. */
class StateDirTest {

    @TempDir Path tmp;

    @Test
    void theDefaultRootFollowsTheXdgBaseDirectorySpecification() {
        assertThat(StateDir.defaultRoot(Map.of("XDG_DATA_HOME", "/data/me"), "/home/me"))
                .isEqualTo(Path.of("/data/me/neardup"));
        assertThat(StateDir.defaultRoot(Map.of(), "/home/me"))
                .isEqualTo(Path.of("/home/me/.local/share/neardup"));
        // relative and empty values are ignored, as the specification says
        assertThat(StateDir.defaultRoot(Map.of("XDG_DATA_HOME", "data"), "/home/me"))
                .isEqualTo(Path.of("/home/me/.local/share/neardup"));
        assertThat(StateDir.defaultRoot(Map.of("XDG_DATA_HOME", ""), "/home/me"))
                .isEqualTo(Path.of("/home/me/.local/share/neardup"));
    }

    @Test
    void eachTopicAndGroupHasItsOwnDirectory() {
        assertThat(StateDir.jobDirName("documents", "neardup")).isEqualTo("documents+neardup");
        assertThat(StateDir.jobDirName("documents", "crawl team/eu"))
                .isEqualTo("documents+crawl%20team%2Feu");
        // '+' in a group id is encoded, so "a" + "b+c" and "a+b" + "c" differ
        assertThat(StateDir.jobDirName("a", "b+c")).isNotEqualTo(StateDir.jobDirName("a+b", "c"));
        assertThat(StateDir.jobDirName("documents", "caf\u00e9")).isEqualTo("documents+caf%C3%A9");
        String longGroup = "g".repeat(300);
        String name = StateDir.jobDirName("documents", longGroup);
        assertThat(name.length()).isLessThanOrEqualTo(200);
        assertThat(name).isNotEqualTo(StateDir.jobDirName("documents", longGroup + "h"));
    }

    @Test
    void opensCreatesAndLocksTheJobDirectory() {
        try (StateDir state = StateDir.open(tmp.resolve("root"), "documents", "neardup")) {
            assertThat(state.path()).isEqualTo(tmp.resolve("root/documents+neardup"));
            assertThat(state.checkpoints()).isDirectory();
            assertThat(state.savepoints()).isDirectory();
            assertThat(state.latest()).isEmpty();
            assertThatThrownBy(() -> StateDir.open(tmp.resolve("root"), "documents", "neardup"))
                    .isInstanceOf(NeardupException.class)
                    .hasMessageContaining("is in use by another neardup run")
                    .hasMessageContaining("--group-id");
            // another group is another directory
            StateDir.open(tmp.resolve("root"), "documents", "other").close();
        }
        StateDir.open(tmp.resolve("root"), "documents", "neardup").close(); // lock released
    }

    @Test
    void anUnusableStateDirectoryIsAUsageError() throws IOException {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        assertThatThrownBy(() -> StateDir.open(file.resolve("state"), "documents", "neardup"))
                .isInstanceOf(NeardupException.class)
                .satisfies(e -> assertThat(((NeardupException) e).isUsageError()).isTrue())
                .hasMessageContaining("cannot use the state directory " + file.resolve("state"))
                .hasMessageContaining("give a writable --state-dir DIR");
    }

    @Test
    void resumesFromTheReadableSnapshotWithTheHighestCheckpointId() throws IOException {
        try (StateDir state = StateDir.open(tmp, "documents", "neardup")) {
            Path jobA = state.checkpoints().resolve("aaaa");
            Path jobB = state.checkpoints().resolve("bbbb");
            metadata(jobA.resolve("chk-3"), 3);
            Files.createDirectories(jobA.resolve("chk-4")); // being written: no _metadata yet
            Files.createDirectories(jobA.resolve("shared"));
            metadata(jobB.resolve("chk-6"), 6);
            metadata(jobB.resolve("chk-7"), 7);
            truncate(jobB.resolve("chk-7/_metadata")); // died while writing it
            assertThat(state.latest())
                    .get()
                    .extracting(StateDir.Snapshot::checkpointId)
                    .isEqualTo(6L);

            Path savepoint = state.savepoints().resolve("savepoint-123abc-0123456789ab");
            metadata(savepoint, 8);
            List<StateDir.Unreadable> unreadable = new ArrayList<>();
            List<StateDir.Snapshot> snapshots = state.snapshots(unreadable);
            assertThat(snapshots)
                    .extracting(StateDir.Snapshot::checkpointId)
                    .containsExactly(8L, 6L, 3L);
            assertThat(snapshots.get(0).savepoint()).isTrue();
            assertThat(snapshots.get(0).dir()).isEqualTo(savepoint);
            assertThat(snapshots.get(0).describe()).startsWith("savepoint of checkpoint 8 (");
            assertThat(snapshots.get(1).describe()).startsWith("checkpoint 6 (");
            assertThat(unreadable)
                    .singleElement()
                    .satisfies(u -> assertThat(u.dir()).isEqualTo(jobB.resolve("chk-7")));

            // Resuming from the savepoint: every other snapshot goes, the savepoint stays.
            assertThat(state.deleteAllBut(snapshots.get(0))).isEqualTo(4);
            assertThat(jobA).doesNotExist();
            assertThat(jobB).doesNotExist();
            assertThat(savepoint.resolve("_metadata")).exists();

            // Resuming from a checkpoint keeps its job's directory (its shared files) whole.
            Path jobC = state.checkpoints().resolve("cccc");
            metadata(jobC.resolve("chk-9"), 9);
            Files.createDirectories(jobC.resolve("shared"));
            StateDir.Snapshot latest = state.latest().orElseThrow();
            assertThat(latest.checkpointId()).isEqualTo(9);
            assertThat(state.deleteAllBut(latest)).isEqualTo(1);
            assertThat(jobC.resolve("shared")).isDirectory();
            assertThat(savepoint).doesNotExist();
        }
    }

    @Test
    void freshDiscardsEverythingAndSaysWhat() throws IOException {
        try (StateDir state = StateDir.open(tmp, "documents", "neardup")) {
            assertThat(state.discardAll()).isNull();
            metadata(state.checkpoints().resolve("aaaa/chk-12"), 12);
            Files.write(state.checkpoints().resolve("aaaa/shared-file"), new byte[3000]);
            String discarded = state.discardAll();
            assertThat(discarded).startsWith("checkpoint 12 (").contains(" KB");
            assertThat(state.checkpoints()).isEmptyDirectory();
            assertThat(state.latest()).isEmpty();
        }
        assertThat(StateDir.bytes(512)).isEqualTo("512 bytes");
        assertThat(StateDir.bytes(3 * 1024 * 1024 + 100_000)).isEqualTo("3.1 MB");
    }

    private static void metadata(Path dir, long checkpointId) throws IOException {
        Files.createDirectories(dir);
        try (OutputStream out = Files.newOutputStream(dir.resolve("_metadata"))) {
            Checkpoints.storeCheckpointMetadata(
                    new CheckpointMetadata(checkpointId, List.of(), List.of()),
                    new DataOutputStream(out));
        }
    }

    private static void truncate(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(all, all.length / 2));
    }
}
