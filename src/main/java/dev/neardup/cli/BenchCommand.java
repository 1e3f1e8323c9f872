package dev.neardup.cli;

import dev.neardup.pipeline.NearDupOptions;
import dev.neardup.runtime.NeardupException;
import dev.neardup.tools.bench.Bench;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code neardup bench}: measures, in one run on this machine, the signature step alone, the whole
 * job on the embedded MiniCluster (RocksDB, checkpoints on), the latency from parsing a document to
 * its alert, and the state bytes per live document (from a native savepoint).
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        header = "Benchmark throughput, latency and state size on this machine.",
        description = {
            "Benchmark neardup on this machine with a generated crawl: signature-only"
                    + " documents/s (one thread), whole-job documents/s on the embedded"
                    + " MiniCluster with RocksDB and checkpoints, latency from parse to alert"
                    + " (p50/p99), and state bytes per live document.",
            ""
        },
        footerHeading = "%nExample:%n",
        footer = {"  neardup bench --documents 50000 --document-size 3000 --parallelism 2"})
final class BenchCommand implements Callable<Integer> {

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
                    "Documents in the whole job's warm-up run, which compiles the job's code before"
                            + " the measured run (the JIT takes most of a core for the first"
                            + " tens of seconds; a streaming job runs for days). 0 for none."
                            + " Default: as many as --documents.")
    Integer warmUp;

    @Option(
            names = {"--parallelism", "-p"},
            paramLabel = "N",
            description = "Job parallelism. Default: the number of CPU cores.")
    Integer parallelism;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "DURATION",
            defaultValue = "5s",
            description = "Checkpoint interval of the job. Default: ${DEFAULT-VALUE}.")
    String checkpointInterval;

    @Option(
            names = "--state-backend",
            paramLabel = "rocksdb|hashmap",
            defaultValue = "rocksdb",
            description =
                    "State backend of the whole-job run (compare the two to see the cost of"
                            + " RocksDB). Default: ${DEFAULT-VALUE}.")
    String stateBackend;

    @Option(
            names = {"-D"},
            paramLabel = "KEY=VALUE",
            parameterConsumer = KeyValueOption.class,
            description = {
                "Any Flink or neardup configuration option for the job runs (repeatable), for"
                        + " example:",
                "-D state.backend.rocksdb.compaction.style=UNIVERSAL"
            })
    Map<String, String> properties = new LinkedHashMap<>();

    @picocli.CommandLine.Mixin SimilarityOptions similarity;

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
            names = "--write-corpus",
            paramLabel = "FILE",
            description =
                    "Only write the generated crawl (--documents, --document-size,"
                            + " --duplicate-fraction) to FILE as JSON Lines documents, and exit:"
                            + " an input for 'neardup dedupe' or 'neardup run'.")
    Path writeCorpus;

    @Option(
            names = "--json",
            description = "Print the results as one JSON object instead of a table.")
    boolean json;

    @Option(
            names = {"--quiet", "-q"},
            description = "No phases or progress on stderr (the results still go to stdout).")
    boolean quiet;

    @Option(
            names = "--progress-interval",
            paramLabel = "DURATION",
            description =
                    "How often the job runs report progress on stderr: a line rewritten in place"
                            + " on a terminal, else a JSON line. Default: 1s on a terminal, 5s"
                            + " otherwise.")
    String progressInterval;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return Bench.run(
                new Bench.Options(
                        documents,
                        documentSize,
                        duplicateFraction,
                        hotCopies,
                        warmUp,
                        checkpointInterval,
                        stateBackend,
                        dedupe,
                        writeCorpus,
                        json,
                        quiet,
                        progressInterval,
                        this::jobConfiguration),
                spec.commandLine().getOut(),
                spec.commandLine().getErr());
    }

    /**
     * The configuration of the job runs: parallelism, state backend, the watermarks of the
     * generated input, then {@code -D}; everything else (the banding too) at the defaults of {@link
     * NearDupOptions}, as in {@code neardup run}.
     */
    Configuration jobConfiguration() {
        Configuration conf = new Configuration();
        int p = parallelism != null ? parallelism : Runtime.getRuntime().availableProcessors();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, p);
        if (!stateBackend.equals("rocksdb") && !stateBackend.equals("hashmap")) {
            throw NeardupException.usage(
                    "--state-backend must be rocksdb or hashmap, got " + stateBackend);
        }
        conf.set(org.apache.flink.configuration.StateBackendOptions.STATE_BACKEND, stateBackend);
        // The generated documents carry no fetchedAt: their event time is the time they are read,
        // in order within the file, so verdicts are final as soon as the watermark moves on.
        conf.set(NearDupOptions.MAX_OUT_OF_ORDERNESS, Duration.ZERO);
        conf.set(NearDupOptions.IDLE_TIMEOUT, Duration.ofMillis(500));
        ConfigKeys.check(properties, "-D");
        properties.forEach(conf::setString);
        similarity.applyTo(conf);
        return conf;
    }
}
