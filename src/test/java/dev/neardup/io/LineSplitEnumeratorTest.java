package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineSplitEnumeratorTest {

    /** A watched directory: each visible file is one whole split; hidden and part files wait. */
    @Test
    void aDirectoryIsReadFileByFileLeavingOutHiddenAndPartFiles(@TempDir Path dir)
            throws Exception {
        Files.writeString(dir.resolve("pages-000002.jsonl"), "{\"id\":\"b\"}\n");
        Files.writeString(dir.resolve("pages-000001.jsonl"), "{\"id\":\"a\"}\n{\"id\":\"c\"}\n");
        Files.writeString(dir.resolve(".part-3"), "{\"id\":\"d\"}\n");
        Files.writeString(dir.resolve("_in-progress"), "{\"id\":\"e\"}\n");
        Files.createDirectory(dir.resolve("sub"));

        var splits =
                new LineSplitEnumerator(java.util.Map.of(), true)
                        .enumerateSplits(
                                new org.apache.flink.core.fs.Path[] {
                                    new org.apache.flink.core.fs.Path(dir.toUri())
                                },
                                2);

        assertThat(splits)
                .extracting(s -> s.path().getName())
                .containsExactly("pages-000001.jsonl", "pages-000002.jsonl");
        assertThat(splits).extracting(FileSourceSplit::length).containsExactly(22L, 11L);
        assertThat(splits).extracting(FileSourceSplit::offset).containsOnly(0L);
    }

    /** A watched input that is gone has nothing new; an input read once must exist. */
    @Test
    void aMissingInputIsNothingNewWhenWatchedAndAnErrorOtherwise(@TempDir Path dir) {
        var missing =
                new org.apache.flink.core.fs.Path[] {
                    new org.apache.flink.core.fs.Path(dir.resolve("gone.jsonl").toUri())
                };

        assertThat(
                        assertDoesNotThrow(
                                () ->
                                        new LineSplitEnumerator(java.util.Map.of(), true)
                                                .enumerateSplits(missing, 2)))
                .isEmpty();
        assertThatThrownBy(
                        () ->
                                new LineSplitEnumerator(java.util.Map.of(), false)
                                        .enumerateSplits(missing, 2))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("gone.jsonl");
    }
}
