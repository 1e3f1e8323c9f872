package dev.neardup.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.testing.KafkaTestBroker;
import dev.neardup.testing.PlantedCorpus;
import dev.neardup.testing.ShortTempDirs;
import dev.neardup.testing.ZooKeeperTestServer;
import java.io.IOException;
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
 * JobManager failover on a real Flink 2.2 standalone cluster with ZooKeeper high availability: a
 * ZooKeeper server (in this JVM, on loopback), a cluster started with {@code deploy/local/
 * flink-start.sh --zookeeper} (JobManager and TaskManager processes), and the job jar submitted
 * through the REST API, reading a 4-partition documents topic of a real Kafka 4.2 broker and
 * writing with exactly-once Kafka sinks.
 *
 * <p>While documents stream in, and after checkpoints have completed, the JobManager is killed with
 * {@code kill -9}, and a new one is started ({@code flink-start.sh --jobmanager-only}, same REST
 * port). The new JobManager is elected through ZooKeeper, recovers the same job (same id) and
 * restores it from its latest completed checkpoint (the REST API's checkpoint statistics say
 * which), and the stream goes on: documents sent while no JobManager ran and after the recovery
 * included. In the end every document has exactly one committed verdict and every planted pair
 * exactly one committed alert, read with {@code isolation.level=read_committed}.
 */
class JobManagerFailoverITCase {

    private static final Duration WAIT = KafkaJobRun.WAIT;
    private static final Path PROJECT = Path.of("").toAbsolutePath();
    private static final Path JOB_JAR = PROJECT.resolve("target/neardup-job.jar");

    private static final StepTimes STEPS = new StepTimes("ha");
    private static ZooKeeperTestServer zooKeeper;
    private static LocalFlinkCluster cluster;
    private static boolean failed;

    private final KafkaJobRun job = new KafkaJobRun("ha", 23);

    @BeforeAll
    static void startCluster() throws Exception {
        LocalFlinkCluster.requireTools();
        assertThat(JOB_JAR)
                .as("the job jar (built by 'mvn package' before the integration tests)")
                .isRegularFile();
        STEPS.step(null);
        KafkaTestBroker.bootstrapServers();
        STEPS.step("Kafka broker (in the test JVM)");
        // A short work directory: RocksDB refuses instance paths beyond its length limit.
        Path dir = ShortTempDirs.create("nd-ha-");
        zooKeeper = ZooKeeperTestServer.start(dir.resolve("zookeeper"));
        STEPS.step("ZooKeeper server (in the test JVM) on " + zooKeeper.connectString());
        cluster = LocalFlinkCluster.create(PROJECT, dir);
        try {
            cluster.start("--zookeeper", zooKeeper.connectString());
        } catch (Throwable t) {
            failed = true;
            throw t;
        }
        STEPS.step("flink-start.sh --zookeeper: JobManager + TaskManager, 2 slots registered");
    }

    @AfterAll
    static void stopCluster() {
        try {
            if (cluster != null) {
                STEPS.step(null);
                cluster.close();
                STEPS.step("flink-stop.sh");
            }
        } finally {
            if (zooKeeper != null) {
                zooKeeper.close();
            }
            if (cluster != null) {
                if (failed) {
                    STEPS.say("work directory kept: " + cluster.dir());
                } else {
                    cluster.deleteDir();
                }
            }
            STEPS.print();
        }
    }

    @Test
    void jobRecoversFromItsLastCheckpointWhenTheJobManagerIsKilled() throws Exception {
        try {
            scenario();
        } catch (Throwable t) {
            failed = true;
            System.out.println("[ha] FAILED; cluster logs:\n" + cluster.logTails());
            throw t;
        }
    }

    private void scenario() throws Exception {
        STEPS.step(null);
        job.createTopics(4);
        FlinkRest rest = new FlinkRest(cluster.rest());
        String jarId = rest.uploadJar(JOB_JAR);
        // A 5 s out-of-orderness: verdicts follow the stream within seconds (not 5 minutes), so
        // outputs are committed before, during and after the failover.
        String jobId = rest.run(jarId, job.jobArgs("--max-out-of-orderness", "5s"), 2, null);
        rest.awaitRunning(jobId, WAIT);
        STEPS.step("4 partitions; POST /jars/upload, /jars/{id}/run (parallelism 2): RUNNING");

        // Originals first, settled (their verdicts committed) before the stream copies them.
        job.produce(
                job.added(
                        () -> {
                            for (int i = 0; i < 40; i++) {
                                job.corpus.addBase("a-" + i, 2000);
                            }
                        }));
        job.assertOneVerdictPerDocument(job.awaitVerdicts(job.corpus.docs.size()));
        STEPS.step("40 originals: 40 verdicts committed");

        // The stream: new pages, and every 12th a near-duplicate of an original. The last fifth is
        // held back until the job has recovered, so that some pages come after it; the kill comes
        // well before the producer gets there (after about a quarter of the stream).
        int before = job.corpus.docs.size();
        List<PlantedCorpus.Doc> stream = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String id = "s-" + i;
            stream.addAll(job.added(() -> job.corpus.addBase(id, 2000)));
            if (i % 12 == 0) {
                int base = i / 12;
                stream.addAll(job.added(() -> job.copies("a-", base, base + 1, "s-copy-")));
            }
        }
        int held = stream.size() * 4 / 5;
        CountDownLatch recovered = new CountDownLatch(1);
        AtomicInteger sent = new AtomicInteger();
        CompletableFuture<Void> producer =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                // ~25 documents/s
                                for (int i = 0; i < stream.size(); i += 5) {
                                    if (i >= held && recovered.getCount() > 0) {
                                        if (!recovered.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                                            return; // the test fails on the verdicts
                                        }
                                    }
                                    job.produce(stream.subList(i, Math.min(i + 5, stream.size())));
                                    sent.addAndGet(Math.min(5, stream.size() - i));
                                    Thread.sleep(200);
                                }
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });
        try {
            failover(rest, jobId, before, stream.size(), held, sent, recovered);
        } finally {
            recovered.countDown(); // the producer ends in any case
        }
        producer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        STEPS.step("the rest of the stream sent (" + stream.size() + " documents in all)");

        List<JsonNode> verdicts = job.awaitVerdicts(job.corpus.docs.size());
        STEPS.step("all " + job.corpus.docs.size() + " verdicts committed");
        job.assertOneVerdictPerDocument(verdicts);
        long early =
                job.assertAlertsArePlantedPairs().stream()
                        .filter(d -> d.startsWith("s-copy-"))
                        .count();
        assertThat(early).as("early alerts of the streamed copies").isPositive();
        JsonNode checkpoints = rest.checkpoints(jobId);
        assertThat(checkpoints.at("/latest/completed/id").asLong())
                .as("checkpoints completed after the restore: %s", checkpoints.get("latest"))
                .isGreaterThan(checkpoints.at("/latest/restored/id").asLong());
        STEPS.step(
                "exactly once through the failover: 0 lost, 0 duplicated verdicts ("
                        + job.corpus.docs.size()
                        + "), each of "
                        + job.corpus.planted.size()
                        + " pairs alerted once ("
                        + early
                        + " streamed copies early)");

        rest.cancel(jobId);
        assertThat(rest.awaitTerminal(jobId, WAIT)).isEqualTo("CANCELED");
        STEPS.step("PATCH /jobs/{id}?mode=cancel: CANCELED");
    }

    /**
     * Kills the JobManager once the stream's first outputs are committed, starts a new one, and
     * checks that it recovered the job from the latest checkpoint; then lets the held-back
     * documents go.
     */
    private void failover(
            FlinkRest rest,
            String jobId,
            int before,
            int streamSize,
            int held,
            AtomicInteger sent,
            CountDownLatch recovered)
            throws Exception {
        // Mid-stream: some of the stream committed (so checkpoints completed), more to come.
        job.awaitVerdicts(before + 30);
        JsonNode checkpoints = rest.checkpoints(jobId);
        long lastCompleted = checkpoints.at("/latest/completed/id").asLong(-1);
        assertThat(lastCompleted).as("a completed checkpoint: %s", checkpoints).isPositive();
        assertThat(zooKeeper.connections())
                .as("ZooKeeper clients (JobManager, TaskManager)")
                .isPositive();
        long oldPid = cluster.jobManagerPid();
        int sentAtKill = sent.get();
        cluster.killJobManager();
        STEPS.step(
                "kill -9 JobManager (pid "
                        + oldPid
                        + ") after checkpoint "
                        + lastCompleted
                        + ", with "
                        + sentAtKill
                        + " of "
                        + streamSize
                        + " streamed documents sent");
        assertThat(sentAtKill)
                .as("documents were still arriving when the JobManager was killed")
                .isLessThan(held);

        cluster.startJobManager();
        assertThat(cluster.jobManagerPid()).as("a new JobManager process").isNotEqualTo(oldPid);
        STEPS.step(
                "flink-start.sh --jobmanager-only: the new JobManager leads, TaskManager"
                        + " registered ("
                        + (sent.get() - sentAtKill)
                        + " documents sent meanwhile)");

        awaitJobKnown(rest, jobId);
        rest.awaitRunning(jobId, WAIT);
        JsonNode overview = rest.call("GET", "/jobs/overview", null);
        assertThat(overview.get("jobs"))
                .as("the new JobManager's jobs: the same job, RUNNING")
                .singleElement()
                .satisfies(
                        j -> {
                            assertThat(j.get("jid").asText()).isEqualTo(jobId);
                            assertThat(j.get("state").asText()).isEqualTo("RUNNING");
                        });
        JsonNode restored = rest.checkpoints(jobId).at("/latest/restored");
        assertThat(restored.isObject())
                .as("the recovered job was restored from a checkpoint: %s", restored)
                .isTrue();
        assertThat(restored.get("is_savepoint").asBoolean()).isFalse();
        assertThat(restored.get("id").asLong())
                .as("restored from the latest completed checkpoint (%s)", restored)
                .isGreaterThanOrEqualTo(lastCompleted);
        assertThat(restored.get("external_path").asText())
                .contains(cluster.dir().resolve("checkpoints").resolve(jobId).toString());
        STEPS.step(
                "job "
                        + jobId
                        + " RUNNING again, restored from checkpoint "
                        + restored.get("id").asLong());
        recovered.countDown();
    }

    /**
     * Waits until the new JobManager's REST API knows the job (it answers 404 while the job is
     * still being recovered).
     */
    private static void awaitJobKnown(FlinkRest rest, String jobId) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        Throwable last = null;
        while (System.nanoTime() < deadline) {
            try {
                rest.job(jobId);
                return;
            } catch (AssertionError | IOException e) {
                last = e;
            }
            Thread.sleep(250);
        }
        fail("the new JobManager does not know job %s after %s: %s", jobId, WAIT, last);
    }
}
