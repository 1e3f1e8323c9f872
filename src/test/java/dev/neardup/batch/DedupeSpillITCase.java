package dev.neardup.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.neardup.testing.JobFiles;
import dev.neardup.testing.PlantedCorpus;
import dev.neardup.testing.ShortTempDirs;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.AlgorithmOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dedupe job on a MiniCluster whose sorts cannot hold a keyed step's records: little managed
 * memory, so that every sort spills, and a merge fan-in of 4 (2 for each input of a two-input
 * step), so that the spill files are merged on disk in several passes (the sorter's spilling thread
 * then reads and writes records while the task writes more, with one serializer). The clusters
 * agree with the exact connected components, and every pair has its exact similarity.
 */
class DedupeSpillITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(smallSorts())
                            .build());

    private static Configuration smallSorts() {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("6mb"));
        conf.set(AlgorithmOptions.SPILLING_MAX_FAN, 4);
        try {
            conf.set(CoreOptions.TMP_DIRS, ShortTempDirs.create("nd-spill").toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return conf;
    }

    @Test
    void sortsThatSpillAndMergeOnDiskGiveTheExactClustersAndPairs(@TempDir Path dir)
            throws Exception {
        PlantedCorpus corpus = DedupeJobITCase.generated(7, 1000, 10);
        Path input = dir.resolve("spilled.jsonl");
        JobFiles.writeInput(input, corpus.docs, Map.of());
        Configuration conf = new Configuration();
        DedupeJob.Result result = DedupeJobITCase.run(conf, input, dir.resolve("out"));

        Map<String, String> clusters = DedupeJobITCase.clusters(dir.resolve("out"));
        assertThat(clusters).hasSize(corpus.docs.size());
        ExactComponents.Agreement agreement =
                ExactComponents.compare(
                        clusters,
                        ExactComponents.of(input, DedupeJobITCase.settings(conf, "spilled.jsonl")));
        assertThat(agreement.precision()).isGreaterThanOrEqualTo(0.99);
        assertThat(agreement.recall()).isGreaterThanOrEqualTo(0.99);
        // Every pair is a pair of the corpus with its exact Jaccard similarity.
        Set<String> pairs = DedupeJobITCase.pairs(dir.resolve("out"));
        assertThat(pairs).hasSize((int) result.pairs());
        for (String pair : pairs) {
            String[] f = pair.split(" ");
            assertThat(Double.parseDouble(f[2]))
                    .as(pair)
                    .isCloseTo(corpus.jaccard(f[0], f[1]), within(1e-9))
                    .isGreaterThanOrEqualTo(0.8);
        }
    }
}
