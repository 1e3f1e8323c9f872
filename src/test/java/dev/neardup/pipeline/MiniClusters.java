package dev.neardup.pipeline;

import dev.neardup.testing.ShortTempDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The MiniCluster the integration tests share: one TaskManager with two slots. */
final class MiniClusters {

    private MiniClusters() {}

    /**
     * A short temp directory: RocksDB refuses instance paths longer than its limit, which JUnit's
     * temp directories exceed.
     */
    static final Path TMP = shortTempDir();

    static MiniClusterExtension twoSlots() {
        Configuration conf = new Configuration();
        conf.set(CoreOptions.TMP_DIRS, TMP.toString());
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(2)
                        .setConfiguration(conf)
                        .build());
    }

    private static Path shortTempDir() {
        try {
            return ShortTempDirs.create("nd");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
