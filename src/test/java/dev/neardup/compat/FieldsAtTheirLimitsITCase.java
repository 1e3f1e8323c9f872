package dev.neardup.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.io.FieldLimits;
import dev.neardup.io.Json;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.JobCounts;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.PlantedCorpus;
import dev.neardup.testing.ShortTempDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Records with every field at its limit go through a checkpoint, a savepoint, a restore and a
 * rescale, in every mode, with nothing lost or cut: the id and url at the largest limits that can
 * be set, in characters whose modified UTF-8 is longer than their UTF-8 (so a serializer with a 64
 * KB string limit would fail), the content as large as the record limit allows. The job reads them
 * at parallelism 2 and keeps their verdicts waiting (the watermark does not pass them) while
 * checkpoints are taken, then stops with a savepoint; restored at parallelism 1 with near-copies
 * (also at the limits), every document gets its verdict, and each copy names its original, id and
 * url whole.
 */
class FieldsAtTheirLimitsITCase {

    private static final int FIELD = FieldLimits.MAX_FIELD_LIMIT_BYTES;
    private static final int RECORD = 256 * 1024;
    private static final long T0 = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli();
    private static final int BASES = 3;

    /** An id of exactly {@link #FIELD} UTF-8 bytes: surrogate pairs, with {@code tag} first. */
    private static String id(String tag) {
        String pairs = "\ud83d\ude00".repeat((FIELD - tag.length()) / 4);
        String id = tag + pairs + "x".repeat((FIELD - tag.length()) % 4);
        assertThat(id.getBytes(StandardCharsets.UTF_8)).hasSize(FIELD);
        return id;
    }

    /** A url of exactly {@link #FIELD} UTF-8 bytes: two-byte characters (and NUL). */
    private static String url(String tag) {
        String head = "https://example.org/" + tag + "/\u0000";
        int rest = FIELD - head.getBytes(StandardCharsets.UTF_8).length;
        String url = head + "\u00e9".repeat(rest / 2) + "y".repeat(rest % 2);
        assertThat(url.getBytes(StandardCharsets.UTF_8)).hasSize(FIELD);
        return url;
    }

    /** A record of {@code doc} with its fields at their limits, the record just within its own. */
    private static String line(PlantedCorpus.Doc doc, String tag) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", id(tag));
        json.put("url", url(tag));
        json.put("contentType", "text/plain; x=" + "a".repeat(FieldLimits.CONTENT_TYPE_BYTES - 14));
        json.put("fetchedAt", Instant.ofEpochMilli(doc.fetchedAt()).toString());
        json.put("content", "");
        int room = RECORD - Json.write(json).getBytes(StandardCharsets.UTF_8).length;
        String content = doc.content();
        // The planted text, repeated (the copies' repeat in step) until the record is full.
        StringBuilder full = new StringBuilder(content);
        while (full.length() + content.length() + 1 <= room) {
            full.append(' ').append(content);
        }
        json.put("content", full.toString());
        String line = Json.write(json);
        assertThat(line.getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(RECORD)
                .isGreaterThan(RECORD - content.length() - 2);
        return line;
    }

    private static Configuration configuration(Path work, SimilarityFamily mode, int parallelism) {
        Configuration conf = SavepointFixture.configuration(work);
        conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        conf.set(NearDupOptions.SIMILARITY, mode);
        if (mode == SimilarityFamily.CONTAINMENT) {
            conf.set(NearDupOptions.THRESHOLD, 0.8);
        }
        conf.set(NearDupOptions.MAX_DOCUMENT_SIZE, new MemorySize(RECORD));
        conf.set(NearDupOptions.MAX_ID_SIZE, new MemorySize(FIELD));
        conf.set(NearDupOptions.MAX_URL_SIZE, new MemorySize(FIELD));
        return conf;
    }

    @ParameterizedTest
    @EnumSource(SimilarityFamily.class)
    void fieldsAtTheirLimitsSurviveCheckpointSavepointRestoreAndRescale(SimilarityFamily mode)
            throws Exception {
        PlantedCorpus corpus = new PlantedCorpus(42);
        for (int i = 0; i < BASES; i++) {
            corpus.addBase("base-" + i, 3000);
        }
        for (int i = 0; i < BASES; i++) {
            corpus.addVariant("base-" + i, "copy-" + i, 0.97);
        }
        List<String> bases = new ArrayList<>();
        List<String> copies = new ArrayList<>();
        for (PlantedCorpus.Doc d : corpus.docs) {
            (d.id().startsWith("base-") ? bases : copies).add(line(d, d.id()));
        }
        // Short, as RocksDB wants; removed at the end (its state and savepoints take 200 MB).
        Path work = ShortTempDirs.create("nd-limits");
        try {
            runPhases(mode, work, bases, copies);
        } finally {
            org.apache.flink.util.FileUtils.deleteDirectoryQuietly(work.toFile());
        }
    }

    private void runPhases(
            SimilarityFamily mode, Path work, List<String> bases, List<String> copies)
            throws Exception {
        // Phase 1: the bases, read at parallelism 2; the watermark never passes them (the input
        // is watched and never idle long enough), so their verdicts wait through checkpoints.
        Configuration first = configuration(work, mode, 2);
        first.set(NearDupOptions.IDLE_TIMEOUT, Duration.ofMinutes(30));
        Path firstVerdicts = work.resolve("verdicts-1.jsonl");
        JobCounts counts = new JobCounts().configure(first);
        JobClient job = start(work, first, bases, work.resolve("alerts-1.jsonl"), firstVerdicts);
        awaitDocuments(job, counts, BASES);
        Thread.sleep(3_000); // three checkpoint intervals with the verdicts waiting
        assertThat(job.getJobStatus().get().isGloballyTerminalState()).isFalse();
        String savepoint =
                job.stopWithSavepoint(
                                false,
                                work.resolve("savepoints").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get();
        assertThat(JobFiles.read(firstVerdicts)).as("verdicts still waiting").isEmpty();

        // Phase 2: restored at parallelism 1 with the copies; every verdict comes out.
        Configuration second = configuration(work, mode, 1);
        second.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        Path verdicts = work.resolve("verdicts-2.jsonl");
        JobCounts after = new JobCounts().configure(second);
        JobClient restored = start(work, second, copies, work.resolve("alerts-2.jsonl"), verdicts);
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (after.written(EmbeddedJob.VERDICTS) < 2 * BASES && System.nanoTime() < deadline) {
            assertThat(restored.getJobStatus().get().isGloballyTerminalState()).isFalse();
            Thread.sleep(50);
        }
        restored.stopWithSavepoint(
                        false,
                        work.resolve("stop").toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get();
        Map<String, JsonNode> byId =
                JobFiles.read(verdicts).stream()
                        .collect(
                                Collectors.toMap(
                                        v -> v.get("docId").asText(), Function.identity()));
        assertThat(byId).hasSize(2 * BASES);
        for (int i = 0; i < BASES; i++) {
            JsonNode base = byId.get(id("base-" + i));
            assertThat(base).as("base-%d's verdict, id whole", i).isNotNull();
            assertThat(base.get("url").asText()).isEqualTo(url("base-" + i));
            assertThat(base.get("verdict").asText()).isEqualTo("UNIQUE");
            JsonNode copy = byId.get(id("copy-" + i));
            assertThat(copy).as("copy-%d's verdict", i).isNotNull();
            assertThat(copy.get("verdict").asText())
                    .as("copy-%d", i)
                    .isIn("DUPLICATE", "CONTAINED");
            assertThat(copy.get("duplicateOf").asText()).isEqualTo(id("base-" + i));
            assertThat(copy.get("duplicateUrl").asText()).isEqualTo(url("base-" + i));
        }
    }

    private static JobClient start(
            Path work, Configuration conf, List<String> lines, Path alerts, Path verdicts)
            throws Exception {
        Path input = work.resolve("input-" + System.nanoTime() + ".jsonl");
        Files.write(input, lines, StandardCharsets.UTF_8);
        return EmbeddedJob.start(
                conf,
                NearDupSettings.from(conf),
                input,
                alerts.toString(),
                verdicts.toString(),
                null,
                true);
    }

    private static void awaitDocuments(JobClient job, JobCounts counts, int n) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (counts.count(JobCounts.DOCUMENTS) < n) {
            assertThat(System.nanoTime()).as("%d documents read in time", n).isLessThan(deadline);
            assertThat(job.getJobStatus().get().isGloballyTerminalState()).isFalse();
            Thread.sleep(50);
        }
    }
}
