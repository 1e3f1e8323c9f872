package dev.neardup.cli;

import dev.neardup.config.ModeSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.RuntimeOptions;
import dev.neardup.config.Setting;
import dev.neardup.tools.bench.Bench;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code neardup bench}: throughput, latency and state size on this machine ({@code Bench}). */
@Command(
        name = "bench",
        header = "Benchmark throughput, latency and state size on this machine.",
        description = {
            "Benchmark neardup on this machine with a generated crawl: signature-only documents/s"
                + " (one thread, the first 20,000 documents), whole-job documents/s on the embedded"
                + " MiniCluster with RocksDB and checkpoints, latency from parse to alert"
                + " (p50/p99), and state bytes per live document. The crawl is written to disk as"
                + " it is generated: memory does not grow with --documents.",
            "It also runs the job with its keyed path cut (source, parsing and signature"
                    + " operator into a discarding sink) at the same parallelism, and reports"
                    + " its documents/s, the CPU microseconds per document of both jobs and of"
                    + " the signature step, and the ratios whole job / cut job and whole-job CPU"
                    + " / signature CPU.",
            ""
        },
        footerHeading = "%nExample:%n",
        footer = {"  neardup bench --documents 50000 --document-size 3000 --parallelism 2"})
final class BenchCommand implements Callable<Integer>, SettingFlags.Bound {

    @Override
    public List<ConfigOption<?>> settings() {
        return JobOptions.concat(
                List.of(NearDupOptions.SIMILARITY),
                ModeSettings.MODE_OPTIONS,
                List.of(
                        RuntimeOptions.PARALLELISM,
                        RuntimeOptions.STATE_BACKEND,
                        RuntimeOptions.CHECKPOINT_INTERVAL));
    }

    @Option(
            names = "--documents",
            paramLabel = "N",
            defaultValue = "20000",
            description = "Documents in the generated crawl. Default: ${DEFAULT-VALUE}.")
    int documents;

    @Option(
            names = "--document-size",
            paramLabel = "BYTES",
            defaultValue = "3000",
            description = "Text bytes per document. Default: ${DEFAULT-VALUE}.")
    int documentSize;

    @Option(
            names = "--duplicate-fraction",
            paramLabel = "F",
            defaultValue = "0.1",
            description =
                    "Fraction of documents that are near-duplicates (2%% of words changed) of an"
                            + " earlier one. Default: ${DEFAULT-VALUE}.")
    double duplicateFraction;

    @Option(
            names = "--hot-copies",
            paramLabel = "N",
            defaultValue = "0",
            description =
                    "Also run the hot-bucket scenario: the same distinct documents with N exact"
                            + " copies of one page spread among them (a site template, a"
                            + " soft-404), and report its throughput next to the distinct pages',"
                            + " the alerts (all should name the first copy) and the peak memory."
                            + " Default: ${DEFAULT-VALUE} (off).")
    int hotCopies;

    @Option(
            names = "--warm-up",
            paramLabel = "N",
            description =
                    "Documents read before the measured ones, in the same job (the whole job and"
                        + " the keyed path cut alike): rate and CPU time are measured from the last"
                        + " of them on, when its state holds them. Before both, the whole job runs"
                        + " on these documents alone (the first 60000 at most) until the JIT"
                        + " compilers are quiet (under 10%% of the CPU in a run, at most 6 runs),"
                        + " so that both are measured with the code compiled (on 2 cores the JIT"
                        + " takes a core for the first half minute; a streaming job runs for days)."
                        + " With --scale-curve, one warm-up run of each job instead (default"
                        + " 20000). 0 for none. Default: as many as --documents.")
    Integer warmUp;

    @Option(
            names = "--dedupe",
            description = {
                "Benchmark 'neardup dedupe' instead: write the generated crawl to a file, dedupe it"
                        + " (one BATCH job on the embedded MiniCluster: clusters and keep list"
                        + " written), then run the streaming job over the same file; report both"
                        + " rates with the peak memory (resident and heap) of each run. No"
                        + " signature-only pass, no warm-up unless --warm-up is given.",
                "Example: --dedupe --documents 1000000"
            })
    boolean dedupe;

    @Option(
            names = "--files",
            paramLabel = "ROUNDS",
            arity = "0..1",
            fallbackValue = "3",
            description = {
                "Measure 'neardup run --input FILE' and 'neardup dedupe --input FILE' against the"
                        + " stream, as a crawl team meets them: write the generated crawl to a"
                        + " file, then in each of ROUNDS rounds (default 3) measure the stream's"
                        + " rate after start-up as without --files (the whole job in this"
                        + " process, after warm-up) and run both commands on the file, each in a"
                        + " new JVM timed from launch to exit (no JVM options; this command"
                        + " line's -D and setting flags, but not --checkpoint-interval, which is"
                        + " the stream's), then each once more in this JVM, whose JIT compilers"
                        + " have compiled the job already: the file path's own speed. Reports the"
                        + " median of each, the pages/s of the file commands as shares of the"
                        + " stream's rate, their CPU per page against the stream's, and what a new"
                        + " JVM adds.",
                "Example: --files --documents 303000"
            })
    Integer files;

    @Option(
            names = "--scale-curve",
            paramLabel = "N,N[,N...]",
            split = ",",
            description = {
                "Measure how the job holds its speed as its state grows: run the whole job and the"
                        + " job with its keyed path cut on the first N documents of one generated"
                        + " crawl, for each N (increasing), in one sitting after one warm-up run"
                        + " (--warm-up, default 20000), and report documents/s, CPU per document,"
                        + " state bytes per document and p99 latency at each N, with the rate at"
                        + " the largest N as a share of the rate at the smallest. Replaces"
                        + " --documents. A crawl of N documents takes about N x"
                        + " (--document-size + 100) bytes of disk while it runs.",
                "Example: --scale-curve 100000,1000000,5000000 --plot scale.svg"
            })
    List<Integer> scaleCurve;

    @Option(
            names = "--live",
            paramLabel = "PAGES_PER_SECOND",
            description = {
                "Measure latency on a live stream instead: write the generated crawl to a"
                        + " watched directory at this rate, a new file every 100 ms, each page"
                        + " stamped with the time it is written (fetchedAt), while the job reads"
                        + " it with the watermark settings of 'run' (out-of-orderness 5 minutes"
                        + " unless set with -D); report p50/p99 from writing a page to the"
                        + " detection of its early alerts, its other alerts and its verdict."
                        + " Only what is detected while pages are being written counts: a verdict"
                        + " is due when the watermark passes its page, so run longer than the"
                        + " out-of-orderness to see verdicts.",
                "Example: --live 100 --live-duration 7m"
            })
    Integer live;

    @Option(
            names = "--live-duration",
            paramLabel = "DURATION",
            defaultValue = "7m",
            description =
                    "With --live: how long to write pages (at least 5s; 90s, 7m). Default:"
                            + " ${DEFAULT-VALUE}.")
    String liveDuration;

    @Option(
            names = "--write-corpus",
            paramLabel = "FILE",
            description =
                    "Only write the generated crawl (--documents, --document-size,"
                            + " --duplicate-fraction) to FILE as JSON Lines documents, or as WARC"
                            + " response records when FILE ends in .warc or .warc.gz, and exit:"
                            + " an input for 'neardup dedupe' or 'neardup run'.")
    Path writeCorpus;

    @Option(
            names = "--corpus-files",
            paramLabel = "N",
            defaultValue = "1",
            description =
                    "With --write-corpus: deal the pages into N files (FILE named crawl-0.jsonl,"
                            + " crawl-1.jsonl, ...), page i to file i mod N, each in fetch order"
                            + " and all overlapping in time, as a crawler's parallel fetcher"
                            + " threads write them; pages are then dated a second apart. Default:"
                            + " ${DEFAULT-VALUE}.")
    int corpusFiles;

    @Mixin CommonOptions.Plot plotOption;

    @Mixin CommonOptions.Json jsonOption;

    @Mixin ProgressOptions progress;

    @Mixin JobOptions job;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (scaleCurve != null
                && spec.commandLine().getParseResult().hasMatchedOption("--documents")) {
            throw dev.neardup.runtime.NeardupException.usage(
                    "--scale-curve sets the documents of each run: leave out --documents");
        }
        if (corpusFiles < 1 || (corpusFiles != 1 && writeCorpus == null)) {
            throw dev.neardup.runtime.NeardupException.usage(
                    corpusFiles < 1
                            ? "--corpus-files must be at least 1, got " + corpusFiles
                            : "--corpus-files applies to --write-corpus only: add --write-corpus"
                                    + " FILE, or leave it out");
        }
        if (files != null && files < 1) {
            throw dev.neardup.runtime.NeardupException.usage(
                    "--files takes the rounds, at least 1, got " + files);
        }
        Configuration conf = jobConfiguration();
        return Bench.run(
                new Bench.Options(
                        documents,
                        documentSize,
                        duplicateFraction,
                        hotCopies,
                        warmUp,
                        Setting.checked(conf, RuntimeOptions.CHECKPOINT_INTERVAL),
                        conf.get(RuntimeOptions.STATE_BACKEND),
                        dedupe,
                        files != null ? fileCommands() : null,
                        scaleCurve,
                        plotOption.plot,
                        live,
                        dev.neardup.runtime.NeardupException.usageIfInvalid(
                                () ->
                                        dev.neardup.config.OptionValues.duration(
                                                "--live-duration", liveDuration)),
                        writeCorpus,
                        corpusFiles,
                        jsonOption.json,
                        progress.quiet,
                        progress.progressInterval,
                        this::jobConfiguration),
                spec.commandLine().getOut(),
                spec.commandLine().getErr());
    }

    /**
     * How {@code --files} runs {@code run} and {@code dedupe}: with this JVM's Java binary, class
     * path and main class, and the settings given here as {@code -D} (the checkpoint interval left
     * out: it is the stream's).
     */
    private Bench.FileCommands fileCommands() {
        Map<String, String> given = new LinkedHashMap<>(job.toConfiguration().toMap());
        given.remove(RuntimeOptions.CHECKPOINT_INTERVAL.key());
        return new Bench.FileCommands(
                files,
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Neardup.class.getName()),
                given);
    }

    /**
     * The configuration of the job runs: parallelism, state backend, the watermarks of the
     * generated input, then {@code -D}; everything else (the banding too) at the defaults of {@link
     * NearDupOptions}, as in {@code neardup run}.
     */
    Configuration jobConfiguration() {
        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, Runtime.getRuntime().availableProcessors());
        conf.set(RuntimeOptions.STATE_BACKEND, "rocksdb");
        conf.set(RuntimeOptions.CHECKPOINT_INTERVAL, Duration.ofSeconds(5));
        if (live == null) {
            // The generated documents carry no fetchedAt: their event time is the time they are
            // read, in order within the file, so verdicts are final as soon as the watermark moves
            // on. The documents of the last millisecond read wait for the idle timeout: it ends
            // every measured window, so it is two watermark intervals (with 500 ms, it was a sixth
            // of a 60,000-document window and most of the p99 latency). A split taken to be idle
            // early (backpressure) is harmless: nothing it reads later is older. A --live run
            // keeps the watermark settings of 'run'.
            conf.set(NearDupOptions.MAX_OUT_OF_ORDERNESS, Duration.ZERO);
            conf.set(NearDupOptions.IDLE_TIMEOUT, Duration.ofMillis(100));
        }
        conf.addAll(job.toConfiguration());
        return conf;
    }
}
