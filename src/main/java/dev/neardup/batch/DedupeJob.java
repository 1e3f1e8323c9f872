package dev.neardup.batch;

import dev.neardup.config.CandidateMethod;
import dev.neardup.config.DedupeOptions;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.VerifyMode;
import dev.neardup.io.ClusterAssignment;
import dev.neardup.io.DocumentLinesFormat;
import dev.neardup.io.DuplicatePair;
import dev.neardup.io.InputFiles;
import dev.neardup.io.JsonLinesSink;
import dev.neardup.io.ParsedRecord;
import dev.neardup.lsh.RepeatFilter;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.function.FunctionWithException;

/**
 * {@code neardup dedupe}: offline similar-item detection (all similar pairs of a collection) and
 * the syntactic clustering of Broder, Glassman, Manasse and Zweig 1997 (the connected components of
 * the similarity graph), as <b>one</b> bounded Flink job in BATCH execution mode. Its stages, each
 * a keyed exchange: <b>pairs</b> ({@link BucketPairing}, {@link ExactVerifyFunctions}, or the
 * sliding window of Manku, Jain and Das Sarma 2007), <b>components</b> ({@link StarRounds}) and
 * <b>clusters</b> ({@link ClusterFunction}); {@code docs/design/dedupe-job.md}. With the repeat
 * filter ({@link RepeatKeysOperator}, {@link RouteByRepeatsFunction}) the documents that occur once
 * skip the exchanges they do not need.
 *
 * <p>The clusters stage checks that the components converged within the unrolled rounds (every
 * document has at most one star centre, and every centre is its own): if not, it fails the job with
 * {@link #NOT_CONVERGED} in the message and without restarts. {@link #run} then runs the job again
 * with four times as many rounds; a job submitted to a cluster ({@link #start}) just fails, and the
 * message names {@link DedupeOptions#ROUNDS}.
 *
 * <p>Outputs go where {@link Outputs} says: a local file or a standard stream (one {@link
 * JsonLinesSink}, parallelism 1, in the embedded mode) or a Flink filesystem URI (a directory of
 * part files written by every subtask, {@link JsonLines#sink}).
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
    static final String EXACT_CHECKS = "exact-checks";
    static final String CLUSTERS = "clusters";
    static final String CLUSTERED = "clustered-documents";
    static final String REMOVED = "removed";
    static final String CUT_COMPONENTS = "cut-components";
    static final String CHAINED_COMPONENTS = "chained-components";
    static final String IN_MEMORY = "components-in-memory";
    static final String CLUSTER_SIZES = "cluster-sizes";
    static final String TOP_CLUSTERS = "top-clusters";

    /** The start of the message of a job whose components did not converge in its rounds. */
    public static final String NOT_CONVERGED = "connected components did not converge";

    /** How many times as many rounds a run on this machine tries after one did not converge. */
    static final int MORE_ROUNDS = 4;

    static String unstable(int round) {
        return "unstable-" + round;
    }

    /**
     * The failure of the clusters stage when the component rounds did not converge: no restarts
     * (another attempt gives the same graph), and a message that says what to do.
     */
    static RuntimeException notConverged(int rounds, String detail) {
        return new SuppressRestartsException(
                new IllegalStateException(
                        "%s in %s rounds (%s): run again with -D %s=%s"
                                .formatted(
                                        NOT_CONVERGED,
                                        rounds,
                                        detail,
                                        DedupeOptions.ROUNDS.key(),
                                        Math.min(DedupeOptions.MAX_ROUNDS, rounds * MORE_ROUNDS))));
    }

    /**
     * Where the outputs go: each a local file, {@link JsonLinesSink#STDOUT} (or another target of
     * {@link JsonLinesSink}), a Flink filesystem URI (a directory, see {@link #isFileSystemUri}),
     * or null (not written).
     */
    public record Outputs(String clusters, String keep, String pairs, String deadLetters) {}

    /** What a run did: counts, rounds, sizes and the largest clusters, and its time. */
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
            long exactChecks,
            int rounds,
            int roundsInJob,
            int jobs,
            long clusters,
            long removed,
            long cutComponents,
            long chainedComponents,
            long inMemory,
            TreeMap<Integer, Integer> clusterSizes,
            List<ClusterStat> largest,
            double seconds) {

        /** Valid documents clustered: records less superseded versions and deleted documents. */
        public long clusteredDocuments() {
            return documents - superseded - deleted;
        }
    }

    /**
     * Where a job's environment comes from: by default Flink's for the configuration; the embedded
     * mode's may start its cluster while the job is planned.
     */
    public interface Environments {
        /** An environment for {@code conf}, and what to close once its job is submitted. */
        Environment open(Configuration conf);
    }

    /**
     * An environment and what to close once its job is submitted (a cluster started for it that the
     * job did not take).
     */
    public record Environment(StreamExecutionEnvironment env, AutoCloseable afterSubmit) {}

    /**
     * Up to this many sketch subtasks, the router merges their repeat counts itself ({@link
     * #repeatCounts}): each router subtask then reads twice the filter's size per sketch subtask.
     */
    static final int MERGED_BY_THE_ROUTER = 2;

    private final Configuration conf;
    private final DedupeSettings settings;
    private final List<String> inputs;
    private final Outputs outputs;
    private final boolean planSplits;
    private Environments environments =
            c -> new Environment(StreamExecutionEnvironment.getExecutionEnvironment(c), () -> {});

    /**
     * @param conf Flink configuration (parallelism, memory, neardup options)
     * @param inputs input files: local paths or Flink filesystem URIs, named in record sources as
     *     {@code settings.inputNames()} says
     * @param planSplits whether local input files are cut into line-aligned splits read by every
     *     source subtask (the client reads them to plan the splits: only where the client sees the
     *     files the TaskManagers read, as in the embedded mode); else one split per file
     */
    public DedupeJob(
            Configuration conf,
            DedupeSettings settings,
            List<String> inputs,
            Outputs outputs,
            boolean planSplits) {
        this.conf = Objects.requireNonNull(conf, "conf");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.inputs = List.copyOf(inputs);
        this.outputs = Objects.requireNonNull(outputs, "outputs");
        this.planSplits = planSplits;
        if (inputs.size() != settings.inputNames().size()) {
            throw new IllegalArgumentException("one name per input");
        }
    }

    /**
     * Runs the job to its end; if its components did not converge in {@link
     * DedupeSettings#rounds()}, runs it again with {@link #MORE_ROUNDS} times as many (up to {@link
     * DedupeOptions#MAX_ROUNDS}); the outputs of the failed attempt are replaced.
     *
     * @param waiter waits for a started job's result: the caller may report progress meanwhile
     * @return the result, or null when {@code waiter} returned null (the job was stopped)
     */
    public Result run(FunctionWithException<JobClient, JobExecutionResult, Exception> waiter)
            throws Exception {
        long start = System.nanoTime();
        DedupeSettings attempt = settings;
        int jobs = 0;
        while (true) {
            jobs++;
            try {
                JobExecutionResult r = waiter.apply(start(attempt));
                if (r == null) {
                    return null; // stopped: the waiter says why
                }
                return result(r, attempt.rounds(), jobs, (System.nanoTime() - start) / 1e9);
            } catch (Exception e) {
                if (!notConverged(e) || attempt.rounds() >= DedupeOptions.MAX_ROUNDS) {
                    throw e;
                }
                attempt =
                        attempt.withRounds(
                                Math.min(DedupeOptions.MAX_ROUNDS, attempt.rounds() * MORE_ROUNDS));
                deleteDirectoryOutputs();
            }
        }
    }

    /** Whether {@code e} is the failure of a job whose components did not converge. */
    public static boolean notConverged(Throwable e) {
        return ExceptionUtils.findThrowableWithMessage(e, NOT_CONVERGED).isPresent();
    }

    /** Builds the job with this run's settings and submits it; returns at once. */
    public JobClient start() throws Exception {
        return start(settings);
    }

    /** This job with its environments from {@code environments}; returns this job. */
    public DedupeJob withEnvironments(Environments environments) {
        this.environments = Objects.requireNonNull(environments, "environments");
        return this;
    }

    private JobClient start(DedupeSettings attempt) throws Exception {
        Environment environment = environments.open(conf);
        try (AutoCloseable afterSubmit = environment.afterSubmit()) {
            StreamExecutionEnvironment env = configure(environment.env());
            build(env, attempt);
            return env.executeAsync("neardup dedupe");
        }
    }

    /** Removes the directories of Flink filesystem outputs (before another attempt). */
    private void deleteDirectoryOutputs() throws IOException {
        for (String target :
                new String[] {
                    outputs.clusters(), outputs.keep(), outputs.pairs(), outputs.deadLetters()
                }) {
            if (target != null && isFileSystemUri(target)) {
                Path dir = new Path(URI.create(target));
                dir.getFileSystem().delete(dir, true);
            }
        }
    }

    private static Result result(JobExecutionResult r, int roundsInJob, int jobs, double seconds) {
        int rounds =
                IntStream.range(0, roundsInJob)
                        .filter(k -> get(r, unstable(k)) == 0)
                        .findFirst()
                        .orElse(roundsInJob);
        @SuppressWarnings("unchecked")
        Map<Integer, Integer> sizes = (Map<Integer, Integer>) r.getAccumulatorResult(CLUSTER_SIZES);
        @SuppressWarnings("unchecked")
        List<ClusterStat> top = (List<ClusterStat>) r.getAccumulatorResult(TOP_CLUSTERS);
        return new Result(
                get(r, DOCUMENTS),
                get(r, DEAD_LETTERS),
                get(r, DELETIONS),
                get(r, SUPERSEDED),
                get(r, DELETED),
                get(r, COPIES),
                get(r, BAND_ENTRIES),
                get(r, COMPARISONS),
                get(r, GIANT_BUCKETS),
                get(r, BLOCK_TASKS),
                get(r, LARGEST_BUCKET),
                get(r, PAIRS),
                get(r, EXACT_CHECKS),
                rounds,
                roundsInJob,
                jobs,
                get(r, CLUSTERS),
                get(r, REMOVED),
                get(r, CUT_COMPONENTS),
                get(r, CHAINED_COMPONENTS),
                get(r, IN_MEMORY),
                sizes == null ? new TreeMap<>() : new TreeMap<>(sizes),
                top == null ? List.of() : List.copyOf(top),
                seconds);
    }

    private static long get(JobExecutionResult result, String name) {
        Object value = result.getAccumulatorResult(name);
        return value == null ? 0 : ((Number) value).longValue();
    }

    /** A BATCH environment; generic (Kryo) types off, as in the streaming job. */
    StreamExecutionEnvironment environment() {
        return configure(StreamExecutionEnvironment.getExecutionEnvironment(conf));
    }

    private static StreamExecutionEnvironment configure(StreamExecutionEnvironment env) {
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.configure(new Configuration().set(PipelineOptions.GENERIC_TYPES, false));
        return env;
    }

    /** The whole dedupe, from the input files to the outputs, as one job graph in {@code env}. */
    void build(StreamExecutionEnvironment env, DedupeSettings attempt) throws IOException {
        List<InputFiles.Input> given = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            given.add(
                    new InputFiles.Input(
                            attempt.inputNames().get(i),
                            path(inputs.get(i)),
                            localPath(inputs.get(i))));
        }
        DataStream<ParsedRecord> parsed =
                env.fromSource(
                                settings.job()
                                        .input()
                                        .files(
                                                given,
                                                planSplits,
                                                conf.get(NearDupOptions.FILE_SPLIT_SIZE),
                                                env.getParallelism(),
                                                DocumentLinesFormat.UndatedLines.POSITION)
                                        .source(false, null),
                                WatermarkStrategy.noWatermarks(),
                                "documents",
                                TypeInformation.of(ParsedRecord.class))
                        .uid("dedupe-source")
                        .name("documents");
        SingleOutputStreamOperator<DedupeDoc> sketched =
                parsed.process(new DedupeSketchFunction(attempt), DedupeSerializers.DEDUPE_DOC)
                        .uid("dedupe-sketch")
                        .name(attempt.batch().sketchStage());
        write(
                sketched.getSideOutput(DedupeSketchFunction.DEAD_LETTERS),
                outputs.deadLetters(),
                "dead-letters");
        // With the repeat filter, documents whose id and content occur once take the short way:
        // past the latest-version and exact-copy steps, and with only the band keys another
        // document may share; the others take the long way through both steps.
        DataStream<DedupeDoc> longWay = sketched;
        SingleOutputStreamOperator<DedupeDoc> shortWay = null;
        if (attempt.repeatFilter()) {
            shortWay =
                    sketched.connect(
                                    repeatCounts(sketched, attempt, env.getParallelism())
                                            .broadcast(RouteByRepeatsFunction.CHUNKS))
                            .process(
                                    new RouteByRepeatsFunction(attempt),
                                    DedupeSerializers.DEDUPE_DOC)
                            .uid("dedupe-route-by-repeats")
                            .name("documents that occur once: the short way");
            longWay = shortWay.getSideOutput(RouteByRepeatsFunction.REPEATED);
        }
        SingleOutputStreamOperator<DedupeDoc> latest =
                longWay.keyBy(d -> d.id, Types.STRING)
                        .process(new LatestVersionFunction(), DedupeSerializers.DEDUPE_DOC)
                        .uid("dedupe-latest-version")
                        .name("latest version per id");
        SingleOutputStreamOperator<DedupeDoc> exactCopies =
                latest.keyBy(d -> d.fingerprint, Types.LONG)
                        .process(new ExactCopiesFunction(), DedupeSerializers.DEDUPE_DOC)
                        .uid("dedupe-exact-copies")
                        .name("exact copies");
        DataStream<DedupeDoc> originals =
                shortWay == null ? exactCopies : exactCopies.union(shortWay);
        DataStream<DedupeDoc> vertices =
                shortWay == null
                        ? exactCopies.getSideOutput(ExactCopiesFunction.VERTICES)
                        : exactCopies.getSideOutput(ExactCopiesFunction.VERTICES).union(shortWay);
        DataStream<SimilarPair> candidatePairs;
        if (attempt.candidates() == CandidateMethod.WINDOW) {
            candidatePairs = windowPairs(originals, attempt);
        } else {
            DataStream<BucketEntry> entries =
                    exactCopies
                            .flatMap(
                                    new BandEntriesFunction(attempt),
                                    DedupeSerializers.BUCKET_ENTRY)
                            .uid("dedupe-band-entries")
                            .name(attempt.mode().keyUnit() + " keys");
            if (shortWay != null) {
                entries = entries.union(shortWay.getSideOutput(RouteByRepeatsFunction.ENTRIES));
            }
            candidatePairs = bucketPairs(entries, attempt);
        }
        if (attempt.exact()) {
            candidatePairs =
                    exactPairs(
                            candidatePairs,
                            shortWay == null
                                    ? sketched.getSideOutput(DedupeSketchFunction.SHINGLES)
                                    : shortWay.getSideOutput(RouteByRepeatsFunction.SHINGLES),
                            attempt);
        }
        DataStream<SimilarPair> pairs =
                candidatePairs
                        .union(exactCopies.getSideOutput(ExactCopiesFunction.PAIRS))
                        .map(new EdgeFunctions.CountFunction(PAIRS), DedupeSerializers.SIMILAR_PAIR)
                        .uid("dedupe-count-pairs")
                        .name("count pairs");
        if (outputs.pairs() != null) {
            write(
                    pairs.map(new EdgeFunctions.ToDuplicatePairFunction())
                            .returns(TypeInformation.of(DuplicatePair.class))
                            .uid("dedupe-pairs-out")
                            .name("pairs"),
                    outputs.pairs(),
                    "pairs");
        }
        DataStream<SimilarPair> edges = pairs;
        SingleOutputStreamOperator<SimilarPair> inMemory = null;
        if (attempt.componentsInMemory() > 0) {
            inMemory =
                    pairs.transform(
                                    "components in memory",
                                    DedupeSerializers.SIMILAR_PAIR,
                                    new StarsInMemoryOperator(attempt.componentsInMemory()))
                            .uid("dedupe-components-in-memory");
            edges = inMemory.getSideOutput(StarsInMemoryOperator.ROUNDS);
        }
        for (int k = 0; k < attempt.rounds(); k++) {
            edges =
                    edges.flatMap(
                                    new EdgeFunctions.BothDirectionsFunction(),
                                    DedupeSerializers.SIMILAR_PAIR)
                            .uid("both-directions-" + k)
                            .name("both directions " + k)
                            .keyBy(e -> e.a(), Types.STRING)
                            .process(StarFunction.large(k), DedupeSerializers.SIMILAR_PAIR)
                            .uid("large-star-" + k)
                            .name("large-star " + k)
                            .flatMap(
                                    new EdgeFunctions.LargerFirstFunction(),
                                    DedupeSerializers.SIMILAR_PAIR)
                            .uid("larger-first-" + k)
                            .name("larger end first " + k)
                            .keyBy(e -> e.a(), Types.STRING)
                            .process(StarFunction.small(), DedupeSerializers.SIMILAR_PAIR)
                            .uid("small-star-" + k)
                            .name("small-star " + k);
        }
        DataStream<SimilarPair> stars = inMemory == null ? edges : edges.union(inMemory);
        SingleOutputStreamOperator<ClusterAssignment> grouped =
                vertices.connect(stars)
                        .keyBy(d -> d.key, e -> e.a(), Types.STRING)
                        .process(
                                new AssignClusterFunction(attempt.rounds()),
                                DedupeSerializers.DEDUPE_DOC)
                        .uid("dedupe-assign")
                        .name("component of each document")
                        .keyBy(d -> d.cluster, Types.STRING)
                        .process(new ClusterFunction(attempt))
                        .uid("dedupe-clusters")
                        .name("clusters: guard and keep");
        DataStream<ClusterAssignment> alone =
                shortWay != null && attempt.candidates() == CandidateMethod.BLOCKS
                        ? shortWay.getSideOutput(RouteByRepeatsFunction.ALONE)
                        : null;
        if (localFile(outputs.clusters())
                && (outputs.keep() == null || localFile(outputs.keep()))) {
            // The lines are encoded where the clusters are assigned, by every subtask; the one
            // writer of a local file copies them.
            DataStream<ClusterLine> lines =
                    grouped.map(ClusterLine::of, DedupeSerializers.CLUSTER_LINE)
                            .uid("dedupe-cluster-lines")
                            .name("clusters: lines");
            if (alone != null) {
                lines =
                        lines.union(
                                alone.map(ClusterLine::of, DedupeSerializers.CLUSTER_LINE)
                                        .uid("dedupe-alone-lines")
                                        .name("clusters of one: lines"));
            }
            write(lines, outputs.clusters(), "clusters");
            if (outputs.keep() != null) {
                write(
                        lines.filter(ClusterLine::keep)
                                .uid("dedupe-keep-filter")
                                .name("kept documents"),
                        outputs.keep(),
                        "keep");
            }
            return;
        }
        DataStream<ClusterAssignment> clusters = alone == null ? grouped : grouped.union(alone);
        write(clusters, outputs.clusters(), "clusters");
        if (outputs.keep() != null) {
            write(
                    clusters.filter(a -> a.keep).uid("dedupe-keep-filter").name("kept documents"),
                    outputs.keep(),
                    "keep");
        }
    }

    /** Whether an output goes to a local file or standard output (one writer), not discarded. */
    private static boolean localFile(String target) {
        return target != null && !isFileSystemUri(target);
    }

    /**
     * Candidates by shared bucket keys (LSH bands, or permuted-block tables for cosine): all
     * verified pairs of every bucket, giant buckets compared block against block.
     */
    private static DataStream<SimilarPair> bucketPairs(
            DataStream<BucketEntry> entries, DedupeSettings attempt) {
        SingleOutputStreamOperator<SimilarPair> bucketPairs =
                entries.keyBy(BucketEntry::bandKey, Types.LONG)
                        .process(new BucketPairsFunction(attempt), DedupeSerializers.SIMILAR_PAIR)
                        .uid("dedupe-bucket-pairs")
                        .name(attempt.mode().keyUnit() + " buckets: all verified pairs");
        DataStream<SimilarPair> blockPairs =
                bucketPairs
                        .getSideOutput(BucketPairsFunction.BLOCKS)
                        .keyBy(
                                e -> Tuple3.of(e.bandKey(), e.blockA(), e.blockB()),
                                Types.TUPLE(Types.LONG, Types.INT, Types.INT))
                        .process(new BlockPairsFunction(attempt), DedupeSerializers.SIMILAR_PAIR)
                        .uid("dedupe-block-pairs")
                        .name("giant buckets: block pairs");
        return bucketPairs.union(blockPairs);
    }

    /**
     * The counts of the keys of {@code sketched} ({@link RepeatFilter}), counted in each subtask of
     * the sketch step, for the router to merge. Up to {@link #MERGED_BY_THE_ROUTER} sketch
     * subtasks, the router gets each subtask's counts and merges them itself (a step less); beyond,
     * they are merged keyed by chunk, and the router gets them without the {@code seen} filter that
     * only the merge needs (every router subtask reads what it gets: one filter, not one per
     * subtask).
     */
    private static DataStream<RepeatFilter.Chunk> repeatCounts(
            DataStream<DedupeDoc> sketched, DedupeSettings attempt, int parallelism) {
        SingleOutputStreamOperator<RepeatFilter.Chunk> counts =
                sketched.transform(
                                "repeated keys: count",
                                DedupeSerializers.REPEAT_CHUNK,
                                new RepeatKeysOperator(attempt))
                        .uid("dedupe-repeat-count");
        if (parallelism <= MERGED_BY_THE_ROUTER) {
            return counts;
        }
        return counts.keyBy(RepeatFilter.Chunk::index, Types.INT)
                .reduce(RepeatFilter.Chunk::merge)
                .uid("dedupe-repeat-merge")
                .name("repeated keys: merge")
                .map(RepeatFilter.Chunk::repeatedOnly, DedupeSerializers.REPEAT_CHUNK)
                .uid("dedupe-repeat-filter")
                .name("repeated keys: filter");
    }

    /**
     * Exact verification ({@link VerifyMode#EXACT}): each side of a candidate joined with its
     * document's shingle set (keyed by document: every set is sorted once), then the two sides met
     * (keyed by pair), where the exact Jaccard similarity decides; {@link ExactVerifyFunctions}.
     */
    private static DataStream<SimilarPair> exactPairs(
            DataStream<SimilarPair> candidates,
            DataStream<DocShingles> shingles,
            DedupeSettings attempt) {
        return candidates
                .flatMap(new ExactVerifyFunctions.Sides(), DedupeSerializers.PAIR_SIDE)
                .uid("dedupe-exact-sides")
                .name("exact: both sides of each candidate")
                .keyBy(ExactVerifyFunctions.PairSide::document, Types.STRING)
                .connect(shingles.keyBy(DocShingles::key, Types.STRING))
                .process(new ExactVerifyFunctions.AttachSets())
                .returns(DedupeSerializers.SIDE_SET)
                .uid("dedupe-exact-sets")
                .name("exact: shingle sets of the candidates")
                .keyBy(ExactVerifyFunctions.SideSet::pair, Types.STRING)
                .process(new ExactVerifyFunctions.Verify(attempt.job().similarity().threshold()))
                .returns(DedupeSerializers.SIMILAR_PAIR)
                .uid("dedupe-exact-verify")
                .name("exact: Jaccard of the shingle sets");
    }

    /**
     * Candidates by the sliding window over sorted, permuted fingerprints: per permutation, the
     * permuted fingerprints are range-partitioned by their first p bits (keyBy (permutation,
     * prefix)), so that every task sorts one contiguous range of one sorted order and slides the
     * window over it; no task holds more than one range. A pair found in several permutations is
     * kept once (keyBy pair, reduce).
     */
    private static DataStream<SimilarPair> windowPairs(
            DataStream<DedupeDoc> originals, DedupeSettings attempt) {
        return originals
                .flatMap(new WindowEntriesFunction(attempt), DedupeSerializers.WINDOW_ENTRY)
                .uid("dedupe-window-entries")
                .name("permuted fingerprints")
                .keyBy(WindowEntry::partition, Types.LONG)
                .process(new WindowPairsFunction(attempt), DedupeSerializers.SIMILAR_PAIR)
                .uid("dedupe-window-pairs")
                .name("sorted ranges: sliding window")
                .keyBy(p -> SimilarPair.key(p.a(), p.b()), Types.STRING)
                .reduce((x, y) -> x)
                .uid("dedupe-window-distinct")
                .name("one per pair");
    }

    /**
     * Writes {@code stream} to {@code target}: a directory of part files when it is a Flink
     * filesystem URI, else one {@link JsonLinesSink} (parallelism 1).
     */
    private static <T> void write(DataStream<T> stream, String target, String name) {
        if (target != null && isFileSystemUri(target)) {
            stream.sinkTo(JsonLines.<T>sink(new Path(URI.create(target)), name))
                    .uid("dedupe-" + name + "-files")
                    .name(name + " (" + target + ")");
        } else {
            stream.sinkTo(new JsonLinesSink<T>(target))
                    .setParallelism(1)
                    .uid("dedupe-" + name + "-sink")
                    .name(name);
        }
    }

    /**
     * Whether an output is a Flink filesystem URI ({@code file:///...}, {@code s3://...}): written
     * as a directory of part files. A plain path is a local file, written whole.
     */
    public static boolean isFileSystemUri(String s) {
        int colon = s.indexOf(':');
        int slash = s.indexOf('/');
        return colon > 1 && (slash < 0 || colon < slash);
    }

    /** The Flink path of an input given as a local path or a URI. */
    private static Path path(String input) {
        java.nio.file.Path local = localPath(input);
        return local != null
                ? new Path(local.toAbsolutePath().toUri())
                : new Path(URI.create(input));
    }

    /** The local file of an input given as a path or a file: URI; null for other filesystems. */
    public static java.nio.file.Path localPath(String input) {
        if (!isFileSystemUri(input)) {
            return java.nio.file.Path.of(input);
        }
        URI u = URI.create(input);
        return "file".equals(u.getScheme()) ? java.nio.file.Path.of(u) : null;
    }
}
