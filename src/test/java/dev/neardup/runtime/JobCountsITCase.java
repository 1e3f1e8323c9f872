package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.Verdict;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.execution.JobClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The counts the commands show come from each job's own metrics: two jobs one after the other in
 * one JVM each see their own, and a cancelled job's counts are still there after it stopped.
 */
class JobCountsITCase {

    @TempDir Path dir;

    private static List<String> sampleLines() throws Exception {
        try (InputStream in = JobCountsITCase.class.getResourceAsStream("/sample/crawl.jsonl")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private Configuration configuration(String name) {
        Configuration base = new Configuration();
        base.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        base.set(NearDupOptions.IDLE_TIMEOUT, Duration.ofSeconds(1));
        return EmbeddedJob.configuration(base, dir.resolve(name), Duration.ofSeconds(1));
    }

    private JobCounts runToTheEnd(String name, List<String> lines) throws Exception {
        Path input = dir.resolve(name + ".jsonl");
        Files.write(input, lines, StandardCharsets.UTF_8);
        Configuration conf = configuration(name);
        JobCounts counts = new JobCounts().configure(conf);
        EmbeddedJob.run(
                conf,
                NearDupSettings.from(conf),
                input,
                dir.resolve(name + "-alerts.jsonl").toString(),
                dir.resolve(name + "-verdicts.jsonl").toString(),
                dir.resolve(name + "-dead.jsonl").toString());
        return counts;
    }

    @Test
    void twoJobsOneAfterTheOtherEachCountTheirOwnRecords() throws Exception {
        List<String> sample = sampleLines();
        List<String> first = new ArrayList<>(sample.subList(0, 40));
        first.add(3, "");
        first.add(10, "   ");
        first.add("not json");
        List<String> second = sample.subList(40, 60);

        JobCounts a = runToTheEnd("a", first);
        JobCounts b = runToTheEnd("b", second);

        // The sample's first 40 lines: 38 documents and 2 dead letters; and 1 more dead letter.
        long verdictsA = Files.readAllLines(dir.resolve("a-verdicts.jsonl")).size();
        long alertsA = Files.readAllLines(dir.resolve("a-alerts.jsonl")).size();
        assertThat(verdictsA).isEqualTo(38);
        assertThat(a.count(JobCounts.DOCUMENTS)).isEqualTo(38);
        assertThat(a.written(EmbeddedJob.VERDICTS)).isEqualTo(verdictsA);
        assertThat(a.written(EmbeddedJob.VERDICTS, Verdict.UNIQUE)).isEqualTo(25);
        assertThat(a.written(EmbeddedJob.VERDICTS, Verdict.DUPLICATE)).isEqualTo(13);
        assertThat(a.written(EmbeddedJob.ALERTS)).isEqualTo(alertsA).isEqualTo(17);
        assertThat(a.written(EmbeddedJob.ALERTS, EmbeddedJob.PAIR)).isEqualTo(17);
        assertThat(a.written(EmbeddedJob.DEAD_LETTERS)).isEqualTo(3);
        // Event time to emission, from the job's histograms: early alerts are off on a file, and
        // most of the sample's pages were fetched months ago.
        assertThat(a.percentiles("earlyAlertLatency")).isNull();
        for (String h : List.of("alertLatency", "verdictLatency")) {
            long[] p = a.percentiles(h);
            assertThat(p).as(h).hasSize(2);
            assertThat(p[0]).as(h + " p50").isGreaterThan(Duration.ofDays(30).toMillis());
            assertThat(p[1]).as(h + " p99").isGreaterThanOrEqualTo(p[0]);
        }
        assertThat(Progress.latencySummary(a))
                .contains("other alerts p50", "verdicts p50")
                .doesNotContain("early");
        assertThat(a.first(EmbeddedJob.DEAD_LETTERS, DeadLetter.class))
                .extracting(d -> d.source)
                .containsExactlyInAnyOrder("a.jsonl:31", "a.jsonl:34", "a.jsonl:43");
        assertThat(a.count(JobCounts.BLANK_LINES)).isEqualTo(2);

        // Lines 41 to 60: 17 documents, 3 dead letters.
        assertThat(b.count(JobCounts.DOCUMENTS)).isEqualTo(17);
        assertThat(b.written(EmbeddedJob.VERDICTS)).isEqualTo(17);
        assertThat(b.written(EmbeddedJob.ALERTS)).isZero();
        assertThat(b.written(EmbeddedJob.DEAD_LETTERS)).isEqualTo(3);
        assertThat(b.count(JobCounts.BLANK_LINES)).isZero();
        // The first job's counts did not change when the second ran.
        assertThat(a.count(JobCounts.DOCUMENTS)).isEqualTo(38);
        assertThat(a.written(EmbeddedJob.VERDICTS)).isEqualTo(38);
        assertThat(a.written(EmbeddedJob.DEAD_LETTERS)).isEqualTo(3);
    }

    @Test
    void aCancelledJobsCountsAreStillReadable() throws Exception {
        List<String> lines = sampleLines().subList(0, 30);
        Path input = dir.resolve("watched.jsonl");
        Files.write(input, lines, StandardCharsets.UTF_8);
        Path verdicts = dir.resolve("watched-verdicts.jsonl");
        Configuration conf = configuration("watched");
        JobCounts counts = new JobCounts().configure(conf);
        JobClient job =
                EmbeddedJob.start(
                        conf,
                        NearDupSettings.from(conf),
                        input,
                        dir.resolve("watched-alerts.jsonl").toString(),
                        verdicts.toString(),
                        null,
                        true);
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        // The sample's first 30 lines: 29 documents and a dead letter.
        while (counts.written(EmbeddedJob.VERDICTS) < 29) { // live, while the job runs
            assertThat(System.nanoTime()).as("29 verdicts within 2 minutes").isLessThan(deadline);
            Thread.sleep(50);
        }
        job.cancel().get();
        assertThat(job.getJobExecutionResult()).failsWithin(Duration.ofMinutes(1));

        assertThat(counts.count(JobCounts.DOCUMENTS)).isEqualTo(29);
        assertThat(counts.written(EmbeddedJob.DEAD_LETTERS)).isEqualTo(1);
        assertThat(counts.written(EmbeddedJob.VERDICTS))
                .isEqualTo(29)
                .isEqualTo(Files.readAllLines(verdicts).size());
    }
}
