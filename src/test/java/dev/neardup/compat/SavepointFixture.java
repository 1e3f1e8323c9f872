package dev.neardup.compat;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.JobCounts;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.PlantedCorpus;
import dev.neardup.testing.ShortTempDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

/**
 * The savepoint-compatibility fixture: a job of this version over {@link #BASES} generated
 * documents, stopped with a canonical savepoint. {@link #main} writes it to {@code
 * src/test/resources/savepoints/VERSION/} (run it only when a release changes the state format on
 * purpose, and then keep the old directories: each is a promise that its version restores):
 *
 * <pre>
 *   mvn -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 *   java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *       dev.neardup.compat.SavepointFixture v2
 * </pre>
 */
public final class SavepointFixture {

    /** Base documents in the savepoint: ids {@code base-0 .. base-(BASES-1)}. */
    public static final int BASES = 20;

    /** Seed of the corpus; the test regenerates the same documents from it. */
    public static final long SEED = 2026_11_21L;

    private SavepointFixture() {}

    /** The corpus: bases first (in the savepoint), then near-copies of them for the test. */
    public static PlantedCorpus corpus() {
        PlantedCorpus corpus = new PlantedCorpus(SEED);
        for (int i = 0; i < BASES; i++) {
            corpus.addBase("base-" + i, 2000);
        }
        for (int i = 0; i < BASES; i += 2) {
            corpus.addVariant("base-" + i, "copy-" + i, 0.97);
        }
        return corpus;
    }

    /** Job configuration shared by the generator and the test (parallelism 2, defaults). */
    public static Configuration configuration(Path work) {
        Configuration base = new Configuration();
        base.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        // The watched input is unbounded: its last documents are final once it has been idle.
        base.set(NearDupOptions.IDLE_TIMEOUT, Duration.ofSeconds(1));
        return EmbeddedJob.configuration(base, work, Duration.ofSeconds(1));
    }

    /**
     * Runs the job with a continuously watched input until {@code expectedVerdicts} verdicts are
     * out, optionally restoring from {@code savepoint}; returns the running job.
     */
    public static JobClient run(
            Path work,
            List<PlantedCorpus.Doc> docs,
            Path savepoint,
            Configuration overrides,
            Path alerts,
            Path verdicts,
            int expectedVerdicts)
            throws Exception {
        Path input = work.resolve("input-" + System.nanoTime() + ".jsonl");
        JobFiles.writeInput(input, docs, Map.of());
        Configuration conf = configuration(work);
        conf.addAll(overrides);
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint.toUri().toString());
        }
        NearDupSettings settings = NearDupSettings.from(conf);
        JobCounts counts = new JobCounts().configure(conf);
        JobClient job =
                EmbeddedJob.start(
                        conf, settings, input, alerts.toString(), verdicts.toString(), null, true);
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (counts.written(EmbeddedJob.VERDICTS) < expectedVerdicts) {
            if (System.nanoTime() > deadline) {
                job.cancel();
                throw new AssertionError(
                        "only "
                                + counts.written(EmbeddedJob.VERDICTS)
                                + " of "
                                + expectedVerdicts
                                + " verdicts within 2 minutes");
            }
            if (job.getJobStatus().get().isGloballyTerminalState()) {
                throw new AssertionError("the job ended: " + job.getJobStatus().get());
            }
            Thread.sleep(50);
        }
        return job;
    }

    public static void main(String[] args) throws Exception {
        String version = args.length > 0 ? args[0] : "v2";
        Path target = Path.of("src/test/resources/savepoints", version);
        if (Files.exists(target)) {
            throw new IllegalStateException(target + " exists: savepoints are never overwritten");
        }
        Path work = ShortTempDirs.create("nd-fixture");
        List<PlantedCorpus.Doc> bases = corpus().docs.subList(0, BASES);
        JobClient job =
                run(
                        work,
                        bases,
                        null,
                        new Configuration(),
                        work.resolve("a.jsonl"),
                        work.resolve("v.jsonl"),
                        BASES);
        String savepoint =
                job.stopWithSavepoint(
                                false,
                                work.resolve("savepoints").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get();
        Path source = Path.of(java.net.URI.create(savepoint));
        Files.createDirectories(target);
        try (Stream<Path> files = Files.walk(source)) {
            for (Path f : files.sorted(Comparator.naturalOrder()).toList()) {
                Path dest = target.resolve(source.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(f, dest);
                }
            }
        }
        System.out.println("wrote " + target);
        System.exit(0);
    }
}
