package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.batch.DedupeJob;
import dev.neardup.batch.DedupeSettings;
import dev.neardup.testing.JobFiles;
import dev.neardup.testing.PlantedCorpus;
import dev.neardup.tools.bench.SyntheticText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MiniCluster a file's run starts before it submits its job. */
class EarlyMiniClusterITCase {

    private static Configuration parallelism(int p) {
        return new Configuration().set(CoreOptions.DEFAULT_PARALLELISM, p);
    }

    /** Counts the records it passes into an accumulator. */
    static final class Count extends RichMapFunction<Integer, Integer> {
        private static final long serialVersionUID = 1L;
        private transient LongCounter counter;

        @Override
        public void open(OpenContext openContext) {
            counter = new LongCounter();
            getRuntimeContext().addAccumulator("records", counter);
        }

        @Override
        public Integer map(Integer value) {
            counter.add(1);
            return value;
        }
    }

    private static void awaitStopped(EarlyMiniCluster early) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (early.cluster().isRunning() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(early.cluster().isRunning()).as("the cluster is shut down").isFalse();
    }

    @Test
    void theJobRunsOnTheClusterStartedBeforeItWhichStopsWithTheJob() throws Exception {
        EarlyMiniCluster early = EarlyMiniCluster.start(parallelism(2));
        StreamExecutionEnvironment env = early.environment();
        assertThat(env.getParallelism()).isEqualTo(2);
        env.fromData(List.of(1, 2, 3, 4, 5))
                .map(new Count())
                .setParallelism(2)
                .sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("early");
        assertThat(early.taken()).isTrue();
        early.close(); // a no-op: the job has it
        assertThat(early.cluster().isRunning()).isTrue();
        JobExecutionResult result = job.getJobExecutionResult().get();
        assertThat(result.<Long>getAccumulatorResult("records")).isEqualTo(5L);
        awaitStopped(early);
    }

    @Test
    void aClusterNoJobTookIsShutDown() throws Exception {
        EarlyMiniCluster early = EarlyMiniCluster.start(parallelism(1));
        early.close();
        assertThat(early.taken()).isTrue();
        awaitStopped(early);
    }

    @Test
    void aJobOfAnotherShapeGetsAClusterOfItsOwn() throws Exception {
        EarlyMiniCluster early = EarlyMiniCluster.start(parallelism(1));
        StreamExecutionEnvironment env = early.environment();
        // Parallelism 3 needs 3 slots; the early cluster has 1: it is closed, the job runs.
        env.fromData(List.of(1, 2, 3))
                .map(new Count())
                .setParallelism(3)
                .sinkTo(new DiscardingSink<>());
        JobExecutionResult result = env.executeAsync("other shape").getJobExecutionResult().get();
        assertThat(result.<Long>getAccumulatorResult("records")).isEqualTo(3L);
        awaitStopped(early);
    }

    @Test
    void aDedupeRunsOnTheClusterStartedWhileItsJobIsPlanned(@TempDir Path dir) throws Exception {
        Path input = dir.resolve("docs.jsonl");
        String text = SyntheticText.prose(3, 1500);
        Files.write(
                input,
                List.of(
                        JobFiles.json(new PlantedCorpus.Doc("a", text, 1_700_000_000_000L)),
                        JobFiles.json(new PlantedCorpus.Doc("b", text, 1_700_000_001_000L)),
                        JobFiles.json(
                                new PlantedCorpus.Doc(
                                        "c", SyntheticText.prose(4, 1500), 1_700_000_002_000L))));
        Configuration conf = parallelism(2);
        AtomicReference<DedupeJob.Environment> opened = new AtomicReference<>();
        DedupeJob.Result result =
                new DedupeJob(
                                conf,
                                DedupeSettings.from(conf, List.of("docs.jsonl")),
                                List.of(input.toString()),
                                new DedupeJob.Outputs(
                                        dir.resolve("clusters.jsonl").toString(), null, null, null),
                                true)
                        .withEnvironments(
                                c -> {
                                    opened.set(EarlyMiniCluster.forDedupe(c));
                                    return opened.get();
                                })
                        .run(job -> job.getJobExecutionResult().get());
        assertThat(result.clusters()).isEqualTo(2);
        EarlyMiniCluster early = (EarlyMiniCluster) opened.get().afterSubmit();
        assertThat(early.used()).as("the job ran on the early cluster").isTrue();
        awaitStopped(early);
    }
}
