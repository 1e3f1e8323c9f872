package dev.neardup.tools.bench;

import dev.neardup.batch.DedupeJob;
import dev.neardup.batch.DedupeSettings;
import dev.neardup.config.NearDupSettings;
import dev.neardup.runtime.DedupeRun;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.Interruption;
import dev.neardup.runtime.JobCounts;
import dev.neardup.runtime.NeardupException;
import dev.neardup.runtime.Progress;
import dev.neardup.runtime.WorkDir;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Formatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;

/**
 * {@code neardup bench --dedupe}: the generated crawl of {@code bench} ({@link BenchCorpus})
 * written to a file, deduped as {@code neardup dedupe --input FILE --clusters FILE --keep FILE}
 * would (one BATCH job on the embedded MiniCluster), then run through the streaming job ({@code
 * bench}'s whole job, RocksDB and checkpoints); documents/s and peak memory ({@link MemoryPeaks})
 * of each.
 */
record DedupeBench(Bench bench, PrintWriter out, PrintWriter err, Duration progressEvery) {

    int run() throws Exception {
        Bench.Options o = bench.o;
        Configuration conf = o.jobConfiguration().get();
        int parallelism = conf.get(CoreOptions.DEFAULT_PARALLELISM);
        NearDupSettings settings = EmbeddedJob.settings(conf);
        DedupeSettings dedupeSettings =
                NeardupException.usageIfInvalid(
                        () -> DedupeSettings.from(conf, List.of("bench.jsonl")));
        Map<String, Object> r = new LinkedHashMap<>();
        try (WorkDir dir = WorkDir.of(null, "nd-bench-");
                Interruption interruption = Bench.removedOnSignal(dir, err)) {
            Path work = dir.path();
            Path input = work.resolve("bench.jsonl");
            err.println("neardup bench: writing " + o.documents() + " generated documents");
            long start = System.nanoTime();
            long bytes = bench.corpus().write(input);
            r.put("machine", Bench.machine());
            r.put("settings", dedupeSettings.toString());
            r.put("documents", o.documents());
            r.put("inputMegabytes", bytes / 1e6);
            r.put("duplicateFraction", o.duplicateFraction());
            r.put("corpusSeconds", (System.nanoTime() - start) / 1e9);
            r.put("parallelism", parallelism);

            err.println("neardup bench: dedupe, parallelism " + parallelism);
            Configuration flink = new Configuration(conf);
            flink.set(CoreOptions.TMP_DIRS, work.resolve("tmp").toString());
            flink.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            JobCounts counts = new JobCounts().configure(flink);
            Progress dedupeProgress =
                    bench.progress(
                            err, progressEvery, DedupeRun.progressCounts(dedupeSettings, counts));
            if (dedupeProgress != null) {
                dedupeProgress.phase("dedupe");
            }
            DedupeJob.Result result;
            MemoryPeaks.Peaks dedupeMemory;
            try (MemoryPeaks peaks = MemoryPeaks.start()) {
                result =
                        new DedupeJob(
                                        flink,
                                        dedupeSettings,
                                        List.of(input.toString()),
                                        new DedupeJob.Outputs(
                                                work.resolve("clusters.jsonl").toString(),
                                                work.resolve("keep.jsonl").toString(),
                                                null,
                                                null),
                                        true)
                                .run(job -> Progress.await(job, dedupeProgress, null));
                dedupeMemory = peaks.stop();
            }
            r.put("dedupeSeconds", result.seconds());
            r.put("dedupeDocsPerSecond", o.documents() / result.seconds());
            r.put("dedupeClusters", result.clusters());
            r.put("dedupePairs", result.pairs());
            r.put("dedupeExactCopies", result.exactCopies());
            r.put("dedupeComponentRounds", result.rounds());
            r.put("dedupeComponentsInMemory", result.inMemory());
            r.put("dedupeJobs", result.jobs());
            put(r, "dedupe", dedupeMemory);

            err.println(
                    "neardup bench: streaming job over the same file, parallelism " + parallelism);
            Progress runProgress = bench.progress(err, progressEvery, Progress.run(bench.counts));
            Map<String, Object> streaming;
            MemoryPeaks.Peaks streamingMemory;
            try (MemoryPeaks peaks = MemoryPeaks.start()) {
                streaming =
                        bench.wholeJob(
                                conf,
                                settings,
                                input,
                                work,
                                err,
                                runProgress,
                                "streaming",
                                0,
                                false);
                streamingMemory = peaks.stop();
            }
            r.put("streamingSeconds", streaming.get("jobSeconds"));
            r.put("streamingDocsPerSecond", streaming.get("jobDocsPerSecond"));
            r.put("streamingAlerts", streaming.get("alerts"));
            put(r, "streaming", streamingMemory);
            r.put(
                    "dedupeToStreamingRatio",
                    (double) r.get("dedupeDocsPerSecond")
                            / (double) r.get("streamingDocsPerSecond"));
        }
        print(r);
        return 0;
    }

    private static void put(Map<String, Object> r, String prefix, MemoryPeaks.Peaks peaks) {
        r.put(prefix + "PeakRssMegabytes", peaks.rssMegabytes());
        r.put(prefix + "PeakHeapMegabytes", peaks.heapMegabytes());
        r.put(prefix + "MaxHeapMegabytes", peaks.maxHeapMegabytes());
    }

    private void print(Map<String, Object> r) {
        Formatter f = bench.table(out, r, 20);
        if (f == null) {
            return;
        }
        Bench.corpusLine(f, r);
        f.format(
                "dedupe              %,.0f documents/s  (%.1f s, parallelism %d, one BATCH job:"
                        + " %,d clusters, %,d pairs, %s)%n",
                r.get("dedupeDocsPerSecond"),
                r.get("dedupeSeconds"),
                r.get("parallelism"),
                r.get("dedupeClusters"),
                r.get("dedupePairs"),
                (int) r.get("dedupeComponentRounds") == 0
                                && (long) r.get("dedupeComponentsInMemory") > 0
                        ? "components found in memory"
                        : r.get("dedupeComponentRounds") + " component rounds");
        memory(f, "dedupe memory", "dedupe", r);
        f.format(
                "streaming job       %,.0f documents/s  (%.1f s, parallelism %d, %s state, %,d"
                        + " alerts)%n",
                r.get("streamingDocsPerSecond"),
                r.get("streamingSeconds"),
                r.get("parallelism"),
                bench.o.stateBackend(),
                r.get("streamingAlerts"));
        memory(f, "streaming memory", "streaming", r);
        f.format(
                "dedupe / streaming  %.2f x the streaming job's rate%n",
                r.get("dedupeToStreamingRatio"));
    }

    private static void memory(Formatter f, String label, String prefix, Map<String, Object> r) {
        f.format(
                "%-19s peak %,d MB resident, peak %,d MB heap in use (max heap %,d MB)%n",
                label,
                r.get(prefix + "PeakRssMegabytes"),
                r.get(prefix + "PeakHeapMegabytes"),
                r.get(prefix + "MaxHeapMegabytes"));
    }
}
