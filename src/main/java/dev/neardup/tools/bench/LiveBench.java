package dev.neardup.tools.bench;

import dev.neardup.config.NearDupSettings;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.Interruption;
import dev.neardup.runtime.NeardupException;
import dev.neardup.similarity.SimilarityMode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Formatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

/**
 * {@code neardup bench --live R}: the latency a crawler sees on a live stream. The generated crawl
 * ({@link BenchCorpus}) is written to a watched directory at R pages/s, a new file every 100 ms,
 * each page stamped with the time it is written ({@code fetchedAt}), while the job (the embedded
 * MiniCluster, RocksDB, checkpoints) reads it with the watermark settings of {@code run}. Reported:
 * p50/p99 of the time from writing a page to the detection of its early alerts, of its other alerts
 * and of its verdict, over what was detected while pages were still being written (afterwards the
 * idle input lets the watermark catch up, which a live stream never does).
 */
record LiveBench(Bench bench, PrintWriter out, PrintWriter err) {

    int run() throws Exception {
        Bench.Options o = bench.o;
        int rate = o.live();
        if (rate < 1 || rate > 100_000) {
            throw NeardupException.usage("--live must be from 1 to 100000 pages/s, got " + rate);
        }
        if (o.liveDuration().compareTo(Duration.ofSeconds(5)) < 0) {
            throw NeardupException.usage(
                    "--live-duration must be at least 5s, got " + o.liveDuration());
        }
        Configuration conf = o.jobConfiguration().get();
        NearDupSettings settings = EmbeddedJob.settings(conf);
        int documents = (int) Math.min(Integer.MAX_VALUE, rate * o.liveDuration().toSeconds());
        BenchCorpus corpus = bench.corpus(documents);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("machine", Bench.machine());
        r.put("settings", SimilarityMode.of(settings).describe());
        r.put("pagesPerSecond", rate);
        r.put("seconds", o.liveDuration().toSeconds());
        r.put(
                "maxOutOfOrderness",
                dev.neardup.config.OptionValues.format(settings.watermarks().maxOutOfOrderness()));
        try (var dir = dev.neardup.runtime.WorkDir.of(null, "nd-bench-");
                Interruption interruption = Bench.removedOnSignal(dir, err)) {
            Path work = dir.path();
            Path input = Files.createDirectory(work.resolve("live"));
            Path alerts = work.resolve("alerts.jsonl");
            Path verdicts = work.resolve("verdicts.jsonl");
            Configuration flink = EmbeddedJob.configuration(conf, work, o.checkpointInterval());
            JobClient job =
                    EmbeddedJob.start(
                            flink,
                            settings,
                            input,
                            alerts.toString(),
                            verdicts.toString(),
                            null,
                            true);
            err.printf(
                    Locale.ROOT,
                    "neardup bench: writing %,d pages at %,d/s to a watched directory (%s of"
                            + " out-of-orderness)%n",
                    documents,
                    rate,
                    r.get("maxOutOfOrderness"));
            Instant end = write(input, corpus, rate);
            r.put("pagesWritten", documents);
            err.println("neardup bench: written; stopping with a savepoint");
            String savepoint = work.resolve("savepoints").toUri().toString();
            job.stopWithSavepoint(false, savepoint, SavepointFormatType.NATIVE).get();
            job.getJobExecutionResult().get();
            put(r, "earlyAlert", latencies(alerts, end, Boolean.TRUE));
            put(r, "alert", latencies(alerts, end, Boolean.FALSE));
            put(r, "verdict", latencies(verdicts, end, null));
        }
        print(r);
        return 0;
    }

    /** How often a new file of the pages written meanwhile appears in the watched directory. */
    private static final Duration FILE_EVERY = Duration.ofMillis(100);

    /**
     * Writes the pages at {@code rate} per second, as a new file in the watched directory every
     * {@link #FILE_EVERY} (written under a hidden name, then renamed: the source reads whole
     * files); returns when the last is in place.
     */
    private static Instant write(Path dir, BenchCorpus corpus, int rate) throws Exception {
        long start = System.nanoTime();
        int next = 0;
        for (int file = 0; next < corpus.size(); file++) {
            long due = start + (file + 1) * FILE_EVERY.toNanos();
            long wait = due - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            int upTo =
                    (int)
                            Math.min(
                                    corpus.size(),
                                    (System.nanoTime() - start) * rate / 1_000_000_000L);
            if (upTo <= next) {
                continue;
            }
            Path hidden = dir.resolve(".part-" + file);
            try (BufferedWriter w = Files.newBufferedWriter(hidden, StandardCharsets.UTF_8)) {
                for (; next < upTo; next++) {
                    String url = "https://example.org/" + next;
                    w.write(BenchCorpus.line("doc-" + next, url, Instant.now(), corpus.text(next)));
                    w.write('\n');
                }
            }
            Files.move(
                    hidden,
                    dir.resolve(String.format(Locale.ROOT, "pages-%06d.jsonl", file)),
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        return Instant.now();
    }

    /**
     * The sorted latencies of the outputs in {@code file} detected before {@code end}: alerts
     * marked early or not ({@code early}), or all lines (null).
     */
    private static double[] latencies(Path file, Instant end, Boolean early) throws IOException {
        return Bench.latencies(
                file,
                a ->
                        (early == null || a.path("early").asBoolean(false) == early)
                                && Instant.parse(a.get("detectedAt").asText()).isBefore(end));
    }

    private static void put(Map<String, Object> r, String what, double[] sorted) {
        r.put(what + "s", sorted.length);
        r.put(what + "LatencyP50Millis", Bench.percentile(sorted, 0.50));
        r.put(what + "LatencyP99Millis", Bench.percentile(sorted, 0.99));
        r.put(what + "LatencyMinMillis", sorted.length == 0 ? Double.NaN : sorted[0]);
    }

    private void print(Map<String, Object> r) {
        Formatter f = bench.table(out, r, 20);
        if (f == null) {
            return;
        }
        f.format(
                "live input          %,d pages/s for %d s, each stamped with the time it was"
                        + " written; out-of-orderness %s%n",
                r.get("pagesPerSecond"), r.get("seconds"), r.get("maxOutOfOrderness"));
        for (String what : new String[] {"earlyAlert", "alert", "verdict"}) {
            f.format(
                    "%-19s p50 %.0f ms, p99 %.0f ms  (%,d detected while pages were written;"
                            + " from writing the page to detection)%n",
                    switch (what) {
                        case "earlyAlert" -> "early alerts";
                        case "alert" -> "other alerts";
                        default -> "verdicts";
                    },
                    r.get(what + "LatencyP50Millis"),
                    r.get(what + "LatencyP99Millis"),
                    r.get(what + "s"));
        }
        f.flush();
    }
}
