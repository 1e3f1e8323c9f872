package dev.neardup.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.KafkaTestBroker;
import dev.neardup.testing.PlantedCorpus;
import dev.neardup.testing.ShortTempDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The job jar on a real Flink 2.2 standalone cluster, deployed as a user deploys it: the cluster is
 * started with {@code deploy/local/flink-start.sh} (separate JobManager and TaskManager processes
 * on loopback), {@code target/neardup-job.jar} is uploaded and run through the REST API, and the
 * job reads and writes a real Kafka 4.2 broker (in this JVM, on 127.0.0.1). Outputs are read with
 * {@code isolation.level=read_committed}.
 *
 * <p>One cluster for the whole scenario: planted near-duplicates alerted; stop-with-savepoint and
 * resubmission from the savepoint, with a near-duplicate of a document from before the restart
 * (state survived); {@code kill -9} of the TaskManager mid-stream and a replacement TaskManager
 * (exactly one verdict per document: none lost, none duplicated; each pair alerted exactly once,
 * early alerts included); cancel. On the same cluster, the jar's other program: {@code neardup
 * dedupe} over {@code file://} paths, against the embedded run (Jaccard, and cosine with the
 * sliding window).
 */
class StandaloneClusterE2EITCase {

    private static final Duration WAIT = KafkaJobRun.WAIT;
    private static final Path PROJECT = Path.of("").toAbsolutePath();
    private static final Path JOB_JAR = PROJECT.resolve("target/neardup-job.jar");

    private static final StepTimes STEPS = new StepTimes("e2e");
    private static LocalFlinkCluster cluster;
    private static boolean failed;

    private final KafkaJobRun job = new KafkaJobRun("e2e", 17);

    @BeforeAll
    static void startCluster() throws Exception {
        LocalFlinkCluster.requireTools();
        assertThat(JOB_JAR)
                .as("the job jar (built by 'mvn package' before the integration tests)")
                .isRegularFile();
        step(null);
        KafkaTestBroker.bootstrapServers();
        step("Kafka broker (in the test JVM)");
        // A short work directory: RocksDB refuses instance paths beyond its length limit.
        Path dir = ShortTempDirs.create("nd-flink-");
        cluster = LocalFlinkCluster.create(PROJECT, dir);
        try {
            cluster.start();
        } catch (Throwable t) {
            failed = true;
            throw t;
        }
        step("flink-start.sh: JobManager + TaskManager, 2 slots registered");
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            step(null);
            cluster.close();
            step("flink-stop.sh");
            if (failed) {
                STEPS.say("work directory kept: " + cluster.dir());
            } else {
                cluster.deleteDir();
            }
        }
        STEPS.print();
    }

    /** Ends the current step (when named) and starts the next. */
    private static void step(String finished) {
        STEPS.step(finished);
    }

    @Test
    void deployRestoreFromSavepointAndSurviveTaskManagerLoss() throws Exception {
        try {
            scenario();
        } catch (Throwable t) {
            failed = true;
            System.out.println("[e2e] FAILED; cluster logs:\n" + cluster.logTails());
            throw t;
        }
    }

    private void scenario() throws Exception {
        step(null);
        job.createTopics(2);
        FlinkRest rest = new FlinkRest(cluster.rest());
        String jarId = rest.uploadJar(JOB_JAR);
        step("POST /jars/upload (" + Files.size(JOB_JAR) / (1 << 20) + " MB)");

        List<String> args = job.jobArgs();
        String first = rest.run(jarId, args, 2, null);
        rest.awaitRunning(first, WAIT);
        step("POST /jars/{id}/run, parallelism 2, until all tasks RUNNING");

        // 1. Planted near-duplicates. Bases first, and only once their verdicts are out the
        // copies: partitions are read in parallel, so a copy sent together with its original
        // could be processed first and the pair alerted the other way round.
        job.produce(
                job.added(
                        () -> {
                            for (int i = 0; i < 40; i++) {
                                job.corpus.addBase("a-" + i, 2000);
                            }
                        }));
        job.awaitVerdicts(job.corpus.docs.size());
        List<PlantedCorpus.Doc> copies = job.added(() -> job.copies("a-", 0, 10, "a-copy-"));
        job.produce(copies);
        List<JsonNode> v1 = job.awaitVerdicts(job.corpus.docs.size());
        job.assertOneVerdictPerDocument(v1);
        for (JsonNode v : v1) {
            String id = v.get("docId").asText();
            assertThat(v.get("verdict").asText())
                    .as("verdict of %s", id)
                    .isEqualTo(id.contains("-copy-") ? "DUPLICATE" : "UNIQUE");
        }
        // The bases were settled (their verdicts out) before the copies came: alerted early.
        assertThat(job.assertAlertsArePlantedPairs()).as("early alerts").hasSize(10);
        step("planted duplicates: " + job.corpus.docs.size() + " verdicts, 10 alerts");
        assertBucketsUseNeardupRocksDbOptions();

        // 2. Stop with a savepoint, resubmit from it.
        String savepoint = rest.stopWithSavepoint(first, WAIT);
        assertThat(rest.awaitTerminal(first, WAIT)).isEqualTo("FINISHED");
        assertThat(savepoint).startsWith("file:" + cluster.dir().resolve("savepoints"));
        step("POST /jobs/{id}/stop: savepoint, FINISHED");
        String second = rest.run(jarId, args, 2, savepoint);
        rest.awaitRunning(second, WAIT);
        step("POST /jars/{id}/run with savepointPath, until RUNNING");

        // Near-duplicates of documents sent before the restart: only found if state survived.
        job.produce(job.added(() -> job.copies("a-", 10, 15, "b-copy-")));
        List<JsonNode> v2 = job.awaitVerdicts(job.corpus.docs.size());
        job.assertOneVerdictPerDocument(v2);
        for (JsonNode v : v2) {
            if (v.get("docId").asText().startsWith("b-copy-")) {
                assertThat(v.get("verdict").asText()).isEqualTo("DUPLICATE");
            }
        }
        job.assertAlertsArePlantedPairs();
        step("after restore: 5 near-duplicates of pre-restart documents alerted");

        // 3. kill -9 of the TaskManager while documents stream in; a replacement TaskManager.
        int before = job.corpus.docs.size();
        List<PlantedCorpus.Doc> stream = new ArrayList<>();
        for (int i = 0; i < 240; i++) {
            String id = "c-" + i;
            stream.addAll(job.added(() -> job.corpus.addBase(id, 2000)));
            if (i % 12 == 0) {
                int base = 15 + i / 12;
                stream.addAll(job.added(() -> job.copies("a-", base, base + 1, "c-copy-")));
            }
        }
        CountDownLatch killed = new CountDownLatch(1);
        AtomicInteger sent = new AtomicInteger();
        CompletableFuture<Void> producer =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                // ~50 documents/s; the last third only after the kill
                                int split = stream.size() * 2 / 3;
                                for (int i = 0; i < stream.size(); i += 5) {
                                    if (i >= split && killed.getCount() > 0) {
                                        killed.await(WAIT.toSeconds(), TimeUnit.SECONDS);
                                    }
                                    job.produce(stream.subList(i, Math.min(i + 5, stream.size())));
                                    sent.addAndGet(Math.min(5, stream.size() - i));
                                    Thread.sleep(100);
                                }
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });
        // Mid-stream: some of the stream committed, some in flight, more to come.
        job.awaitVerdicts(before + 20);
        int sentAtKill = sent.get();
        cluster.killTaskManager(1);
        killed.countDown();
        step(
                "kill -9 TaskManager 1 after "
                        + sentAtKill
                        + " of "
                        + stream.size()
                        + " streamed documents were sent");
        cluster.startTaskManager();
        step("flink-start.sh --taskmanager-only: replacement registered");
        producer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        List<JsonNode> v3 = job.awaitVerdicts(job.corpus.docs.size());
        step("recovered: all " + job.corpus.docs.size() + " verdicts committed");
        job.assertOneVerdictPerDocument(v3);
        // Each pair exactly once through the kill, early alerts included.
        long early =
                job.assertAlertsArePlantedPairs().stream()
                        .filter(d -> d.startsWith("c-copy-"))
                        .count();
        assertThat(early).as("early alerts of the streamed copies").isPositive();
        assertThat(rest.exceptions(second).path("exceptionHistory").path("entries"))
                .as("the job failed over (exception history)")
                .isNotEmpty();
        rest.awaitRunning(second, WAIT);
        step(
                "exactly once: one verdict per document, "
                        + job.corpus.planted.size()
                        + " alerts ("
                        + early
                        + " streamed copies early)");

        // 4. Cancel.
        rest.cancel(second);
        assertThat(rest.awaitTerminal(second, WAIT)).isEqualTo("CANCELED");
        step("PATCH /jobs/{id}?mode=cancel: CANCELED");
    }

    /**
     * {@code neardup dedupe} as a job jar on the same cluster: submitted through the REST API
     * ({@code dedupe} as the first program argument), input and outputs as {@code file://} URIs,
     * outputs written by the TaskManagers as directories of part files, and through {@code
     * flink-run.sh run} (Flink's command-line client, attached). Its clusters, keep list and pairs
     * are the embedded run's, line for line, both ways; a usage error fails the submission with the
     * command's message.
     */
    @Test
    void dedupeJobJarOnTheClusterMatchesTheEmbeddedRun() throws Exception {
        try {
            dedupeScenario();
        } catch (Throwable t) {
            failed = true;
            System.out.println("[e2e] FAILED; cluster logs:\n" + cluster.logTails());
            throw t;
        }
    }

    private void dedupeScenario() throws Exception {
        step(null);
        Path dir = Files.createDirectories(cluster.dir().resolve("dedupe-" + job.run));
        PlantedCorpus planted = new PlantedCorpus(29);
        for (int i = 0; i < 150; i++) {
            String base = planted.addBase("base-" + i, 1500);
            if (i % 3 == 0) {
                planted.addVariant(base, base + "-near", 0.9);
            }
        }
        List<PlantedCorpus.Doc> docs = new ArrayList<>(planted.docs);
        for (int i = 0; i < 10; i++) {
            PlantedCorpus.Doc original = planted.docs.get(i * 7);
            docs.add(
                    new PlantedCorpus.Doc(
                            original.id() + "-copy",
                            original.content(),
                            original.fetchedAt() + 3_600_000));
        }
        Path input = dir.resolve("crawl.jsonl");
        JobFiles.writeInput(input, docs, java.util.Map.of(5, "{\"id\": \"broken\""));
        String in = input.toUri().toString();
        String[] outputs = {"clusters", "keep", "pairs", "dead-letters"};

        FlinkRest rest = new FlinkRest(cluster.rest());
        String jarId = rest.uploadJar(JOB_JAR);
        List<String> args = new ArrayList<>(List.of("dedupe", "--input", in));
        for (String o : outputs) {
            args.add("--" + o);
            args.add(dir.resolve("cluster").resolve(o).toUri().toString());
        }
        String dedupeJob = rest.run(jarId, args, 2, null);
        assertThat(rest.awaitTerminal(dedupeJob, WAIT)).isEqualTo("FINISHED");
        step("dedupe job jar: POST /jars/{id}/run, parallelism 2, until FINISHED");

        // The same job through Flink's command-line client, attached: `flink run` waits for the
        // job and prints the command's summary.
        List<String> cli = new ArrayList<>(List.of("run", "-p", "2", JOB_JAR.toString(), "dedupe"));
        cli.addAll(List.of("--input", in));
        for (String o : outputs) {
            cli.add("--" + o);
            cli.add(dir.resolve("cli").resolve(o).toUri().toString());
        }
        String printed = cluster.flinkRun(WAIT, cli.toArray(String[]::new));
        assertThat(printed)
                .contains("Job has been submitted with JobID")
                .containsPattern("neardup: done in [0-9.]+ s")
                .contains("verified pairs")
                .contains("neardup: cluster sizes:");
        step("dedupe job jar: flink-run.sh run (attached), until the summary");

        List<String> local = new ArrayList<>(List.of("dedupe", "--input", in, "-p", "2"));
        for (String o : outputs) {
            local.add("--" + o);
            local.add(dir.resolve("embedded").resolve(o + ".jsonl").toString());
        }
        embedded(local);
        step("the same dedupe embedded (MiniCluster in the test JVM)");

        for (String o : outputs) {
            List<String> parts = withoutTime(partFiles(dir.resolve("cluster").resolve(o), o));
            List<String> embedded =
                    withoutTime(Files.readAllLines(dir.resolve("embedded").resolve(o + ".jsonl")));
            assertThat(parts)
                    .as("%s: the cluster's part files hold the embedded run's lines", o)
                    .containsExactlyInAnyOrderElementsOf(embedded);
            assertThat(withoutTime(partFiles(dir.resolve("cli").resolve(o), o)))
                    .as("%s: the attached `flink run`'s part files hold the same lines", o)
                    .containsExactlyInAnyOrderElementsOf(embedded);
        }
        List<JsonNode> clusters = JobFiles.read(dir.resolve("embedded").resolve("clusters.jsonl"));
        assertThat(clusters).hasSize(docs.size());
        for (PlantedCorpus.Pair p : planted.planted) {
            if (p.jaccard() >= 0.85) {
                assertThat(clusterOf(clusters, p.later())).isEqualTo(p.earlier());
            }
        }
        for (int i = 0; i < 10; i++) {
            String original = planted.docs.get(i * 7).id();
            assertThat(clusterOf(clusters, original + "-copy"))
                    .as("an exact copy is in its original's cluster")
                    .isEqualTo(clusterOf(clusters, original));
        }
        assertThat(JobFiles.read(dir.resolve("embedded").resolve("dead-letters.jsonl")))
                .extracting(d -> d.get("reason").asText())
                .containsExactly("MALFORMED_JSON");
        step("REST, CLI and embedded outputs identical (clusters, keep, pairs, dead letters)");

        // Cosine mode (issue 14), its sliding-window candidates, on the cluster and embedded.
        List<String> cosine =
                List.of("--similarity", "cosine", "--max-hamming", "3", "--candidates", "window");
        List<String> cosineArgs = new ArrayList<>(List.of("dedupe", "--input", in));
        cosineArgs.addAll(cosine);
        List<String> cosineLocal = new ArrayList<>(List.of("dedupe", "--input", in, "-p", "2"));
        cosineLocal.addAll(cosine);
        for (String o : List.of("clusters", "pairs")) {
            cosineArgs.add("--" + o);
            cosineArgs.add(dir.resolve("cosine-cluster").resolve(o).toUri().toString());
            cosineLocal.add("--" + o);
            cosineLocal.add(dir.resolve("cosine-embedded").resolve(o + ".jsonl").toString());
        }
        assertThat(rest.awaitTerminal(rest.run(jarId, cosineArgs, 2, null), WAIT))
                .isEqualTo("FINISHED");
        embedded(cosineLocal);
        for (String o : List.of("clusters", "pairs")) {
            List<String> embedded =
                    withoutTime(
                            Files.readAllLines(
                                    dir.resolve("cosine-embedded").resolve(o + ".jsonl")));
            assertThat(embedded).as("cosine %s", o).isNotEmpty();
            assertThat(withoutTime(partFiles(dir.resolve("cosine-cluster").resolve(o), o)))
                    .as("cosine %s: the cluster's part files hold the embedded run's lines", o)
                    .containsExactlyInAnyOrderElementsOf(embedded);
        }
        step("dedupe --similarity cosine --candidates window: cluster and embedded identical");

        // On a cluster there is no standard input, sample or local work directory.
        assertThatThrownBy(
                        () ->
                                rest.run(
                                        jarId,
                                        List.of("dedupe", "--sample", "--clusters", in + ".out"),
                                        1,
                                        null))
                .hasMessageContaining("on a Flink cluster, give --input as a path or URI");
        step("usage error on the cluster: the command's message");
    }

    /**
     * Runs the neardup command {@code args} in this JVM (embedded MiniCluster); it must succeed.
     */
    private static void embedded(List<String> args) {
        java.io.StringWriter err = new java.io.StringWriter();
        int code =
                dev.neardup.cli.Neardup.execute(
                        java.io.InputStream.nullInputStream(),
                        new java.io.PrintWriter(java.io.Writer.nullWriter()),
                        new java.io.PrintWriter(err, true),
                        args.toArray(String[]::new));
        assertThat(code).as(err.toString()).isZero();
    }

    /** The lines of the committed part files {@code NAME-*.jsonl} in {@code dir}. */
    private static List<String> partFiles(Path dir, String name) throws Exception {
        List<String> lines = new ArrayList<>();
        try (var files = Files.list(dir)) {
            List<Path> all = files.toList();
            assertThat(all)
                    .as("part files of %s, none left in progress", name)
                    .isNotEmpty()
                    .allSatisfy(
                            f ->
                                    assertThat(f.getFileName().toString())
                                            .startsWith(name + "-")
                                            .endsWith(".jsonl"));
            for (Path f : all) {
                lines.addAll(Files.readAllLines(f));
            }
        }
        return lines;
    }

    /** The lines without the dead letters' detectedAt (the time each run saw them). */
    private static List<String> withoutTime(List<String> lines) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            com.fasterxml.jackson.databind.node.ObjectNode n =
                    (com.fasterxml.jackson.databind.node.ObjectNode)
                            dev.neardup.io.Json.MAPPER.readTree(line);
            n.remove("detectedAt");
            out.add(n.toString());
        }
        return out;
    }

    private static String clusterOf(List<JsonNode> clusters, String id) {
        return clusters.stream()
                .filter(c -> c.get("docId").asText().equals(id))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no cluster line for " + id))
                .get("clusterId")
                .asText();
    }

    /**
     * The TaskManager loaded {@code NeardupRocksDbOptions} from the job jar, as flink-start.sh
     * configures it: the options RocksDB logs for the band buckets' instances (in the running job:
     * Flink deletes these logs when a job ends) are neardup's, not RocksDB's defaults.
     */
    private static void assertBucketsUseNeardupRocksDbOptions() throws Exception {
        List<String> logs;
        try (var files = Files.list(cluster.dir().resolve("log").resolve("rocksdb"))) {
            logs =
                    files.filter(f -> f.getFileName().toString().contains("BandBucketOperator"))
                            .map(
                                    f -> {
                                        try {
                                            return Files.readString(
                                                    f,
                                                    java.nio.charset.StandardCharsets.ISO_8859_1);
                                        } catch (java.io.IOException e) {
                                            throw new java.io.UncheckedIOException(e);
                                        }
                                    })
                            .toList();
        }
        assertThat(logs).as("RocksDB logs of the band buckets").isNotEmpty();
        assertThat(logs)
                .allSatisfy(
                        log ->
                                assertThat(log)
                                        .contains("Options.level0_file_num_compaction_trigger: 8")
                                        .contains("Options.level0_slowdown_writes_trigger: 60")
                                        .contains("Options.memtable_prefix_bloom_size_ratio: 0.1")
                                        .contains("Options.compression[0]: LZ4"));
        step("band buckets' RocksDB runs with NeardupRocksDbOptions from the job jar");
    }
}
