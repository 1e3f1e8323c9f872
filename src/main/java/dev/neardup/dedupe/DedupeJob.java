package dev.neardup.dedupe;

import dev.neardup.io.ClusterAssignment;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.DocumentLinesFormat;
import dev.neardup.io.DuplicatePair;
import dev.neardup.io.JsonLinesFormat;
import dev.neardup.io.JsonLinesSink;
import dev.neardup.io.LineSplitEnumerator;
import dev.neardup.io.LineSplits;
import dev.neardup.io.ParsedRecord;
import dev.neardup.pipeline.NearDupOptions;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.accumulators.Accumulator;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * {@code neardup dedupe}: the seeds' offline variant (seed 002: all similar pairs of a collection)
 * and Broder's syntactic clustering (seed 004: the connected components of the similarity graph,
 * found by sorting and grouping sketches), as bounded Flink jobs in BATCH execution mode, so that
 * the same jar runs on a cluster over object storage.
 *
 * <ol>
 *   <li><b>Pairs</b> (one job): parse (bad records to the dead letters with their reason), sketch
 *       (full MinHash signature, or SimHash fingerprint for cosine), one version per id (the
 *       latest; deletions applied), exact copies collapsed by signature fingerprint, band entries
 *       (permuted-block table entries for cosine) grouped by key, and in every bucket all pairs
 *       whose estimated similarity from the full sketches reaches the threshold; buckets larger
 *       than a block compared block against block. With cosine and WINDOW candidates instead: seed
 *       002's sliding window over sorted, permuted fingerprints, per range partition. Writes the
 *       documents (vertices) and the verified pairs (edges) to the work directory.
 *   <li><b>Components</b> (one job per {@code rounds-per-job} rounds, until converged): alternating
 *       Large-Star and Small-Star rounds ({@link StarRounds}) over the verified pairs only, each a
 *       keyed exchange.
 *   <li><b>Clusters</b> (one job): each document joined with its component, the components grouped,
 *       the chaining guard, the keep policy; writes clusters, keep list and pairs.
 * </ol>
 */
public final class DedupeJob {

    // Accumulator names.
    static final String DOCUMENTS = "documents";
    static final String DEAD_LETTERS = "dead-letters";
    static final String DELETIONS = "deletions";
    static final String SUPERSEDED = "superseded-versions";
    static final String DELETED = "deleted-documents";
    static final String COPIES = "exact-copies";
    static final String BAND_ENTRIES = "band-entries";
    static final String COMPARISONS = "comparisons";
    static final String GIANT_BUCKETS = "giant-buckets";
    static final String BLOCK_TASKS = "block-tasks";
    static final String LARGEST_BUCKET = "largest-bucket";
    static final String PAIRS = "pairs";
    static final String CLUSTERS = "clusters";
    static final String REMOVED = "removed";
    static final String CUT_COMPONENTS = "cut-components";
    static final String CHAINED_COMPONENTS = "chained-components";
    static final String CLUSTER_SIZES = "cluster-sizes";
    static final String TOP_CLUSTERS = "top-clusters";

    static String unstable(int round) {
        return "unstable-" + round;
    }

    /** The counter {@code name} of this task, added on first use (operators share names). */
    @SuppressWarnings("unchecked")
    static LongCounter counter(RuntimeContext context, String name) {
        Accumulator<?, ?> existing = context.getAccumulator(name);
        if (existing != null) {
            return (LongCounter) existing;
        }
        LongCounter counter = new LongCounter();
        context.addAccumulator(name, counter);
        return counter;
    }

    /** Where the outputs go: local files, {@link JsonLinesSink#STDOUT}, or null (not written). */
    public record Outputs(String clusters, String keep, String pairs, String deadLetters) {}

    /** What a run did: counts, rounds, sizes and the largest clusters, and its stages' times. */
    public record Result(
            long documents,
            long deadLetters,
            long deletions,
            long superseded,
            long deleted,
            long exactCopies,
            long bandEntries,
            long comparisons,
            long giantBuckets,
            long blockTasks,
            long largestBucket,
            long pairs,
            int rounds,
            int componentJobs,
            long clusters,
            long removed,
            long cutComponents,
            long chainedComponents,
            TreeMap<Integer, Integer> clusterSizes,
            List<ClusterStat> largest,
            double pairsSeconds,
            double componentsSeconds,
            double clustersSeconds) {

        public double seconds() {
            return pairsSeconds + componentsSeconds + clustersSeconds;
        }

        /** Documents kept: one per cluster. */
        public long kept() {
            return clusters;
        }
    }

    private final Configuration conf;
    private final DedupeSettings settings;
    private final List<String> inputs;
    private final Outputs outputs;
    private final Path work;

    /**
     * @param conf Flink configuration (parallelism, memory, neardup options)
     * @param inputs input files: local paths or Flink filesystem URIs, named in record sources as
     *     {@code settings.inputNames()} says
     * @param workDir a directory on a filesystem every TaskManager can reach (a URI or local path)
     *     for the working files; a new subdirectory is made and deleted at the end
     */
    public DedupeJob(
            Configuration conf,
            DedupeSettings settings,
            List<String> inputs,
            Outputs outputs,
            String workDir) {
        this.conf = Objects.requireNonNull(conf, "conf");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.inputs = List.copyOf(inputs);
        this.outputs = Objects.requireNonNull(outputs, "outputs");
        this.work = new Path(new Path(workDir), "dedupe-" + UUID.randomUUID());
        if (inputs.size() != settings.inputNames().size()) {
            throw new IllegalArgumentException("one name per input");
        }
    }

    /** Runs the jobs one after the other; deletes the working files at the end. */
    public Result run() throws Exception {
        FileSystem fs = work.getFileSystem();
        try {
            return runAll();
        } finally {
            try {
                fs.delete(work, true);
            } catch (IOException e) {
                // best effort
            }
        }
    }

    private Path dir(String name) throws IOException {
        Path p = new Path(work, name);
        p.getFileSystem().mkdirs(p);
        return p;
    }

    private Result runAll() throws Exception {
        Path vertices = dir("vertices");
        Path pairs = dir("pairs");
        long t0 = System.nanoTime();
        JobExecutionResult first = pairsJob(vertices, pairs);
        long t1 = System.nanoTime();
        long pairCount = get(first, PAIRS);
        Path edges = pairs;
        int rounds = 0;
        int jobs = 0;
        if (pairCount > 0) {
            int round = 0;
            while (true) {
                Path next = dir("edges-" + jobs);
                JobExecutionResult r = componentsJob(edges, next, round);
                jobs++;
                edges = next;
                int stable = -1;
                for (int k = round; k < round + settings.roundsPerJob(); k++) {
                    if (get(r, unstable(k)) == 0) {
                        stable = k;
                        break;
                    }
                }
                round += settings.roundsPerJob();
                if (stable >= 0) {
                    rounds = stable;
                    break;
                }
                if (round > 400) {
                    throw new IllegalStateException(
                            "connected components did not converge in " + round + " rounds");
                }
            }
        }
        long t2 = System.nanoTime();
        JobExecutionResult last = clustersJob(vertices, edges, pairs);
        long t3 = System.nanoTime();
        @SuppressWarnings("unchecked")
        Map<Integer, Integer> sizes =
                (Map<Integer, Integer>) last.getAccumulatorResult(CLUSTER_SIZES);
        @SuppressWarnings("unchecked")
        List<ClusterStat> top = (List<ClusterStat>) last.getAccumulatorResult(TOP_CLUSTERS);
        return new Result(
                get(first, DOCUMENTS),
                get(first, DEAD_LETTERS),
                get(first, DELETIONS),
                get(first, SUPERSEDED),
                get(first, DELETED),
                get(first, COPIES),
                get(first, BAND_ENTRIES),
                get(first, COMPARISONS),
                get(first, GIANT_BUCKETS),
                get(first, BLOCK_TASKS),
                get(first, LARGEST_BUCKET),
                pairCount,
                rounds,
                jobs,
                get(last, CLUSTERS),
                get(last, REMOVED),
                get(last, CUT_COMPONENTS),
                get(last, CHAINED_COMPONENTS),
                sizes == null ? new TreeMap<>() : new TreeMap<>(sizes),
                top == null ? List.of() : List.copyOf(top),
                (t1 - t0) / 1e9,
                (t2 - t1) / 1e9,
                (t3 - t2) / 1e9);
    }

    private static long get(JobExecutionResult result, String name) {
        Object value = result.getAccumulatorResult(name);
        return value == null ? 0 : ((Number) value).longValue();
    }

    /** A BATCH environment; generic (Kryo) types off, as in the streaming job. */
    StreamExecutionEnvironment environment() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        Configuration pipeline = new Configuration();
        pipeline.set(PipelineOptions.GENERIC_TYPES, false);
        env.configure(pipeline);
        return env;
    }

    private JobExecutionResult pairsJob(Path vertices, Path pairs) throws Exception {
        StreamExecutionEnvironment env = environment();
        DataStream<ParsedRecord> parsed = null;
        for (int i = 0; i < inputs.size(); i++) {
            DataStream<ParsedRecord> one =
                    env.fromSource(
                                    source(inputs.get(i), settings.inputNames().get(i), env),
                                    WatermarkStrategy.noWatermarks(),
                                    "documents " + i,
                                    TypeInformation.of(ParsedRecord.class))
                            .uid("dedupe-source-" + i)
                            .name("documents " + settings.inputNames().get(i));
            parsed = parsed == null ? one : parsed.union(one);
        }
        SingleOutputStreamOperator<DedupeDoc> sketched =
                parsed.process(new DedupeSketchFunction(settings))
                        .uid("dedupe-sketch")
                        .name("shingles, MinHash");
        sketched.getSideOutput(DedupeSketchFunction.DEAD_LETTERS)
                .sinkTo(new JsonLinesSink<DeadLetter>(outputs.deadLetters(), "dedupe-dead-letters"))
                .setParallelism(1)
                .uid("dedupe-dead-letters")
                .name("dead letters");
        SingleOutputStreamOperator<DedupeDoc> latest =
                sketched.keyBy(d -> d.id, Types.STRING)
                        .process(new LatestVersionFunction())
                        .uid("dedupe-latest-version")
                        .name("latest version per id");
        SingleOutputStreamOperator<DedupeDoc> originals =
                latest.keyBy(d -> d.fingerprint, Types.LONG)
                        .process(new ExactCopiesFunction())
                        .uid("dedupe-exact-copies")
                        .name("exact copies");
        originals
                .getSideOutput(ExactCopiesFunction.VERTICES)
                .sinkTo(JsonLines.sink(vertices))
                .uid("dedupe-vertices")
                .name("documents (working file)");
        DataStream<SimilarPair> candidatePairs =
                settings.candidates() == CandidateMethod.WINDOW
                        ? windowPairs(originals)
                        : bucketPairs(originals);
        candidatePairs
                .union(originals.getSideOutput(ExactCopiesFunction.PAIRS))
                .map(new EdgeFunctions.CountFunction(PAIRS))
                .uid("dedupe-count-pairs")
                .name("count pairs")
                .sinkTo(JsonLines.sink(pairs))
                .uid("dedupe-pairs")
                .name("pairs (working file)");
        return env.execute("neardup dedupe: pairs");
    }

    /**
     * Candidates by shared bucket keys (LSH bands, or permuted-block tables for cosine): all
     * verified pairs of every bucket, giant buckets compared block against block.
     */
    private DataStream<SimilarPair> bucketPairs(DataStream<DedupeDoc> originals) {
        SingleOutputStreamOperator<SimilarPair> bucketPairs =
                originals
                        .flatMap(new BandEntriesFunction(settings))
                        .uid("dedupe-band-entries")
                        .name(settings.cosine() ? "table keys" : "band keys")
                        .keyBy(e -> e.bandKey, Types.LONG)
                        .process(new BucketPairsFunction(settings))
                        .uid("dedupe-bucket-pairs")
                        .name("band buckets: all verified pairs");
        DataStream<SimilarPair> blockPairs =
                bucketPairs
                        .getSideOutput(BucketPairsFunction.BLOCKS)
                        .keyBy(
                                e -> Tuple3.of(e.bandKey, e.blockA, e.blockB),
                                Types.TUPLE(Types.LONG, Types.INT, Types.INT))
                        .process(new BlockPairsFunction(settings))
                        .uid("dedupe-block-pairs")
                        .name("giant buckets: block pairs");
        return bucketPairs.union(blockPairs);
    }

    /**
     * Candidates by seed 002's sliding window: per permutation, the permuted fingerprints are
     * range-partitioned by their first p bits (keyBy (permutation, prefix)), so that every task
     * sorts one contiguous range of one sorted order and slides the window over it; no task holds
     * more than one range. A pair found in several permutations is kept once (keyBy pair, reduce).
     */
    private DataStream<SimilarPair> windowPairs(DataStream<DedupeDoc> originals) {
        return originals
                .flatMap(new WindowEntriesFunction(settings))
                .uid("dedupe-window-entries")
                .name("permuted fingerprints")
                .keyBy(e -> e.partition, Types.LONG)
                .process(new WindowPairsFunction(settings))
                .uid("dedupe-window-pairs")
                .name("sorted ranges: sliding window")
                .keyBy(p -> p.a + "\n" + p.b, Types.STRING)
                .reduce((x, y) -> x)
                .uid("dedupe-window-distinct")
                .name("one per pair");
    }

    private JobExecutionResult componentsJob(Path in, Path out, int firstRound) throws Exception {
        StreamExecutionEnvironment env = environment();
        DataStream<SimilarPair> edges = JsonLines.read(env, in, SimilarPair.class, "edges");
        for (int k = firstRound; k < firstRound + settings.roundsPerJob(); k++) {
            edges =
                    edges.flatMap(new EdgeFunctions.BothDirectionsFunction())
                            .uid("both-directions-" + k)
                            .name("both directions " + k)
                            .keyBy(e -> e.a, Types.STRING)
                            .process(new LargeStarFunction(k))
                            .uid("large-star-" + k)
                            .name("large-star " + k)
                            .flatMap(new EdgeFunctions.LargerFirstFunction())
                            .uid("larger-first-" + k)
                            .name("larger end first " + k)
                            .keyBy(e -> e.a, Types.STRING)
                            .process(new SmallStarFunction())
                            .uid("small-star-" + k)
                            .name("small-star " + k);
        }
        edges.sinkTo(JsonLines.sink(out)).uid("dedupe-edges").name("edges (working file)");
        return env.execute("neardup dedupe: components, rounds " + firstRound + "+");
    }

    private JobExecutionResult clustersJob(Path vertices, Path edges, Path pairs) throws Exception {
        StreamExecutionEnvironment env = environment();
        DataStream<DedupeDoc> docs = JsonLines.read(env, vertices, DedupeDoc.class, "documents");
        DataStream<SimilarPair> stars = JsonLines.read(env, edges, SimilarPair.class, "stars");
        SingleOutputStreamOperator<ClusterAssignment> clusters =
                docs.connect(stars)
                        .keyBy(d -> d.key, e -> e.a, Types.STRING)
                        .process(new AssignClusterFunction())
                        .uid("dedupe-assign")
                        .name("component of each document")
                        .keyBy(d -> d.cluster, Types.STRING)
                        .process(new ClusterFunction(settings))
                        .uid("dedupe-clusters")
                        .name("clusters: guard and keep");
        clusters.sinkTo(new JsonLinesSink<ClusterAssignment>(outputs.clusters(), "dedupe-clusters"))
                .setParallelism(1)
                .uid("dedupe-clusters-sink")
                .name("clusters");
        if (outputs.keep() != null) {
            clusters.filter(a -> a.keep)
                    .uid("dedupe-keep-filter")
                    .name("kept documents")
                    .sinkTo(new JsonLinesSink<ClusterAssignment>(outputs.keep(), "dedupe-keep"))
                    .setParallelism(1)
                    .uid("dedupe-keep-sink")
                    .name("keep");
        }
        if (outputs.pairs() != null) {
            JsonLines.read(env, pairs, SimilarPair.class, "pairs")
                    .map(new EdgeFunctions.ToDuplicatePairFunction())
                    .returns(TypeInformation.of(DuplicatePair.class))
                    .uid("dedupe-pairs-out")
                    .name("pairs")
                    .sinkTo(new JsonLinesSink<DuplicatePair>(outputs.pairs(), "dedupe-pairs"))
                    .setParallelism(1)
                    .uid("dedupe-pairs-sink")
                    .name("pairs");
        }
        return env.execute("neardup dedupe: clusters");
    }

    /**
     * The source of one input: a local file is cut into line-aligned splits (read by all source
     * subtasks); a file on another filesystem is one split.
     */
    private FileSource<ParsedRecord> source(
            String input, String name, StreamExecutionEnvironment env) throws IOException {
        java.nio.file.Path local = localPath(input);
        LineSplits plan = null;
        if (local != null) {
            long size = java.nio.file.Files.size(local);
            plan = LineSplits.plan(local, splitSize(size, env.getParallelism()));
        }
        Path path =
                local != null
                        ? new Path(local.toAbsolutePath().toUri())
                        : new Path(URI.create(input));
        return FileSource.forRecordStreamFormat(
                        new DocumentLinesFormat(
                                new JsonLinesFormat(name, settings.job().maxDocumentBytes(), plan),
                                settings.job().parser(),
                                settings.ingestTime()),
                        path)
                .setFileEnumerator(LineSplitEnumerator.provider(plan))
                .build();
    }

    /** The local file of an input given as a path or a file: URI; null for other filesystems. */
    public static java.nio.file.Path localPath(String input) {
        int colon = input.indexOf(':');
        int slash = input.indexOf('/');
        boolean uri = colon > 1 && (slash < 0 || colon < slash);
        if (!uri) {
            return java.nio.file.Path.of(input);
        }
        URI u = URI.create(input);
        return "file".equals(u.getScheme()) ? java.nio.file.Path.of(u) : null;
    }

    private long splitSize(long fileSize, int parallelism) {
        return conf.getOptional(NearDupOptions.FILE_SPLIT_SIZE)
                .map(MemorySize::getBytes)
                .orElseGet(
                        () ->
                                parallelism <= 1
                                        ? Math.max(1, fileSize)
                                        : Math.min(
                                                64L << 20,
                                                Math.max(1L << 20, fileSize / (8L * parallelism))));
    }

    static List<String> names(List<String> inputs) {
        return new ArrayList<>(inputs);
    }
}
