package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.NearDupOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;

/** {@link EmbeddedJob#splitSize}: the default split size of a file input, and the option. */
class EmbeddedJobSplitSizeTest {

    private static final long MB = 1L << 20;

    @Test
    void oneReaderReadsTheFileAsOneSplit() {
        assertThat(EmbeddedJob.splitSize(new Configuration(), 300 * MB, 1)).isEqualTo(300 * MB);
    }

    @Test
    void severalReadersGetEightSplitsEachBetweenOneAndSixtyFourMegabytes() {
        Configuration none = new Configuration();
        assertThat(EmbeddedJob.splitSize(none, 320 * MB, 2)).isEqualTo(20 * MB);
        assertThat(EmbeddedJob.splitSize(none, 3 * MB, 2)).isEqualTo(MB);
        assertThat(EmbeddedJob.splitSize(none, 10_000 * MB, 2)).isEqualTo(64 * MB);
    }

    @Test
    void theOptionWinsAtAnyParallelism() {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.FILE_SPLIT_SIZE, MemorySize.parse("4kb"));
        assertThat(EmbeddedJob.splitSize(conf, 300 * MB, 1)).isEqualTo(4096);
        assertThat(EmbeddedJob.splitSize(conf, 300 * MB, 2)).isEqualTo(4096);
    }
}
