package dev.neardup.tools.bench;

import dev.neardup.config.NearDupSettings;
import dev.neardup.config.OptionValues;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.Interruption;
import dev.neardup.runtime.Progress;
import dev.neardup.runtime.WorkDir;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.tools.plot.SCurvePlot;
import dev.neardup.tools.plot.ScaleCurvePlot;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Formatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;

/**
 * {@code neardup bench --scale-curve N,N,...}: the whole job and the job with its keyed path cut,
 * each on the first N documents of one generated crawl for every N, in one sitting after one
 * warm-up run, with documents/s and CPU per document after start-up and state bytes per document at
 * each N: how the job holds its speed as its state grows. The crawl of the largest N is written
 * once and its prefixes are the smaller crawls ({@link BenchCorpus} is a pure function of its
 * parameters, generated in order).
 */
record ScaleCurve(Bench bench, PrintWriter out, PrintWriter err, Duration progressEvery) {

    /** The warm-up run's documents when {@code --warm-up} is not given. */
    static final int DEFAULT_WARM_UP = 20_000;

    int run() throws Exception {
        Bench.Options o = bench.o;
        List<Integer> sizes = o.scaleCurve();
        Configuration conf = o.jobConfiguration().get();
        int p = conf.get(CoreOptions.DEFAULT_PARALLELISM);
        NearDupSettings settings = EmbeddedJob.settings(conf);
        Progress progress = bench.progress(err, progressEvery, Progress.run(bench.counts));
        int largest = sizes.get(sizes.size() - 1);
        BenchCorpus corpus = new BenchCorpus(largest, o.documentSize(), o.duplicateFraction());
        // A bad plot file name fails now, not after an hour of runs.
        SCurvePlot.ImageFormat plotFormat =
                o.plot() == null ? null : SCurvePlot.ImageFormat.required("--plot", o.plot());
        int warmUp = Math.min(largest, o.warmUp() != null ? o.warmUp() : DEFAULT_WARM_UP);
        List<Map<String, Object>> points = new ArrayList<>();
        Bench.Signature signature;
        try (WorkDir dir = WorkDir.of(null, "nd-bench-");
                Interruption interruption = Bench.removedOnSignal(dir, err)) {
            Path work = dir.path();
            err.println("neardup bench: signature step, one thread");
            signature =
                    Bench.signatureOnly(
                            settings, corpus.texts(Math.min(largest, Bench.SIGNATURE_DOCUMENTS)));
            if (warmUp > 0) {
                Path warmUpInput = work.resolve("warm-up.jsonl");
                BenchCorpus.write(warmUpInput, warmUp, corpus::text);
                err.println("neardup bench: whole job, warm-up run of " + warmUp);
                bench.wholeJob(
                        conf, settings, warmUpInput, work, err, progress, "warm-up", 0, false);
                err.println("neardup bench: keyed path cut, warm-up run of " + warmUp);
                bench.wholeJob(
                        conf, settings, warmUpInput, work, err, progress, "cut warm-up", 0, true);
                Files.delete(warmUpInput);
            }
            for (int n : sizes) {
                Path input = work.resolve("bench-" + n + ".jsonl");
                err.printf(Locale.ROOT, "neardup bench: writing %,d documents%n", n);
                BenchCorpus.write(input, n, corpus::text);
                err.printf(Locale.ROOT, "neardup bench: whole job, %,d documents%n", n);
                Map<String, Object> job =
                        bench.wholeJob(
                                conf, settings, input, work, err, progress, "measured", 0, false);
                err.printf(Locale.ROOT, "neardup bench: keyed path cut, %,d documents%n", n);
                Map<String, Object> cut =
                        bench.wholeJob(conf, settings, input, work, err, progress, "cut", 0, true);
                Files.delete(input);
                Map<String, Object> point = new LinkedHashMap<>();
                point.put("documents", n);
                double rate = (double) job.get("jobDocsPerSecondAfterStartup");
                double cutRate = (double) cut.get("jobDocsPerSecondAfterStartup");
                point.put("jobDocsPerSecondAfterStartup", rate);
                point.put("jobCpuMicrosPerDocument", job.get("cpuMicrosPerDocument"));
                point.put("jobJitMicrosPerDocument", job.get("jitMicrosPerDocument"));
                point.put("cutJobDocsPerSecondAfterStartup", cutRate);
                point.put("cutJobCpuMicrosPerDocument", cut.get("cpuMicrosPerDocument"));
                point.put("jobToCutJobRatio", rate / cutRate);
                point.put("stateBytesPerDocument", job.get("stateBytesPerDocument"));
                point.put("latencyP99Millis", job.get("latencyP99Millis"));
                point.put("alerts", job.get("alerts"));
                points.add(point);
            }
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("machine", Bench.machine());
        r.put("settings", SimilarityMode.of(settings).describe());
        r.put("parallelism", p);
        r.put("checkpointInterval", OptionValues.format(o.checkpointInterval()));
        r.put("stateBackend", o.stateBackend());
        r.put("warmUpDocuments", warmUp);
        r.put("signatureCpuMicrosPerDocument", signature.cpuMicrosPerDocument());
        r.put("points", points);
        double first = (double) points.get(0).get("jobDocsPerSecondAfterStartup");
        double last = (double) points.get(points.size() - 1).get("jobDocsPerSecondAfterStartup");
        r.put("largestToSmallestRateRatio", last / first);
        r.put("peakRssMegabytes", MemoryPeaks.peakRssMegabytes());
        if (plotFormat != null) {
            List<ScaleCurvePlot.Point> plotted =
                    points.stream()
                            .map(
                                    q ->
                                            new ScaleCurvePlot.Point(
                                                    (int) q.get("documents"),
                                                    (double) q.get("jobDocsPerSecondAfterStartup"),
                                                    (double)
                                                            q.get(
                                                                    "cutJobDocsPerSecondAfterStartup")))
                            .toList();
            String subtitle =
                    String.format(
                            Locale.ROOT,
                            "parallelism %d, %s state, checkpoints every %s; %s",
                            p,
                            o.stateBackend(),
                            OptionValues.format(o.checkpointInterval()),
                            r.get("machine"));
            SCurvePlot.write(ScaleCurvePlot.create(plotted, subtitle), o.plot(), plotFormat);
        }
        print(r, points);
        return 0;
    }

    private void print(Map<String, Object> r, List<Map<String, Object>> points) {
        Formatter f = bench.table(out, r, 13);
        if (f == null) {
            return;
        }
        f.format(
                "runs         parallelism %d, %s state, checkpoints every %s, after a warm-up run"
                        + " of %,d; signature step %.0f us CPU per document%n",
                r.get("parallelism"),
                r.get("stateBackend"),
                r.get("checkpointInterval"),
                r.get("warmUpDocuments"),
                r.get("signatureCpuMicrosPerDocument"));
        f.format(
                "%n%12s  %14s  %10s  %14s  %10s  %8s  %10s  %9s%n",
                "documents",
                "whole job /s",
                "CPU/doc",
                "keyed cut /s",
                "CPU/doc",
                "job/cut",
                "state/doc",
                "p99");
        for (Map<String, Object> q : points) {
            f.format(
                    "%,12d  %,14.0f  %7.0f us  %,14.0f  %7.0f us  %8.2f  %8.0f B  %6.0f ms%n",
                    q.get("documents"),
                    q.get("jobDocsPerSecondAfterStartup"),
                    q.get("jobCpuMicrosPerDocument"),
                    q.get("cutJobDocsPerSecondAfterStartup"),
                    q.get("cutJobCpuMicrosPerDocument"),
                    q.get("jobToCutJobRatio"),
                    q.get("stateBytesPerDocument"),
                    q.get("latencyP99Millis"));
        }
        f.format(
                "%nwhole job at %,d documents: %.2f of its rate at %,d%n",
                points.get(points.size() - 1).get("documents"),
                r.get("largestToSmallestRateRatio"),
                points.get(0).get("documents"));
        f.format(
                "peak memory  %,d MB resident (the whole bench process)%n",
                r.get("peakRssMegabytes"));
        f.flush();
    }
}
