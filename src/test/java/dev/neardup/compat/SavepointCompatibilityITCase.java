package dev.neardup.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.PlantedCorpus;
import dev.neardup.testing.ShortTempDirs;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.junit.jupiter.api.Test;

/**
 * Savepoint compatibility is a promise: the savepoints kept under {@code
 * src/test/resources/savepoints/} of the layouts this version upgrades (v2, v3; v4, written by the
 * release before early alerts; v5, by the release before waiting verdicts' keys had no size limit)
 * restore in this version with their state intact, and an older layout (v1) or incompatible
 * settings fail at start with a clear message instead of restoring into state they do not fit. The
 * v2 savepoint holds {@link SavepointFixture#BASES} documents; near-copies of them sent after the
 * restore must be found, although the originals are only in the restored state.
 */
class SavepointCompatibilityITCase {

    /**
     * The savepoints of layouts 2 (before cluster ids; upgraded as it is read), 3, 4 (before early
     * alerts) and 5 restore with their documents, which are then the clusters of their near-copies.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"v2", "v3", "v4", "v5"})
    void savepointRestoresWithItsDocuments(String version) throws Exception {
        List<JsonNode> verdicts = runCopies(savepoint(version), new Configuration());
        assertThat(verdicts).hasSize(copies().size());
        Map<String, JsonNode> byId =
                verdicts.stream().collect(Collectors.toMap(v -> v.get("docId").asText(), v -> v));
        for (PlantedCorpus.Doc copy : copies()) {
            String original = "base-" + copy.id().substring("copy-".length());
            JsonNode v = byId.get(copy.id());
            assertThat(v.get("duplicateOf").asText("")).as(copy.id()).isEqualTo(original);
            assertThat(v.get("clusterId").asText("")).as(copy.id()).isEqualTo(original);
        }
    }

    @Test
    void withoutTheSavepointTheSameCopiesAreUnique() throws Exception {
        List<JsonNode> verdicts = runCopies(null, new Configuration());
        assertThat(verdicts).hasSize(copies().size());
        assertThat(verdicts)
                .allSatisfy(v -> assertThat(v.get("verdict").asText()).isEqualTo("UNIQUE"));
    }

    private static List<PlantedCorpus.Doc> copies() {
        List<PlantedCorpus.Doc> docs = SavepointFixture.corpus().docs;
        return docs.subList(SavepointFixture.BASES, docs.size());
    }

    /**
     * Rescaling: the v2 savepoint was taken at parallelism 2; restored at 1 and at 4, every one of
     * its 20 documents is still in its buckets (a near-copy of each is found).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 4})
    void v2SavepointRestoresAtAnotherParallelismWithEveryMember(int parallelism) throws Exception {
        PlantedCorpus corpus = SavepointFixture.corpus();
        for (int i = 1; i < SavepointFixture.BASES; i += 2) {
            corpus.addVariant("base-" + i, "copy-" + i, 0.97);
        }
        List<PlantedCorpus.Doc> copies =
                corpus.docs.subList(SavepointFixture.BASES, corpus.docs.size());
        assertThat(copies).hasSize(SavepointFixture.BASES);
        Configuration conf = new Configuration();
        conf.set(org.apache.flink.configuration.CoreOptions.DEFAULT_PARALLELISM, parallelism);
        Map<String, String> duplicateOf =
                runDocs(savepoint("v2"), conf, copies).stream()
                        .collect(
                                Collectors.toMap(
                                        v -> v.get("docId").asText(),
                                        v -> v.get("duplicateOf").asText("")));
        assertThat(duplicateOf).hasSize(SavepointFixture.BASES);
        for (PlantedCorpus.Doc copy : copies) {
            assertThat(duplicateOf.get(copy.id()))
                    .as("%s at parallelism %d", copy.id(), parallelism)
                    .isEqualTo("base-" + copy.id().substring("copy-".length()));
        }
    }

    /**
     * State layout 1 (the signature store) was replaced by layout 2 in November 2026: its savepoint
     * must not restore silently into empty buckets. Flink refuses it, naming the operator whose
     * state has no place in the new job; README says how to move (re-read the topic).
     */
    @Test
    void aV1SavepointIsRefusedNotSilentlyDropped() throws Exception {
        Throwable failure = failureOf(savepoint("v1"), new Configuration());
        assertThat(chain(failure)).contains("Cannot map checkpoint/savepoint state");
    }

    /** Settings that shape state must match; the message names the old and the new values. */
    @Test
    void restoringWithOtherStateShapingSettingsFailsWithBothValues() throws Exception {
        Configuration other = new Configuration();
        other.set(NearDupOptions.NUM_HASHES, 256);
        Throwable failure = failureOf(savepoint("v2"), other);
        assertThat(chain(failure))
                .contains("neardup.num-hashes was 128, now 256")
                .contains("neardup.bands was 11, now")
                .contains("re-read the input");
    }

    /** The job's failure when it starts from {@code savepoint} with {@code overrides}. */
    private static Throwable failureOf(Path savepoint, Configuration overrides) throws Exception {
        Path work = ShortTempDirs.create("nd-compat");
        Configuration conf = SavepointFixture.configuration(work);
        conf.addAll(overrides);
        conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint.toUri().toString());
        Path input = work.resolve("input.jsonl");
        JobFiles.writeInput(input, copies(), Map.of());
        try {
            EmbeddedJob.run(conf, NearDupSettings.from(conf), input, null, null, null);
        } catch (Exception e) {
            return e;
        }
        throw new AssertionError("the job restored from " + savepoint + " without failing");
    }

    private static String chain(Throwable t) {
        StringBuilder out = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            out.append(c).append('\n');
        }
        return out.toString();
    }

    private static List<JsonNode> runCopies(Path savepoint, Configuration overrides)
            throws Exception {
        return runDocs(savepoint, overrides, copies());
    }

    private static List<JsonNode> runDocs(
            Path savepoint, Configuration overrides, List<PlantedCorpus.Doc> docs)
            throws Exception {
        Path work = ShortTempDirs.create("nd-compat");
        Path verdicts = work.resolve("verdicts.jsonl");
        JobClient job =
                SavepointFixture.run(
                        work,
                        docs,
                        savepoint,
                        overrides,
                        work.resolve("alerts.jsonl"),
                        verdicts,
                        docs.size());
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
