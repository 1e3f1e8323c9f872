package dev.neardup.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.PlantedCorpus;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.junit.jupiter.api.Test;

/**
 * Savepoint compatibility is a promise: the savepoint of every released state version, kept under
 * {@code src/test/resources/savepoints/}, restores in this version with its state intact. The v1
 * savepoint holds {@link SavepointFixture#BASES} documents; near-copies of them sent after the
 * restore must be found, although the originals are only in the restored state.
 */
class SavepointCompatibilityITCase {

    @Test
    void v1SavepointRestoresWithItsDocuments() throws Exception {
        List<JsonNode> verdicts = runCopies(savepoint("v1"));
        assertThat(verdicts).hasSize(copies().size());
        Map<String, String> duplicateOf =
                verdicts.stream()
                        .collect(
                                Collectors.toMap(
                                        v -> v.get("docId").asText(),
                                        v -> v.get("duplicateOf").asText("")));
        for (PlantedCorpus.Doc copy : copies()) {
            String original = "base-" + copy.id().substring("copy-".length());
            assertThat(duplicateOf.get(copy.id())).as(copy.id()).isEqualTo(original);
        }
    }

    @Test
    void withoutTheSavepointTheSameCopiesAreUnique() throws Exception {
        List<JsonNode> verdicts = runCopies(null);
        assertThat(verdicts).hasSize(copies().size());
        assertThat(verdicts)
                .allSatisfy(v -> assertThat(v.get("verdict").asText()).isEqualTo("UNIQUE"));
    }

    private static List<PlantedCorpus.Doc> copies() {
        List<PlantedCorpus.Doc> docs = SavepointFixture.corpus().docs;
        return docs.subList(SavepointFixture.BASES, docs.size());
    }

    private static List<JsonNode> runCopies(Path savepoint) throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "nd-compat");
        Path verdicts = work.resolve("verdicts.jsonl");
        JobClient job =
                SavepointFixture.run(
                        work,
                        copies(),
                        savepoint,
                        work.resolve("alerts.jsonl"),
                        verdicts,
                        copies().size());
        // Stopping with a savepoint flushes the sinks (a cancel would drop buffered lines).
        job.stopWithSavepoint(
                        false,
                        work.resolve("stop").toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get();
        return JobFiles.read(verdicts);
    }

    private static Path savepoint(String version) throws URISyntaxException {
        var url =
                SavepointCompatibilityITCase.class.getResource(
                        "/savepoints/" + version + "/_metadata");
        assertThat(url).as("savepoint %s in test resources", version).isNotNull();
        return Path.of(url.toURI()).getParent();
    }
}
