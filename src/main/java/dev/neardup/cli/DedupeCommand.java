package dev.neardup.cli;

import dev.neardup.dedupe.CandidateMethod;
import dev.neardup.dedupe.ClusterStat;
import dev.neardup.dedupe.DedupeJob;
import dev.neardup.dedupe.DedupeOptions;
import dev.neardup.dedupe.DedupeSettings;
import dev.neardup.dedupe.KeepPolicy;
import dev.neardup.io.Json;
import dev.neardup.io.JsonLinesSink;
import dev.neardup.pipeline.NearDupOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.WebOptions;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code neardup dedupe}: all near-duplicate pairs of a collection on disk and its clusters, as
 * bounded Flink jobs in BATCH mode ({@link DedupeJob}). Parses and checks the options; the job
 * graph lives in {@code dev.neardup.dedupe}.
 */
@Command(
        name = "dedupe",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        header = "Cluster near-duplicates of a collection; list the ones to keep.",
        description = {
            "Find every near-duplicate pair of a collection of documents (JSON Lines, as for"
                    + " 'run') and its clusters, the connected components of the similarity graph,"
                    + " with bounded Flink jobs in BATCH mode (on embedded Flink here; the same"
                    + " jobs run on a cluster). Every pair whose MinHash estimate reaches the"
                    + " threshold in a shared LSH band bucket is found, without a cap on bucket"
                    + " size; exact copies are grouped first.",
            "With --similarity cosine --max-hamming K: 64-bit (--simhash-bits) SimHash"
                    + " fingerprints of the word frequencies; pairs within Hamming distance K"
                    + " (cosine >= cos(pi K / bits)), found by the permuted-block tables"
                    + " (--candidates blocks: every such pair) or by seed 002's sliding window"
                    + " (--candidates window: --permutations sorted orders of the permuted bits,"
                    + " each fingerprint compared with the next --window).",
            "Writes one line per document (its cluster: the id of the cluster's earliest document"
                    + " by fetchedAt, then id; a document without near-duplicates is a cluster of"
                    + " one), optionally the keep list (one document per cluster) and the pairs."
                    + " Bad records go to the dead letters with their reason.",
            ""
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  neardup dedupe --input crawl.jsonl --clusters clusters.jsonl \\",
            "      --keep keep.jsonl",
            "  neardup dedupe --input part-1.jsonl --input s3://bucket/part-2.jsonl \\",
            "      --clusters clusters.jsonl --pairs pairs.jsonl --split-below 0.8 \\",
            "      --summary summary.json",
            "  neardup dedupe --input crawl.jsonl --clusters clusters.jsonl \\",
            "      --similarity cosine --max-hamming 3 --stopwords",
            "  neardup dedupe --input crawl.jsonl --clusters clusters.jsonl \\",
            "      --similarity cosine --candidates window --window 8 --permutations 10",
        })
final class DedupeCommand implements Callable<Integer> {

    /** Where input comes from. */
    static final class Input {
        @Option(
                names = {"--input", "-i"},
                paramLabel = "PATH",
                required = true,
                description =
                        "JSON Lines file of documents: a local path, a Flink filesystem URI"
                                + " (file://, s3://, ...) or - for standard input. Repeatable.")
        List<String> files;

        @Option(
                names = "--sample",
                required = true,
                description = "Use the sample crawl bundled in the jar.")
        boolean sample;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Input input;

    @Option(
            names = "--clusters",
            paramLabel = "FILE",
            required = true,
            description =
                    "Where each document's cluster goes (one JSON line per valid document): a"
                            + " file, or - for stdout.")
    String clusters;

    @Option(
            names = "--keep",
            paramLabel = "FILE",
            description = "Where the keep list goes: one line per cluster, its kept document.")
    String keep;

    @Option(
            names = "--pairs",
            paramLabel = "FILE",
            description = "Where the verified pairs go, with their estimated similarity.")
    String pairs;

    @Option(
            names = "--dead-letters",
            paramLabel = "FILE",
            description =
                    "Where dead letters (with payload and reason) go. Default: one summary line"
                            + " each on stderr.")
    String deadLetters;

    @Option(
            names = "--keep-policy",
            paramLabel = "earliest|longest|first",
            converter = KeepPolicyConverter.class,
            description =
                    "The document a cluster keeps: the earliest (by fetchedAt, then id: the"
                            + " cluster id), the longest content, or the first in input order."
                            + " Default: ${bundle:neardup.dedupe.keep-policy}.")
    KeepPolicy keepPolicy;

    @Option(
            names = "--split-below",
            paramLabel = "S",
            description =
                    "Chaining guard: cut clusters so that every member's estimated similarity"
                            + " to its cluster's earliest document is at least S (README: the"
                            + " chaining guard). Default: off, clusters are connected components.")
    Double splitBelow;

    @Option(
            names = "--summary",
            paramLabel = "FILE",
            description =
                    "Write the summary (counts, cluster size histogram, largest clusters,"
                            + " rounds) as JSON.")
    Path summary;

    @Option(
            names = "--threshold",
            paramLabel = "T",
            description =
                    "Jaccard similarity from which documents are near-duplicates, in (0, 1)."
                            + " With --similarity cosine: a cosine threshold, instead of"
                            + " --max-hamming. Default: ${bundle:neardup.threshold}.")
    Double threshold;

    @Mixin SketchOptions sketch;

    @Mixin SimilarityOptions similarity;

    @Option(
            names = "--candidates",
            paramLabel = "blocks|window",
            converter = CandidatesConverter.class,
            description =
                    "How candidate pairs are found. blocks: shared LSH band keys (Jaccard) or"
                            + " permuted-block table keys (cosine: every pair within"
                            + " --max-hamming). window: cosine only, seed 002's sliding window"
                            + " over sorted, permuted fingerprints (cheaper for large K, may"
                            + " miss pairs). Default: ${bundle:neardup.dedupe.candidates}.")
    CandidateMethod candidates;

    @Option(
            names = "--window",
            paramLabel = "W",
            description =
                    "--candidates window: each fingerprint is compared with the next W in every"
                            + " sorted order. Default: ${bundle:neardup.dedupe.window}.")
    Integer window;

    @Option(
            names = "--permutations",
            paramLabel = "M",
            description =
                    "--candidates window: how many random permutations of the fingerprint bits"
                            + " are sorted. Default: ${bundle:neardup.dedupe.permutations}.")
    Integer permutations;

    @Mixin BandsOptions banding;

    @Option(
            names = "--block-size",
            paramLabel = "N",
            description =
                    "Band buckets with more distinct signatures are compared in blocks of N,"
                            + " block against block. Default: ${bundle:neardup.dedupe.block-size}.")
    Integer blockSize;

    @Option(
            names = {"--parallelism", "-p"},
            paramLabel = "N",
            description = "Parallelism of the jobs. Default: the number of CPU cores.")
    Integer parallelism;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description =
                    "Directory (or Flink filesystem URI) for the working files between the jobs."
                            + " Default: a new temporary directory, deleted at the end.")
    String workDir;

    @Option(
            names = {"-D"},
            paramLabel = "KEY=VALUE",
            description = "Any Flink or neardup configuration option (repeatable).")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(
            names = {"--quiet", "-q"},
            description = "No settings or summary on stderr.")
    boolean quiet;

    @ParentCommand Neardup parent;

    @Spec CommandSpec spec;

    /** Converts blocks|window. */
    static final class CandidatesConverter extends EnumConverter<CandidateMethod> {
        CandidatesConverter() {
            super(CandidateMethod.class);
        }
    }

    /** Converts earliest|longest|first. */
    static final class KeepPolicyConverter extends EnumConverter<KeepPolicy> {
        KeepPolicyConverter() {
            super(KeepPolicy.class);
        }
    }

    @Override
    public Integer call() throws Exception {
        if (JobMain.isActive()) {
            throw CliException.usage("dedupe runs on embedded Flink only in this version");
        }
        Configuration conf = toConfiguration();
        long start = System.currentTimeMillis();
        List<String> given = input.sample ? List.of("sample-crawl.jsonl") : input.files;
        long stdinCount = given.stream().filter("-"::equals).count();
        if (stdinCount > 1) {
            throw CliException.usage("standard input (-) can be given once");
        }
        List<String> names = new ArrayList<>();
        for (String file : given) {
            names.add(file.equals("-") ? "stdin" : file);
        }
        if (new java.util.HashSet<>(names).size() != names.size()) {
            throw CliException.usage("an input is given twice: " + String.join(" ", given));
        }
        DedupeSettings settings;
        try {
            settings = DedupeSettings.from(conf, names, start);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
        if (!input.sample) {
            for (String file : given) {
                checkInput(file);
            }
        }
        CliFiles.writableFile("--clusters", clusters);
        CliFiles.writableFile("--keep", keep);
        CliFiles.writableFile("--pairs", pairs);
        CliFiles.writableFile("--dead-letters", deadLetters);
        if (summary != null) {
            CliFiles.writableFile("--summary", summary.toString());
        }
        long toStdout =
                java.util.stream.Stream.of(clusters, keep, pairs, deadLetters)
                        .filter("-"::equals)
                        .count();
        if (toStdout > 1) {
            throw CliException.usage("only one output can go to standard output (-)");
        }
        PrintWriter err = spec.commandLine().getErr();
        boolean localWork = workDir == null || DedupeJob.localPath(workDir) != null;
        try (WorkDir dir =
                WorkDir.of(localWork && workDir != null ? Path.of(workDir) : null, "neardup-")) {
            Path work = dir.path();
            List<String> inputs = new ArrayList<>();
            for (String file : given) {
                inputs.add(inputFile(file, work));
            }
            conf.set(CoreOptions.TMP_DIRS, work.resolve("tmp").toString());
            conf.set(WebOptions.UPLOAD_DIR, work.resolve("tmp").toString());
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
            if (!quiet) {
                err.println("neardup: dedupe " + settings);
            }
            DedupeJob.Result result;
            try {
                result =
                        new DedupeJob(
                                        conf,
                                        settings,
                                        inputs,
                                        new DedupeJob.Outputs(
                                                clusters,
                                                keep,
                                                pairs,
                                                deadLetters == null
                                                        ? JsonLinesSink.STDERR_SUMMARY
                                                        : deadLetters),
                                        localWork ? work.toUri().toString() : workDir)
                                .run();
            } catch (Exception e) {
                throw CliException.failure("the job failed: " + rootCause(e), e);
            }
            if (summary != null) {
                Files.writeString(
                        summary,
                        Json.pretty(summaryJson(result, settings)) + "\n",
                        StandardCharsets.UTF_8);
            }
            if (!quiet) {
                for (String line : summaryLines(result, settings)) {
                    err.println("neardup: " + line);
                }
            }
        }
        return 0;
    }

    private Configuration toConfiguration() {
        Configuration conf = new Configuration();
        properties.forEach(conf::setString);
        if (threshold != null) {
            conf.set(NearDupOptions.THRESHOLD, threshold);
        }
        sketch.applyTo(conf);
        similarity.applyTo(conf);
        banding.applyTo(conf);
        if (candidates != null) {
            conf.set(DedupeOptions.CANDIDATES, candidates);
        }
        if (window != null) {
            conf.set(DedupeOptions.WINDOW, window);
        }
        if (permutations != null) {
            conf.set(DedupeOptions.PERMUTATIONS, permutations);
        }
        if (keepPolicy != null) {
            conf.set(DedupeOptions.KEEP_POLICY, keepPolicy);
        }
        if (splitBelow != null) {
            conf.set(DedupeOptions.SPLIT_BELOW, splitBelow);
        }
        if (blockSize != null) {
            conf.set(DedupeOptions.BLOCK_SIZE, blockSize);
        }
        if (parallelism != null) {
            if (parallelism < 1) {
                throw CliException.usage("--parallelism must be at least 1, got " + parallelism);
            }
            conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        }
        return conf;
    }

    /** A local input must be a readable file; one on another filesystem must exist. */
    private static void checkInput(String file) {
        if (file.equals("-")) {
            return;
        }
        Path local;
        try {
            local = DedupeJob.localPath(file);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("not a path or URI: " + file);
        }
        if (local != null) {
            CliFiles.readableFile("input file", file, local);
            return;
        }
        try {
            org.apache.flink.core.fs.Path path =
                    new org.apache.flink.core.fs.Path(URI.create(file));
            org.apache.flink.core.fs.FileSystem fs = path.getFileSystem();
            if (!fs.exists(path)) {
                throw CliException.usage("input file not found: " + file);
            }
            if (fs.getFileStatus(path).isDir()) {
                throw CliException.usage(file + " is a directory, not a file");
            }
        } catch (IOException | IllegalArgumentException e) {
            throw CliException.usage(
                    "cannot read " + file + ": " + Neardup.oneLine(String.valueOf(e.getMessage())));
        }
    }

    private String inputFile(String file, Path work) throws IOException {
        if (input.sample) {
            Path sample = work.resolve("sample-crawl.jsonl");
            try (InputStream in = DedupeCommand.class.getResourceAsStream("/sample/crawl.jsonl")) {
                if (in == null) {
                    throw CliException.failure("the sample crawl is missing from the jar", null);
                }
                Files.copy(in, sample, StandardCopyOption.REPLACE_EXISTING);
            }
            return sample.toString();
        }
        if (file.equals("-")) {
            Path spooled = work.resolve("stdin.jsonl");
            Files.copy(parent.stdin(), spooled, StandardCopyOption.REPLACE_EXISTING);
            return spooled.toString();
        }
        return file;
    }

    /** Cluster sizes in ranges 1, 2, 3-4, 5-8, ...: range label to number of clusters. */
    static Map<String, Long> histogram(Map<Integer, Integer> sizes) {
        Map<String, Long> ranges = new LinkedHashMap<>();
        int low = 1;
        int high = 1;
        int max = sizes.isEmpty() ? 0 : java.util.Collections.max(sizes.keySet());
        while (low <= max) {
            long count = 0;
            for (Map.Entry<Integer, Integer> e : sizes.entrySet()) {
                if (e.getKey() >= low && e.getKey() <= high) {
                    count += e.getValue();
                }
            }
            if (count > 0) {
                ranges.put(low == high ? String.valueOf(low) : low + "-" + high, count);
            }
            low = high + 1;
            high = high * 2;
        }
        return ranges;
    }

    static List<String> summaryLines(DedupeJob.Result r, DedupeSettings settings) {
        List<String> lines = new ArrayList<>();
        lines.add(
                String.format(
                        Locale.ROOT,
                        "done in %.1f s (pairs %.1f s, components %.1f s: converged after %d"
                                + " rounds in %d jobs, clusters %.1f s): %d documents in %d"
                                + " clusters, %d to remove; %d verified pairs (%d exact copies),"
                                + " %d dead letters%s",
                        r.seconds(),
                        r.pairsSeconds(),
                        r.componentsSeconds(),
                        r.rounds(),
                        r.componentJobs(),
                        r.clustersSeconds(),
                        r.documents() - r.superseded() - r.deleted(),
                        r.clusters(),
                        r.removed(),
                        r.pairs(),
                        r.exactCopies(),
                        r.deadLetters(),
                        r.superseded() + r.deleted() == 0
                                ? ""
                                : String.format(
                                        Locale.ROOT,
                                        "; %d older versions of re-crawled ids and %d deleted"
                                                + " documents left out",
                                        r.superseded(),
                                        r.deleted())));
        lines.add(
                "cluster sizes: "
                        + String.join(
                                ", ",
                                histogram(r.clusterSizes()).entrySet().stream()
                                        .map(e -> e.getKey() + ": " + e.getValue())
                                        .toList()));
        List<String> largest = new ArrayList<>();
        for (ClusterStat c : r.largest()) {
            if (c.size < 2 || largest.size() >= 5) {
                break;
            }
            largest.add(
                    String.format(
                            Locale.ROOT,
                            "%s (%d, lowest similarity to it %.2f)",
                            c.clusterId,
                            c.size,
                            c.minSimilarity));
        }
        if (!largest.isEmpty()) {
            lines.add("largest clusters: " + String.join(", ", largest));
        }
        if (settings.candidates() == CandidateMethod.WINDOW) {
            lines.add(
                    String.format(
                            Locale.ROOT,
                            "sliding window: %d permutations x %d following fingerprints, %d"
                                    + " comparisons, largest sorted range %d fingerprints",
                            settings.permutations(),
                            settings.window(),
                            r.comparisons(),
                            r.largestBucket()));
        }
        if (r.giantBuckets() > 0) {
            lines.add(
                    String.format(
                            Locale.ROOT,
                            "%d band buckets above the block size (largest %d distinct"
                                    + " signatures) compared in %d block pairs",
                            r.giantBuckets(),
                            r.largestBucket(),
                            r.blockTasks()));
        }
        if (settings.guarded()) {
            lines.add(
                    String.format(
                            Locale.ROOT,
                            "chaining guard: %d components cut so that every member is within %s"
                                    + " of its cluster's earliest document",
                            r.cutComponents(),
                            Format.plain(settings.splitBelow())));
        } else if (r.chainedComponents() > 0) {
            lines.add(
                    String.format(
                            Locale.ROOT,
                            "%d clusters chain documents below the threshold to their earliest"
                                    + " document; --split-below %s cuts them",
                            r.chainedComponents(),
                            // Cosine thresholds are irrational: rounded down, so no pair within
                            // k is cut.
                            Format.plain(Math.floor(settings.job().threshold() * 1e4) / 1e4)));
        }
        return lines;
    }

    static Map<String, Object> summaryJson(DedupeJob.Result r, DedupeSettings settings) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("similarity", settings.cosine() ? "cosine" : "jaccard");
        json.put("threshold", settings.job().threshold());
        if (settings.cosine()) {
            json.put("simhashBits", settings.job().simHashBits());
            json.put("maxHamming", settings.job().maxHamming());
            json.put("candidates", settings.candidates().name().toLowerCase(Locale.ROOT));
            json.put(
                    "tables",
                    settings.candidates() == CandidateMethod.BLOCKS
                            ? settings.job().blockParams().tables()
                            : null);
            json.put(
                    "window",
                    settings.candidates() == CandidateMethod.WINDOW ? settings.window() : null);
            json.put(
                    "permutations",
                    settings.candidates() == CandidateMethod.WINDOW
                            ? settings.permutations()
                            : null);
        } else {
            json.put("bands", settings.job().bands());
            json.put("rows", settings.job().rows());
        }
        json.put("splitBelow", settings.guarded() ? settings.splitBelow() : null);
        json.put("keepPolicy", settings.keepPolicy().name().toLowerCase(Locale.ROOT));
        json.put("documents", r.documents() - r.superseded() - r.deleted());
        json.put("records", r.documents());
        json.put("deadLetters", r.deadLetters());
        json.put("supersededVersions", r.superseded());
        json.put("deletedDocuments", r.deleted());
        json.put("clusters", r.clusters());
        json.put("kept", r.kept());
        json.put("removed", r.removed());
        json.put("pairs", r.pairs());
        json.put("exactCopies", r.exactCopies());
        json.put("comparisons", r.comparisons());
        json.put("bandEntries", r.bandEntries());
        json.put("giantBuckets", r.giantBuckets());
        json.put("blockPairs", r.blockTasks());
        json.put("largestBucket", r.largestBucket());
        json.put("componentRounds", r.rounds());
        json.put("componentJobs", r.componentJobs());
        json.put("chainedClusters", r.chainedComponents());
        json.put("cutComponents", r.cutComponents());
        json.put("clusterSizes", histogram(r.clusterSizes()));
        json.put("clusterSizesExact", r.clusterSizes());
        json.put("largestClusters", r.largest());
        json.put("seconds", r.seconds());
        json.put("pairsSeconds", r.pairsSeconds());
        json.put("componentsSeconds", r.componentsSeconds());
        json.put("clustersSeconds", r.clustersSeconds());
        return json;
    }

    private static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = t.getMessage();
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
