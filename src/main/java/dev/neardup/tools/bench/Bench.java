package dev.neardup.tools.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.OptionValues;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.runtime.CliFiles;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.Interruption;
import dev.neardup.runtime.JobCounts;
import dev.neardup.runtime.NeardupException;
import dev.neardup.runtime.Progress;
import dev.neardup.runtime.StallWatch;
import dev.neardup.runtime.WorkDir;
import dev.neardup.similarity.CandidateSite;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.similarity.Verification;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Formatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.DoubleStream;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

/**
 * The {@code bench} tool: measures, in one run on this machine, the signature step alone, the whole
 * job on the embedded MiniCluster (RocksDB, checkpoints on) and the job with its keyed path cut
 * after the signature operator (documents/s and CPU per document of each), the latency from parsing
 * a document to its alert, and the state bytes per live document (from a native savepoint); or
 * {@code dedupe} ({@link DedupeBench}); or the file commands against the stream ({@link
 * FileBench}); or only writes the generated corpus.
 */
public final class Bench {

    /**
     * How long the whole-job run may go without a document sketched, an alert or a verdict before
     * it counts as stalled and is cancelled (a slow job keeps moving; a stuck one does not).
     */
    static final Duration STALL_TIMEOUT = Duration.ofMinutes(10);

    /**
     * The shortest time after start-up to measure a run's rate and CPU time in; a shorter run is
     * measured from its start (the process's CPU time may advance in steps of 10 ms).
     */
    static final Duration MIN_WINDOW = Duration.ofMillis(200);

    /** The options of {@code neardup bench} ({@code jobConfiguration}: asked for by each job). */
    public record Options(
            int documents,
            int documentSize,
            double duplicateFraction,
            int hotCopies,
            Integer warmUp,
            Duration checkpointInterval,
            String stateBackend,
            boolean dedupe,
            FileCommands files,
            List<Integer> scaleCurve,
            Path plot,
            Integer live,
            Duration liveDuration,
            Path writeCorpus,
            int corpusFiles,
            boolean json,
            boolean quiet,
            String progressInterval,
            Supplier<Configuration> jobConfiguration) {}

    /**
     * How {@code --files} runs the file commands: {@code launcher} starts {@code neardup} in a new
     * JVM (the Java binary, class path and main class of this one, no JVM options, as a user runs
     * {@code java -jar}); {@code settings}, given as {@code -D key=value} to both commands, are the
     * settings given to {@code bench} that are not its own.
     */
    public record FileCommands(int rounds, List<String> launcher, Map<String, String> settings) {}

    final Options o;

    /** The counts of the streaming job of the current phase (the progress shows them). */
    final JobCounts counts = new JobCounts();

    private Bench(Options o) {
        this.o = o;
    }

    /** Runs the benchmark: results on {@code out}, phases and progress on {@code stderr}. */
    public static int run(Options options, PrintWriter out, PrintWriter stderr) throws Exception {
        return new Bench(options).run(out, stderr);
    }

    /**
     * Ctrl-C, SIGTERM or SIGHUP from now on until it is closed: bench says so on {@code err},
     * removes its work directory {@code dir} and exits (130, or 129 after SIGHUP); the job running
     * then ends with the process.
     */
    static Interruption removedOnSignal(WorkDir dir, PrintWriter err) {
        return Interruption.install(err, null, dir::close);
    }

    /** The progress of a phase on {@code err}, or null with {@code --quiet}. */
    Progress progress(PrintWriter err, Duration every, Progress.Counts counts) {
        return o.quiet() ? null : Progress.onStderr(err, every, "bench", counts);
    }

    private int run(PrintWriter out, PrintWriter stderr) throws Exception {
        int documents = o.documents();
        if (documents < 100) {
            throw NeardupException.usage("--documents must be at least 100, got " + documents);
        }
        if (o.documentSize() < 100) {
            throw NeardupException.usage(
                    "--document-size must be at least 100, got " + o.documentSize());
        }
        if (o.warmUp() != null && o.warmUp() < 0) {
            throw NeardupException.usage("--warm-up must not be negative, got " + o.warmUp());
        }
        if (!(o.duplicateFraction() >= 0 && o.duplicateFraction() < 1)) {
            throw NeardupException.usage("--duplicate-fraction must be in [0, 1)");
        }
        checkScaleCurve();
        if (o.files() != null
                && (o.dedupe()
                        || o.scaleCurve() != null
                        || o.live() != null
                        || o.writeCorpus() != null
                        || o.hotCopies() > 0)) {
            throw NeardupException.usage(
                    "--files measures 'run' and 'dedupe' on a file against the stream: leave out"
                            + " --dedupe, --scale-curve, --live, --write-corpus and --hot-copies");
        }
        if (o.live() != null
                && (o.dedupe()
                        || o.scaleCurve() != null
                        || o.writeCorpus() != null
                        || o.hotCopies() > 0)) {
            throw NeardupException.usage(
                    "--live measures a live stream only: leave out --dedupe, --scale-curve,"
                            + " --write-corpus and --hot-copies");
        }
        Duration every = Progress.parseInterval(o.progressInterval());
        PrintWriter err = o.quiet() ? new PrintWriter(java.io.Writer.nullWriter()) : stderr;
        if (o.writeCorpus() != null) {
            CliFiles.writableFile("--write-corpus", o.writeCorpus().toString());
            long start = System.nanoTime();
            BenchCorpus.Written written = corpus().write(o.writeCorpus(), o.corpusFiles());
            err.printf(
                    Locale.ROOT,
                    "neardup bench: wrote %,d documents (%.1f MB of text, %.0f%% near-duplicates)"
                            + " to %s in %.1f s%n",
                    documents,
                    written.bytes() / 1e6,
                    100 * o.duplicateFraction(),
                    written.files().size() == 1
                            ? written.files().get(0)
                            : written.files().size()
                                    + " files, "
                                    + written.files().get(0).getFileName()
                                    + " to "
                                    + written.files().get(written.files().size() - 1).getFileName(),
                    (System.nanoTime() - start) / 1e9);
            return 0;
        }
        if (o.dedupe()) {
            return new DedupeBench(this, out, err, every).run();
        }
        if (o.files() != null) {
            return new FileBench(this, out, err, every).run();
        }
        if (o.scaleCurve() != null) {
            return new ScaleCurve(this, out, err, every).run();
        }
        if (o.live() != null) {
            return new LiveBench(this, out, err).run();
        }
        Progress progress = progress(err, every, Progress.run(counts));
        Configuration conf = o.jobConfiguration().get();
        int p = conf.get(CoreOptions.DEFAULT_PARALLELISM);
        NearDupSettings settings = EmbeddedJob.settings(conf);

        // The warm-up documents come first in the same input and job, by default as many as are
        // measured: the rate and CPU time are measured from the last of them on, when the job's
        // code is compiled and its state is not empty (docs/design/embedded-mode.md).
        int warmUp = o.warmUp() != null ? o.warmUp() : documents;
        try (WorkDir dir = WorkDir.of(null, "nd-bench-");
                Interruption interruption = removedOnSignal(dir, err)) {
            Path work = dir.path();
            err.println(
                    "neardup bench: generating "
                            + (warmUp + documents)
                            + " documents ("
                            + warmUp
                            + " to warm up)");
            BenchCorpus corpus = corpus(warmUp + documents);
            Path input = work.resolve("bench.jsonl");
            long bytes = corpus.write(input);

            err.println("neardup bench: signature step, one thread");
            Signature signature =
                    signatureOnly(settings, corpus.texts(Math.min(documents, SIGNATURE_DOCUMENTS)));
            double signatureDocsPerSecond = signature.docsPerSecond();

            int warmUpRuns = 0;
            if (warmUp > 0) {
                Path warmUpInput = work.resolve("warm-up.jsonl");
                BenchCorpus.write(
                        warmUpInput, Math.min(warmUp, WARM_UP_RUN_DOCUMENTS), corpus::text);
                warmUpRuns = warmUpRuns(conf, settings, warmUpInput, work, err, progress);
                Files.delete(warmUpInput);
            }
            err.println("neardup bench: whole job, parallelism " + p);
            Map<String, Object> job =
                    wholeJob(conf, settings, input, work, err, progress, "measured", warmUp, false);
            err.println("neardup bench: keyed path cut, parallelism " + p);
            Map<String, Object> cut =
                    wholeJob(conf, settings, input, work, err, progress, "cut", warmUp, true);

            Map<String, Object> r = new LinkedHashMap<>();
            r.put("machine", machine());
            r.put("settings", SimilarityMode.of(settings).describe());
            r.put("documents", documents);
            r.put("inputMegabytes", bytes / 1e6);
            r.put("parallelism", p);
            r.put("checkpointInterval", OptionValues.format(o.checkpointInterval()));
            r.put("warmUpDocuments", warmUp);
            r.put("warmUpRuns", warmUpRuns);
            r.put("stateBackend", o.stateBackend());
            r.put("signatureOnlyDocsPerSecond", signatureDocsPerSecond);
            r.put(
                    "signatureOnlyMegabytesPerSecond",
                    signatureDocsPerSecond * bytes / corpus.size() / 1e6);
            double jobCpu = (double) job.remove("cpuMicrosPerDocument");
            double jobJit = (double) job.remove("jitMicrosPerDocument");
            r.putAll(job);
            // What a bucket member keeps to verify, and how many band keys (members) a document
            // has: the sketch's share of the state per document. Containment mode keeps one
            // sample per document in the sample store instead, none in the members.
            SimilarityMode mode = SimilarityMode.of(settings);
            boolean store = mode.candidateSite() == CandidateSite.SAMPLE_STORE;
            int packed = mode.verification().packedBytes();
            double meanPacked = signature.meanPackedBytes();
            int keys = settings.similarity().bandKeys();
            r.put("bandKeysPerDocument", keys);
            r.put("verifyBytesPerMember", store ? 0 : packed);
            r.put("verifyBytesPerDocument", store ? Math.round(meanPacked) : (long) keys * packed);
            r.put("sampleStore", store);
            r.put("sketch", mode.verification().sketchName());
            double wholeJob = (double) job.get("jobDocsPerSecondAfterStartup");
            r.put("jobToSignatureRatio", wholeJob / signatureDocsPerSecond);
            if (o.hotCopies() > 0) {
                err.println(
                        "neardup bench: hot bucket, %s copies of one page among the %s documents"
                                .formatted(o.hotCopies(), documents));
                Path hotInput = work.resolve("hot.jsonl");
                writeHotInput(hotInput, corpus);
                Map<String, Object> hot =
                        wholeJob(
                                conf, settings, hotInput, work, err, progress, "hot", warmUp,
                                false);
                r.put("hotCopies", o.hotCopies());
                r.put("hotDocsPerSecond", hot.get("jobDocsPerSecondAfterStartup"));
                r.put(
                        "hotToDistinctRatio",
                        (double) hot.get("jobDocsPerSecondAfterStartup") / wholeJob);
                r.put("hotAlerts", hot.get("alerts"));
                r.put("hotAlertsNamingTheFirstCopy", hot.get("alertsNamingFirstCopy"));
                r.put("hotStateBytes", hot.get("savepointBytes"));
            }
            r.put("peakRssMegabytes", MemoryPeaks.peakRssMegabytes());
            double cutJob = (double) cut.get("jobDocsPerSecondAfterStartup");
            r.put("cutJobDocsPerSecondAfterStartup", cutJob);
            r.put("cutJobCpuMicrosPerDocument", cut.get("cpuMicrosPerDocument"));
            r.put("jobCpuMicrosPerDocument", jobCpu);
            r.put("signatureCpuMicrosPerDocument", signature.cpuMicrosPerDocument());
            r.put("jobToCutJobRatio", wholeJob / cutJob);
            r.put("jobCpuToSignatureCpuRatio", jobCpu / signature.cpuMicrosPerDocument());
            r.put("jobJitMicrosPerDocument", jobJit);
            r.put("cutJobJitMicrosPerDocument", cut.get("jitMicrosPerDocument"));
            print(out, r);
            return 0;
        }
    }

    /** {@code --scale-curve} and {@code --plot}: their values, and what they cannot go with. */
    private void checkScaleCurve() {
        List<Integer> sizes = o.scaleCurve();
        if (sizes == null) {
            if (o.plot() != null) {
                throw NeardupException.usage("--plot draws the --scale-curve: give both");
            }
            return;
        }
        if (o.dedupe() || o.writeCorpus() != null || o.hotCopies() > 0) {
            throw NeardupException.usage(
                    "--scale-curve runs the streaming job only: leave out --dedupe,"
                            + " --write-corpus and --hot-copies");
        }
        if (sizes.size() < 2) {
            throw NeardupException.usage(
                    "--scale-curve needs at least two document counts, for example"
                            + " 100000,1000000,5000000; got "
                            + sizes);
        }
        for (int i = 0; i < sizes.size(); i++) {
            if (sizes.get(i) < 100 || (i > 0 && sizes.get(i) <= sizes.get(i - 1))) {
                throw NeardupException.usage(
                        "--scale-curve document counts must be at least 100 and increasing, got "
                                + sizes);
            }
        }
    }

    BenchCorpus corpus() {
        return corpus(o.documents());
    }

    /** The generated crawl of {@code documents} documents, at this run's size and duplicates. */
    BenchCorpus corpus(int documents) {
        return new BenchCorpus(documents, o.documentSize(), o.duplicateFraction());
    }

    /** The first copy's id in the hot-bucket corpus. */
    private static final String FIRST_COPY = "hot-0";

    /** The distinct documents with {@code hotCopies} copies of one page spread evenly. */
    private void writeHotInput(Path input, BenchCorpus corpus) throws IOException {
        String page = SyntheticText.prose(7, o.documentSize());
        int hotCopies = o.hotCopies();
        int total = corpus.size() + hotCopies;
        int copy = 0;
        int distinct = 0;
        try (BufferedWriter w = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
            for (int i = 0; i < total; i++) {
                // Copy k goes at position floor(k * total / hotCopies): evenly spread.
                boolean isCopy = copy < hotCopies && (long) copy * total / hotCopies <= i;
                if (isCopy) {
                    w.write(
                            BenchCorpus.line(
                                    "hot-" + copy, "https://hot.example.org/" + copy, page));
                    copy++;
                } else {
                    String url = "https://example.org/" + distinct;
                    w.write(BenchCorpus.line("doc-" + distinct, url, corpus.text(distinct)));
                    distinct++;
                }
                w.write('\n');
            }
        }
    }

    /** The signature step on one thread: documents/s and its CPU time per document. */
    /**
     * @param meanPackedBytes the mean bytes of a document's packed sketch (what a bucket member or
     *     the sample store keeps), over the texts
     */
    record Signature(double docsPerSecond, double cpuMicrosPerDocument, double meanPackedBytes) {}

    /** Documents of the signature step, held in memory (the rest of the run streams the corpus). */
    static final int SIGNATURE_DOCUMENTS = 20_000;

    /**
     * Signature-only documents/s on one thread: the best of three passes over {@code texts}, after
     * a short warm-up; and the least CPU time of the thread per document in a pass (why:
     * docs/design/embedded-mode.md).
     */
    static Signature signatureOnly(NearDupSettings settings, List<String> texts) {
        var threads = ManagementFactory.getThreadMXBean();
        TextSketcher sketcher = SimilarityMode.of(settings).newSketcher();
        long sink = 0;
        for (int round = 0; round < 2; round++) {
            for (String t : texts.subList(0, Math.min(texts.size(), 2000))) {
                sink += sketcher.sketch(t).bandKeys()[0];
            }
        }
        double best = 0;
        double leastCpu = Double.MAX_VALUE;
        for (int pass = 0; pass < 3; pass++) {
            long start = System.nanoTime();
            long cpu = threads.getCurrentThreadCpuTime();
            for (String t : texts) {
                sink += sketcher.sketch(t).bandKeys()[0];
            }
            leastCpu = Math.min(leastCpu, (threads.getCurrentThreadCpuTime() - cpu) / 1e3);
            double seconds = (System.nanoTime() - start) / 1e9;
            best = Math.max(best, texts.size() / seconds);
        }
        if (sink == 42) {
            System.out.print(""); // keep the work observable
        }
        // Outside the timed passes: a sketch's size may vary by document (exact cosine vectors).
        Verification verification = SimilarityMode.of(settings).verification();
        long packed = 0;
        int sketched = 0;
        for (String t : texts) {
            DocumentSketcher.Sketch sketch = sketcher.sketch(t);
            if (sketch.shingleCount() > 0) { // the job's dead letters NO_TEXT keep nothing
                packed += verification.pack(sketch.signature()).length;
                sketched++;
            }
        }
        return new Signature(
                best, leastCpu / texts.size(), sketched == 0 ? 0 : (double) packed / sketched);
    }

    /**
     * The CPU time of this JVM's JIT compiler threads, in nanoseconds: the sum over the threads
     * named {@code C1/C2 CompilerThread} in {@code /proc/self/task} (Linux; clock ticks of 10 ms).
     * Elsewhere, the JIT's own compilation time, which also counts the time its threads waited for
     * a core. A compiler thread that ends (the JVM starts and stops them with the load) takes its
     * time with it, so a difference of two readings is at least 0 and may fall short.
     */
    static long jitCpuNanos() {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            var jit = ManagementFactory.getCompilationMXBean();
            return jit != null && jit.isCompilationTimeMonitoringSupported()
                    ? jit.getTotalCompilationTime() * 1_000_000
                    : 0;
        }
        long ticks = 0;
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path t : (Iterable<Path>) threads::iterator) {
                try {
                    String name = Files.readString(t.resolve("comm")).strip();
                    if (!name.matches("C[12] CompilerThre.*")) {
                        continue;
                    }
                    String[] f = statFields(t.resolve("stat"));
                    ticks += Long.parseLong(f[14 - 3]) + Long.parseLong(f[15 - 3]); // utime, stime
                } catch (IOException | RuntimeException gone) {
                    // The thread ended meanwhile.
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return ticks * NANOS_PER_TICK;
    }

    /** The clock tick of {@code /proc}'s CPU times (USER_HZ: 100 per second on Linux). */
    static final long NANOS_PER_TICK = 10_000_000;

    /**
     * The fields of a {@code /proc} {@code stat} file after the command name in parentheses (which
     * may hold spaces): field n of proc(5) is at index n - 3 (the state, field 3, at 0).
     */
    static String[] statFields(Path stat) throws IOException {
        String line = Files.readString(stat);
        return line.substring(line.lastIndexOf(')') + 2).split(" ");
    }

    /** The CPU time of this process (the MiniCluster runs in it), in nanoseconds. */
    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * Runs the whole job over {@code input} (the warm-up documents) until the JIT compilers are
     * quiet: until they took less than {@link #QUIET_JIT_SHARE} of the process's CPU in a run, or
     * for {@link #MAX_WARM_UP_RUNS} runs. The JVM's first job compiles Flink's runtime and the
     * job's code, and on 2 cores its one C2 thread needs more than half a minute of the job running
     * for that: measured in the first job, the compiler threads were a quarter of the whole job's
     * CPU after 60,000 warm-up documents, while the keyed path cut, run next, found the code
     * compiled.
     *
     * @return the runs
     */
    int warmUpRuns(
            Configuration conf,
            NearDupSettings settings,
            Path input,
            Path work,
            PrintWriter err,
            Progress progress)
            throws Exception {
        int run = 0;
        double jitShare = 1;
        while (run < MAX_WARM_UP_RUNS && jitShare >= QUIET_JIT_SHARE) {
            run++;
            err.println("neardup bench: whole job, warm-up run " + run);
            Map<String, Object> r =
                    wholeJob(conf, settings, input, work, err, progress, "warm-up", 0, false);
            jitShare =
                    (double) r.get("jitMicrosPerDocument")
                            / Math.max(1e-9, (double) r.get("cpuMicrosPerDocument"));
            err.printf(
                    Locale.ROOT,
                    "neardup bench: the JIT compilers took %.0f%% of the CPU in warm-up run %d%n",
                    100 * jitShare,
                    run);
        }
        return run;
    }

    /** The JIT compilers' share of the CPU in a warm-up run below which they count as quiet. */
    static final double QUIET_JIT_SHARE = 0.10;

    /**
     * The documents of a warm-up run at most (the first of the warm-up documents): enough for the
     * JIT, and a large --warm-up does not make each run long.
     */
    static final int WARM_UP_RUN_DOCUMENTS = 60_000;

    /** Warm-up runs at most, whether or not the JIT compilers are quiet by then. */
    static final int MAX_WARM_UP_RUNS = 6;

    /**
     * Runs the whole job over {@code input} until every verdict is out, or with {@code cut} the job
     * with its keyed path cut ({@link EmbeddedJob#startKeyedPathCut}) until every document is
     * sketched. Its rate and the process's CPU time per document are taken after start-up and
     * warm-up: from the time the first {@code warmUp} verdicts (documents sketched), and at least
     * one, are seen to the last, over the documents in between.
     */
    Map<String, Object> wholeJob(
            Configuration conf,
            NearDupSettings settings,
            Path input,
            Path work,
            PrintWriter err,
            Progress progress,
            String phase,
            long warmUp,
            boolean cut)
            throws Exception {
        Configuration flink = EmbeddedJob.configuration(conf, work, o.checkpointInterval());
        counts.configure(flink); // the counts of this phase's job, from 0
        Path alerts = work.resolve("alerts.jsonl");
        long start = System.nanoTime();
        long startCpu = processCpuNanos();
        long startJit = jitCpuNanos();
        JobClient job =
                cut
                        ? EmbeddedJob.startKeyedPathCut(flink, settings, input)
                        : EmbeddedJob.start(
                                flink, settings, input, alerts.toString(), null, null, true);
        // The phase (and its rate) starts with the job: counting a large input's lines takes a
        // while, and the job reads meanwhile.
        if (progress != null) {
            progress.phase(phase);
        }
        long firstVerdict = 0;
        long firstVerdictCpu = startCpu;
        long firstVerdictJit = startJit;
        long doneAtFirstVerdict = 0;
        long expected;
        try (Stream<String> lines = Files.lines(input, StandardCharsets.UTF_8)) {
            expected = lines.count();
        }
        StallWatch stall = new StallWatch(STALL_TIMEOUT);
        // What the run owes every input line: a verdict, or with the keyed path cut a sketch.
        LongSupplier done =
                cut
                        ? () -> counts.count(JobCounts.DOCUMENTS)
                        : () -> counts.written(EmbeddedJob.VERDICTS);
        String owed =
                cut
                        ? "documents sketched (a sketch is owed to every input line)"
                        : "verdicts written (a verdict is owed to every input line)";
        while (done.getAsLong() < expected) {
            long finished = done.getAsLong();
            if (firstVerdict == 0 && finished > 0 && finished >= warmUp) {
                firstVerdict = System.nanoTime();
                firstVerdictCpu = processCpuNanos();
                firstVerdictJit = jitCpuNanos();
                doneAtFirstVerdict = finished;
            }
            if (job.getJobStatus().get().isGloballyTerminalState()) {
                throw NeardupException.failure(
                        "the job ended early: " + job.getJobStatus().get(), null);
            }
            if (stall.stalled(
                    finished
                            + counts.written(EmbeddedJob.ALERTS)
                            + counts.count(JobCounts.DOCUMENTS))) {
                job.cancel();
                throw NeardupException.failure(
                        ("the job stalled: no document sketched, alert or verdict for %s s, with"
                                        + " %s of %s %s; the job was cancelled. Please report it"
                                        + " with the command line.")
                                .formatted(stall.secondsSinceChange(), finished, expected, owed),
                        null);
            }
            if (progress != null) {
                progress.maybeReport();
            }
            Thread.sleep(20);
        }
        long end = System.nanoTime();
        long endCpu = processCpuNanos();
        long endJit = jitCpuNanos();
        if (progress != null) {
            progress.clear();
        }
        if (firstVerdict == 0 || end - firstVerdict < MIN_WINDOW.toNanos()) {
            // No verdict seen, or the rest of the input went by in less than MIN_WINDOW (a small
            // input: the cut job sketches hundreds of documents between two polls): too short to
            // measure the process's CPU time in, so measure from the start of the job.
            firstVerdict = start;
            firstVerdictCpu = startCpu;
            firstVerdictJit = startJit;
            doneAtFirstVerdict = 0;
        }
        Map<String, Object> r = new LinkedHashMap<>();
        double seconds = (end - start) / 1e9;
        r.put("jobSeconds", seconds);
        r.put("jobDocsPerSecond", expected / seconds);
        // The documents done after start-up: with the keyed path cut, thousands are sketched before
        // the first is seen here (the line count above runs meanwhile); verdicts start later.
        long afterStartup = expected - doneAtFirstVerdict;
        r.put(
                "jobDocsPerSecondAfterStartup",
                afterStartup / Math.max(1e-3, (end - firstVerdict) / 1e9));
        r.put("cpuMicrosPerDocument", (endCpu - firstVerdictCpu) / 1e3 / afterStartup);
        // The JIT compilers' share of it (their threads' CPU time): a job that runs for days has
        // compiled its code long ago.
        r.put("jitMicrosPerDocument", Math.max(0, endJit - firstVerdictJit) / 1e3 / afterStartup);
        err.println(
                "neardup bench: all "
                        + (cut ? "documents sketched" : "verdicts in")
                        + "; stopping with a savepoint");
        String savepoint = work.resolve("savepoints").toUri().toString();
        savepoint = job.stopWithSavepoint(false, savepoint, SavepointFormatType.NATIVE).get();
        job.getJobExecutionResult().get(); // until its cluster has shut down
        if (cut) {
            return r;
        }
        long stateBytes = directorySize(Path.of(java.net.URI.create(savepoint)));

        double[] latencies = latencies(alerts, a -> true);
        r.put("alertsNamingFirstCopy", alertsNaming(alerts, FIRST_COPY));
        r.put("alerts", latencies.length);
        r.put("latencyP50Millis", percentile(latencies, 0.50));
        r.put("latencyP99Millis", percentile(latencies, 0.99));
        r.put("savepointBytes", stateBytes);
        r.put("stateBytesPerDocument", (double) stateBytes / expected);
        return r;
    }

    private static long alertsNaming(Path alerts, String id) throws IOException {
        String needle = "\"duplicateOf\":" + dev.neardup.io.Json.write(id) + ",";
        try (Stream<String> lines = Files.lines(alerts, StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains(needle)).count();
        }
    }

    /** Parse-to-detection latencies of the alerts (pairs; cluster merges are left out). */
    /**
     * The sorted latencies (ms, event time to detection) of the alerts or verdicts in {@code file}
     * that {@code which} takes, cluster merges left out; none when there is no file.
     */
    static double[] latencies(Path file, java.util.function.Predicate<JsonNode> which)
            throws IOException {
        DoubleStream.Builder out = DoubleStream.builder();
        if (!Files.exists(file)) {
            return new double[0];
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            JsonNode a = dev.neardup.io.Json.MAPPER.readTree(line);
            if (!a.has("event") && which.test(a)) {
                Instant eventTime = Instant.parse(a.get("eventTime").asText());
                out.add(
                        Duration.between(eventTime, Instant.parse(a.get("detectedAt").asText()))
                                .toMillis());
            }
        }
        return out.build().sorted().toArray();
    }

    static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static long directorySize(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    public static String machine() {
        String cpu = "unknown CPU";
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            cpu =
                    lines.filter(l -> l.startsWith("model name"))
                            .map(l -> l.substring(l.indexOf(':') + 1).strip())
                            .findFirst()
                            .orElse(cpu);
        } catch (IOException | RuntimeException e) {
            // not Linux: keep "unknown CPU"
        }
        return String.format(
                Locale.ROOT,
                "%s, %d cores, Java %s (%s), max heap %d MB, %s %s",
                cpu,
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"),
                System.getProperty("java.vm.name"),
                Runtime.getRuntime().maxMemory() >> 20,
                System.getProperty("os.name"),
                System.getProperty("os.arch"));
    }

    /**
     * With {@code --json}, prints {@code r} as one JSON object and returns null; else returns a
     * formatter for its table on {@code out}, with the machine and settings lines written, their
     * labels padded to {@code labelWidth}.
     */
    Formatter table(PrintWriter out, Map<String, Object> r, int labelWidth) {
        if (o.json()) {
            out.println(dev.neardup.io.Json.write(r));
            return null;
        }
        Formatter f = new Formatter(out, Locale.ROOT);
        String row = "%-" + labelWidth + "s%s%n";
        f.format(row, "machine", r.get("machine"));
        f.format(row, "settings", r.get("settings"));
        return f;
    }

    /**
     * The table's line for a crawl written to one JSON Lines file: {@code documents}, {@code
     * inputMegabytes}, {@code duplicateFraction} and {@code corpusSeconds} of {@code r}.
     */
    static void corpusLine(Formatter f, Map<String, Object> r) {
        f.format(
                "corpus              %,d documents, %.1f MB, %.0f%% near-duplicates, one JSON"
                        + " Lines file (written in %.0f s)%n",
                r.get("documents"),
                r.get("inputMegabytes"),
                100 * (double) r.get("duplicateFraction"),
                r.get("corpusSeconds"));
    }

    private void print(PrintWriter out, Map<String, Object> r) {
        Formatter f = table(out, r, 20);
        if (f == null) {
            return;
        }
        f.format(
                "corpus              %d documents, %.1f MB, %.0f%% near-duplicates%n",
                o.documents(), r.get("inputMegabytes"), 100 * o.duplicateFraction());
        f.format(
                "signature only      %,.0f documents/s  (%.1f MB/s, one thread, best of 3"
                        + " passes)%n",
                r.get("signatureOnlyDocsPerSecond"), r.get("signatureOnlyMegabytesPerSecond"));
        f.format(
                "whole job           %,.0f documents/s  (%,.0f after start-up; parallelism %d,"
                        + " %s state, checkpoints every %s; measured after %,d warm-up"
                        + " documents in the same job, after %d warm-up runs of the whole job)%n",
                r.get("jobDocsPerSecond"),
                r.get("jobDocsPerSecondAfterStartup"),
                r.get("parallelism"),
                o.stateBackend(),
                OptionValues.format(o.checkpointInterval()),
                r.get("warmUpDocuments"),
                r.get("warmUpRuns"));
        f.format(
                "job / signature     %.0f%%  (after start-up)%n",
                100 * (double) r.get("jobToSignatureRatio"));
        f.format(
                "keyed path cut      %,.0f documents/s after start-up  (the same source, parsing"
                        + " and signature operator into a discarding sink; same parallelism and"
                        + " warm-up)%n",
                r.get("cutJobDocsPerSecondAfterStartup"));
        f.format(
                "job / cut job       %.0f%%  (after start-up: what the band buckets and verdicts"
                        + " leave of the rate)%n",
                100 * (double) r.get("jobToCutJobRatio"));
        f.format(
                "CPU per document    %.0f us whole job, %.0f us keyed path cut, %.0f us signature"
                        + " step  (process CPU after start-up; the step's thread, best pass)%n",
                r.get("jobCpuMicrosPerDocument"),
                r.get("cutJobCpuMicrosPerDocument"),
                r.get("signatureCpuMicrosPerDocument"));
        f.format(
                "job CPU / signature %.1f x  (CPU per document)%n",
                r.get("jobCpuToSignatureCpuRatio"));
        f.format(
                "JIT in that CPU     %.0f us whole job, %.0f us keyed path cut  (CPU time of the"
                        + " JIT compiler threads per document, in the measured window)%n",
                r.get("jobJitMicrosPerDocument"), r.get("cutJobJitMicrosPerDocument"));
        f.format(
                "latency to alert    p50 %.0f ms, p99 %.0f ms  (%d alerts; parse to detection,"
                        + " input read as fast as possible)%n",
                r.get("latencyP50Millis"), r.get("latencyP99Millis"), r.get("alerts"));
        f.format(
                "state               %.0f bytes per live document  (%,d bytes native savepoint;"
                        + " target <= 1024)%n",
                r.get("stateBytesPerDocument"), r.get("savepointBytes"));
        if (Boolean.TRUE.equals(r.get("sampleStore"))) {
            f.format(
                    "sketch              %,d bytes per document in the sample store, none in its %d"
                            + " bucket members  (%s)%n",
                    r.get("verifyBytesPerDocument"), r.get("bandKeysPerDocument"), r.get("sketch"));
        } else {
            f.format(
                    "sketch              %d bytes per bucket member to verify x %d band keys ="
                            + " %,d bytes per document  (%s)%n",
                    r.get("verifyBytesPerMember"),
                    r.get("bandKeysPerDocument"),
                    r.get("verifyBytesPerDocument"),
                    r.get("sketch"));
        }
        if (r.containsKey("hotCopies")) {
            f.format(
                    "hot bucket          %,.0f documents/s with %,d copies of one page among"
                            + " them: %.2f x the distinct pages' rate (target >= 0.5)%n",
                    r.get("hotDocsPerSecond"), r.get("hotCopies"), r.get("hotToDistinctRatio"));
            f.format(
                    "hot alerts          %,d alerts, %,d naming the first copy (ideal: %,d, one per"
                            + " later copy); savepoint %,d bytes%n",
                    r.get("hotAlerts"),
                    r.get("hotAlertsNamingTheFirstCopy"),
                    o.hotCopies() - 1,
                    r.get("hotStateBytes"));
        }
        f.format(
                "peak memory         %,d MB resident (the whole bench process)%n",
                r.get("peakRssMegabytes"));
    }
}
