package dev.neardup.tools.bench;

import dev.neardup.config.NearDupSettings;
import dev.neardup.config.Secrets;
import dev.neardup.runtime.DedupeRun;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.runtime.EmbeddedRun;
import dev.neardup.runtime.Interruption;
import dev.neardup.runtime.NeardupException;
import dev.neardup.runtime.Progress;
import dev.neardup.runtime.SignalHandlers;
import dev.neardup.runtime.StateDir;
import dev.neardup.runtime.WorkDir;
import dev.neardup.similarity.SimilarityMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Formatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;

/**
 * {@code neardup bench --files}: the file commands against the stream, in one sitting. The
 * generated crawl ({@link BenchCorpus}) is written to a file; then, round after round, the stream's
 * rate is measured as {@code bench} measures it (the whole job in this process, after warm-up, from
 * the last warm-up document on), and {@code neardup run --input FILE} and {@code neardup dedupe
 * --input FILE} each run in a new JVM, timed from its launch to its exit as a user meets them, then
 * once more in this JVM, whose JIT compilers have compiled the job already: the file path's own
 * speed, without the JVM's start and warm-up. The medians of the rounds are compared, so that a
 * machine whose speed drifts during the sitting moves both sides alike.
 */
record FileBench(Bench bench, PrintWriter out, PrintWriter err, Duration progressEvery) {

    /** The file commands: their names in the results and their output flags. */
    private enum Command {
        RUN("run", "--alerts", "alerts.jsonl", "--verdicts", "verdicts.jsonl"),
        DEDUPE("dedupe", "--clusters", "clusters.jsonl", "--pairs", "pairs.jsonl");

        final String name;
        final List<String> outputs;

        Command(String name, String... outputs) {
            this.name = name;
            this.outputs = List.of(outputs);
        }

        /**
         * Runs the command on {@code file} in this JVM, quiet, with its outputs in {@code dir}, as
         * its command line would; returns its exit code.
         */
        int inThisJvm(Configuration conf, Path file, Path dir, PrintWriter err) throws Exception {
            List<String> files = List.of(file.toString());
            String first = dir.resolve(outputs.get(1)).toString();
            String second = dir.resolve(outputs.get(3)).toString();
            InputStream none = InputStream.nullInputStream();
            if (this == RUN) {
                return EmbeddedRun.run(
                        new EmbeddedRun.Options(
                                conf, false, files, none, first, second, null, null, true, null,
                                null, null),
                        err);
            }
            DedupeRun.Options options =
                    new DedupeRun.Options(
                            conf, null, false, files, none, first, null, second, null, null, null,
                            null, null, null, null, null, true);
            DedupeRun.check(options);
            return DedupeRun.run(options, err);
        }
    }

    int run() throws Exception {
        Bench.Options o = bench.o;
        Bench.FileCommands files = o.files();
        Configuration conf = o.jobConfiguration().get();
        NearDupSettings settings = EmbeddedJob.settings(conf);
        int documents = o.documents();
        int warmUp = o.warmUp() != null ? o.warmUp() : documents;
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("machine", Bench.machine());
        r.put("settings", SimilarityMode.of(settings).describe());
        r.put("documents", documents);
        r.put("parallelism", conf.get(CoreOptions.DEFAULT_PARALLELISM));
        r.put("rounds", files.rounds());
        Map<String, String> shown = new LinkedHashMap<>();
        files.settings().forEach((key, value) -> shown.put(key, Secrets.redact(key, value)));
        r.put("fileCommandSettings", shown);
        // The command running on the file when bench is interrupted (Ctrl-C, SIGTERM, SIGHUP):
        // stopped as a user's signal would stop it (it removes its own temporary files), then
        // bench's work directory is removed and bench exits.
        AtomicReference<Process> running = new AtomicReference<>();
        try (WorkDir dir = WorkDir.of(null, "nd-bench-");
                Interruption interruption =
                        Interruption.install(
                                err,
                                null,
                                () -> {
                                    stop(running.get());
                                    dir.close();
                                })) {
            Path work = dir.path();
            Path file = work.resolve("crawl.jsonl");
            err.println("neardup bench: writing " + documents + " generated documents to a file");
            long start = System.nanoTime();
            long bytes = bench.corpus().write(file);
            r.put("inputMegabytes", bytes / 1e6);
            r.put("duplicateFraction", o.duplicateFraction());
            r.put("corpusSeconds", (System.nanoTime() - start) / 1e9);

            // The stream's input, as 'bench' has it: the warm-up documents, then as many as the
            // file has, in one job measured from the last warm-up document on.
            BenchCorpus corpus = bench.corpus(warmUp + documents);
            Path streamInput = work.resolve("stream.jsonl");
            corpus.write(streamInput);
            Progress progress = bench.progress(err, progressEvery, Progress.run(bench.counts));
            double[] streamRates = new double[files.rounds()];
            double[] streamCpu = new double[files.rounds()];
            int commands = Command.values().length;
            double[][] seconds = new double[commands][files.rounds()];
            double[][] cpu = new double[commands][files.rounds()];
            double[][] warmSeconds = new double[commands][files.rounds()];
            double[][] warmCpu = new double[commands][files.rounds()];
            Configuration fileConf = Configuration.fromMap(files.settings());
            int warmUpRuns = 0;
            for (int round = 0; round < files.rounds(); round++) {
                if (round == 0 && warmUp > 0) {
                    Path warmUpInput = work.resolve("warm-up.jsonl");
                    BenchCorpus.write(
                            warmUpInput,
                            Math.min(warmUp, Bench.WARM_UP_RUN_DOCUMENTS),
                            corpus::text);
                    warmUpRuns = bench.warmUpRuns(conf, settings, warmUpInput, work, err, progress);
                    java.nio.file.Files.delete(warmUpInput);
                }
                err.printf(Locale.ROOT, "neardup bench: round %d, the stream%n", round + 1);
                Path streamWork = java.nio.file.Files.createDirectories(work.resolve("stream"));
                Map<String, Object> stream =
                        bench.wholeJob(
                                conf,
                                settings,
                                streamInput,
                                streamWork,
                                err,
                                progress,
                                "stream",
                                warmUp,
                                false);
                streamRates[round] = (double) stream.get("jobDocsPerSecondAfterStartup");
                streamCpu[round] = (double) stream.get("cpuMicrosPerDocument");
                StateDir.deleteTree(streamWork); // its state, savepoint and alerts
                for (Command command : Command.values()) {
                    err.printf(
                            Locale.ROOT,
                            "neardup bench: round %d, neardup %s --input (a new JVM)%n",
                            round + 1,
                            command.name);
                    Launched launched = launch(files, command, file, work, running, interruption);
                    if (launched == null || interruption.interrupted()) {
                        return interruption.exitCode(); // the signal's thread ends the process
                    }
                    seconds[command.ordinal()][round] = launched.seconds();
                    cpu[command.ordinal()][round] = launched.cpuSeconds();
                }
                for (Command command : Command.values()) {
                    err.printf(
                            Locale.ROOT,
                            "neardup bench: round %d, neardup %s --input (in this JVM, warm)%n",
                            round + 1,
                            command.name);
                    Launched here = timedInThisJvm(command, fileConf, file, work, err);
                    if (here.signalExit() != 0) {
                        return here.signalExit(); // the command took the signal and stopped
                    }
                    warmSeconds[command.ordinal()][round] = here.seconds();
                    warmCpu[command.ordinal()][round] = here.cpuSeconds();
                }
            }
            r.put("warmUpDocuments", warmUp);
            r.put("warmUpRuns", warmUpRuns);
            double streamMedian = median(streamRates);
            double streamCpuMedian = median(streamCpu);
            r.put("streamDocsPerSecondAfterStartup", streamRates);
            r.put("streamCpuMicrosPerDocument", streamCpu);
            r.put("streamMedianDocsPerSecond", streamMedian);
            r.put("streamMedianCpuMicrosPerDocument", streamCpuMedian);
            for (Command command : Command.values()) {
                int c = command.ordinal();
                put(r, command.name, seconds[c], cpu[c], documents, streamMedian, streamCpuMedian);
                put(
                        r,
                        command.name + "Warm",
                        warmSeconds[c],
                        warmCpu[c],
                        documents,
                        streamMedian,
                        streamCpuMedian);
                // What a new JVM adds: its start, and the JIT compiling the job while it runs.
                r.put(
                        command.name + "JvmStartAndWarmUpSeconds",
                        median(seconds[c]) - median(warmSeconds[c]));
            }
        }
        print(r);
        return 0;
    }

    /**
     * The results of one way of running a command, under names starting with {@code name}: each
     * round's wall and CPU seconds, their medians, and the median's pages/s and CPU per page as
     * shares of the stream's.
     */
    private static void put(
            Map<String, Object> r,
            String name,
            double[] seconds,
            double[] cpu,
            int documents,
            double streamMedian,
            double streamCpuMedian) {
        double medianSeconds = median(seconds);
        double pagesPerSecond = documents / medianSeconds;
        double cpuMicros = median(cpu) * 1e6 / documents;
        r.put(name + "Seconds", seconds);
        r.put(name + "CpuSeconds", cpu);
        r.put(name + "MedianSeconds", medianSeconds);
        r.put(name + "MedianPagesPerSecond", pagesPerSecond);
        r.put(name + "ToStreamRatio", pagesPerSecond / streamMedian);
        r.put(name + "MedianCpuMicrosPerPage", cpuMicros);
        r.put(name + "CpuToStreamRatio", streamCpuMedian / cpuMicros);
    }

    /**
     * A file command's run: wall seconds from launch to exit, CPU seconds (NaN if unknown), and the
     * exit code of a run that a signal stopped ({@link SignalHandlers#exitCode}), else 0.
     */
    record Launched(double seconds, double cpuSeconds, int signalExit) {}

    /**
     * Runs {@code neardup COMMAND --input file} with its outputs in {@code work} in a new JVM and
     * waits for it; its stdout and stderr go to a log file, shown in part if it fails.
     *
     * @param running where the running process is while it runs, for the signal's clean-up
     * @return its run, or null when a signal to bench stopped it
     */
    private static Launched launch(
            Bench.FileCommands files,
            Command command,
            Path file,
            Path work,
            AtomicReference<Process> running,
            Interruption interruption)
            throws IOException, InterruptedException {
        Path dir = java.nio.file.Files.createDirectories(work.resolve(command.name));
        List<String> args = new ArrayList<>(files.launcher());
        args.add(command.name);
        args.add("--input");
        args.add(file.toString());
        for (int i = 0; i < command.outputs.size(); i += 2) {
            args.add(command.outputs.get(i));
            args.add(dir.resolve(command.outputs.get(i + 1)).toString());
        }
        files.settings()
                .forEach(
                        (key, value) -> {
                            args.add("-D");
                            args.add(key + "=" + value);
                        });
        Path log = work.resolve(command.name + ".log");
        ProcessBuilder builder =
                new ProcessBuilder(args).redirectErrorStream(true).redirectOutput(log.toFile());
        long cpu = childrenCpuTicks();
        long start = System.nanoTime();
        Process process = builder.start();
        process.getOutputStream().close(); // no standard input
        running.set(process);
        int exit;
        try {
            exit = process.waitFor();
        } finally {
            running.set(null);
            process.destroyForcibly(); // on an exception here; it has ended otherwise
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        // The JDK reaps the child before waitFor returns: its CPU time is in the children's now.
        long cpuAfter = childrenCpuTicks();
        if (exit != 0 && interruption.interrupted()) {
            return null; // stopped by bench's signal
        }
        if (exit != 0) {
            List<String> lines = java.nio.file.Files.readAllLines(log, StandardCharsets.UTF_8);
            throw NeardupException.failure(
                    "neardup "
                            + command.name
                            + " exited with "
                            + exit
                            + "; its last lines: "
                            + String.join(
                                    " | ",
                                    lines.subList(Math.max(0, lines.size() - 5), lines.size())),
                    null);
        }
        StateDir.deleteTree(dir);
        return new Launched(
                seconds,
                cpu < 0 || cpuAfter < 0
                        ? Double.NaN
                        : (cpuAfter - cpu) * Bench.NANOS_PER_TICK / 1e9,
                0);
    }

    /**
     * Runs {@code neardup COMMAND --input file} in this JVM with its outputs in {@code work}, timed
     * as {@link #launch} times a new JVM (CPU time: this process's).
     *
     * @return its run; one that a signal stopped has the signal's exit code: the command's own
     *     handler took the signal and stopped its job, and bench stops too
     */
    private static Launched timedInThisJvm(
            Command command, Configuration conf, Path file, Path work, PrintWriter err)
            throws Exception {
        Path dir = java.nio.file.Files.createDirectories(work.resolve(command.name));
        long cpu = Bench.processCpuNanos();
        long start = System.nanoTime();
        int exit = command.inThisJvm(conf, file, dir, err);
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpuSeconds = (Bench.processCpuNanos() - cpu) / 1e9;
        if (exit == SignalHandlers.exitCode("INT") || exit == SignalHandlers.exitCode("HUP")) {
            err.println("neardup bench: interrupted during neardup " + command.name);
            return new Launched(seconds, cpuSeconds, exit);
        }
        if (exit != 0) {
            throw NeardupException.failure(
                    "neardup " + command.name + " in this JVM ended with " + exit, null);
        }
        StateDir.deleteTree(dir);
        return new Launched(seconds, cpuSeconds, 0);
    }

    /** How long a command on the file has to stop after SIGTERM before it is killed. */
    private static final long STOP_MILLIS = 20_000;

    /**
     * Stops {@code process}, if any, as a signal to bench would have stopped it run by hand:
     * SIGTERM, after which it stops its job and removes its temporary files; killed if it has not
     * ended within {@link #STOP_MILLIS}.
     */
    static void stop(Process process) {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The CPU time (user and system) of this process's children that have ended and been waited
     * for, in clock ticks ({@code cutime} and {@code cstime} of {@code /proc/self/stat}); -1 where
     * there is no {@code /proc}.
     */
    static long childrenCpuTicks() {
        try {
            String[] f = Bench.statFields(Path.of("/proc/self/stat"));
            return Long.parseLong(f[16 - 3]) + Long.parseLong(f[17 - 3]); // cutime, cstime
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The median of {@code values} (the mean of the middle two of an even count). */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private void print(Map<String, Object> r) {
        Formatter f = bench.table(out, r, 20);
        if (f == null) {
            return;
        }
        Bench.corpusLine(f, r);
        f.format(
                "rounds              %d, each: the stream (the whole job in this process,"
                        + " parallelism %d, after %d warm-up runs and %,d warm-up documents), then"
                        + " run and dedupe, each in a new JVM (launch to exit), then each in this"
                        + " JVM (warm)%n",
                r.get("rounds"),
                r.get("parallelism"),
                r.get("warmUpRuns"),
                r.get("warmUpDocuments"));
        double[] rates = (double[]) r.get("streamDocsPerSecondAfterStartup");
        f.format(
                "stream              %,.0f documents/s after start-up (median; %s), %,.0f us CPU"
                        + " per document%n",
                r.get("streamMedianDocsPerSecond"),
                range(rates, "%,.0f"),
                r.get("streamMedianCpuMicrosPerDocument"));
        for (Command command : Command.values()) {
            String c = command.name;
            line(f, c + " --input", r, c);
            line(f, "  in a warm JVM", r, c + "Warm");
        }
        f.format(
                "a new JVM adds      %s (its start, and the JIT compiling the job while it"
                        + " runs: the medians in a new JVM less those in this one)%n",
                String.join(
                        ", ",
                        Arrays.stream(Command.values())
                                .map(
                                        c ->
                                                String.format(
                                                        Locale.ROOT,
                                                        "%.1f s to %s",
                                                        r.get(c.name + "JvmStartAndWarmUpSeconds"),
                                                        c.name))
                                .toList()));
    }

    /** The medians of one way of running a command ({@link #put}'s {@code name}). */
    private static void line(Formatter f, String label, Map<String, Object> r, String name) {
        f.format(
                "%-19s %.1f s (median; %s), %,.0f pages/s: %.2f of the stream's rate; %s%n",
                label,
                r.get(name + "MedianSeconds"),
                range((double[]) r.get(name + "Seconds"), "%.1f s"),
                r.get(name + "MedianPagesPerSecond"),
                r.get(name + "ToStreamRatio"),
                Double.isNaN((double) r.get(name + "MedianCpuMicrosPerPage"))
                        ? "CPU time not known on this system"
                        : String.format(
                                Locale.ROOT,
                                "%,.0f us CPU per page: %.2f of the stream's",
                                r.get(name + "MedianCpuMicrosPerPage"),
                                r.get(name + "CpuToStreamRatio")));
    }

    /** "LOW-HIGH" of {@code values}, or the one value. */
    private static String range(double[] values, String format) {
        double low = Arrays.stream(values).min().orElse(Double.NaN);
        double high = Arrays.stream(values).max().orElse(Double.NaN);
        String l = String.format(Locale.ROOT, format, low);
        return values.length == 1 ? l : l + " to " + String.format(Locale.ROOT, format, high);
    }
}
